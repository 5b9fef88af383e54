/**
 * The files every consumer project starts from: one small contract with a
 * retry policy, handlers for it, and a stdio server. Each must compile under
 * the strictest flags in every project, ESM or CommonJS, so the server has
 * no top-level await and nothing uses `import.meta`.
 */

/** A read tool (so it may be retried) with a default, a bound and a two-attempt retry policy. */
export const CONTRACT = `# A consumer's contract: looks an item up; a flaky backend is retried.
name: lookup_item
version: 1
title: Look up an item
description: Find one item by id.
effect: read
timeoutMs: 5000
retry: { attempts: 3, backoffMs: 10 }
input:
  type: object
  properties:
    id: { type: string, pattern: "^item_[a-z0-9]+$" }
    qty: { type: integer, minimum: 1, default: 1 }
  required: [id]
output:
  type: object
  properties:
    id: { type: string }
    name: { type: string }
    qty: { type: integer }
    attempt: { type: integer, description: Which attempt answered. }
  required: [id, name, qty, attempt]
examples:
  - name: one item
    input: { id: item_1 }
    output: { id: item_1, name: Item item_1, qty: 1, attempt: 1 }
  - name: zero quantity is rejected
    input: { id: item_1, qty: 0 }
    invalid: [qty]
`;

/** `item_flaky` fails its first attempt with a TransientError, so the answer comes from attempt 2. */
export const HANDLERS = `import { TransientError, type Handlers } from "./generated/index.js";

export const handlers: Handlers = {
  lookup_item: async (input, ctx) => {
    if (input.id === "item_flaky" && ctx.attempt === 1) throw new TransientError("backend busy");
    return { id: input.id, name: \`Item \${input.id}\`, qty: input.qty, attempt: ctx.attempt };
  },
};
`;

/**
 * The server starter of MCP SDK line \`sdk\`, as the README has it: 1.x
 * connects a \`StdioServerTransport\`; 2.x goes through the SDK's
 * \`serveStdio\`, which serves MCP 2026-07-28 and the 2025 revisions.
 */
export function serverSource(sdk: 1 | 2): string {
  return sdk === 1 ? SERVER : SERVER_2;
}

const SERVER_2 = `import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServer } from "./generated/index.js";
import { handlers } from "./handlers.js";

serveStdio(() => createServer(handlers, { name: "consumer", version: "1.0.0" }));
`;

const SERVER = `import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createServer } from "./generated/index.js";
import { handlers } from "./handlers.js";

createServer(handlers, { name: "consumer", version: "1.0.0" })
  .connect(new StdioServerTransport())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
`;

/** The strictest flags people use, as tsconfig compilerOptions (verbatimModuleSyntax aside, which CommonJS packages cannot have). */
export { STRICT_FLAGS as STRICTEST } from "../helpers/typescripts.js";
