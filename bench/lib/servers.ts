/**
 * The three kinds of stdio server the start-up and round-trip benches
 * spawn, written as plain .mjs next to a bench project: toolc's generated
 * server, the same tools on the SDK's McpServer with zod, and the floor (an
 * empty low-level Server). Each is written for one MCP SDK line, and the
 * three of a comparison are always on the same line: the two lines differ in
 * their own cost per request and at start-up, and that difference is not
 * toolc's.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** An MCP SDK line: 1.x (`@modelcontextprotocol/sdk`) or 2.x (`@modelcontextprotocol/server`). */
export type SdkLine = 1 | 2;

/** The SDK line's modules a server script imports. */
const SDK_MODULES = {
  1: {
    stdio: "@modelcontextprotocol/sdk/server/stdio.js",
    mcpServer: "@modelcontextprotocol/sdk/server/mcp.js",
    server: "@modelcontextprotocol/sdk/server/index.js",
  },
  2: {
    stdio: "@modelcontextprotocol/server/stdio",
    mcpServer: "@modelcontextprotocol/server",
    server: "@modelcontextprotocol/server",
  },
} as const;

/** The floor's tools/list handler: SDK 1.x registers it by request schema, 2.x by method name. */
const FLOOR_LIST_HANDLER = {
  1: {
    imports: `import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n`,
    register: "server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));",
  },
  2: { imports: "", register: `server.setRequestHandler("tools/list", async () => ({ tools: [] }));` },
} as const;

/** Zod raw shapes equivalent to bench/lib/synthetic.ts and bench/definitions (same bounds, formats, closed objects). */
const ZOD_SHAPES = `
const Status = z.enum(["pending", "active", "suspended", "closed"]);
const Item = z.strictObject({ id: z.string().regex(/^it_[A-Za-z0-9]+$/), status: Status, quantity: z.number().int().min(0).optional(), updatedAt: z.iso.datetime().optional() });
const syntheticInput = (write) => ({
  ...(write ? { requestId: z.string().min(8) } : {}),
  accountId: z.string().min(1).max(64).describe("Account id"),
  status: Status.optional(),
  limit: z.number().int().min(1).max(100).default(20),
  since: z.iso.datetime().optional(),
  tags: z.array(z.string().max(32)).max(10).optional(),
});
const syntheticOutput = { accountId: z.string(), total: z.number().int().min(0), items: z.array(Item), nextCursor: z.string().nullable().optional() };
const Order = z.strictObject({ id: z.string().regex(/^ord_[A-Za-z0-9]+$/), status: z.enum(["pending", "paid", "shipped", "cancelled"]), amountCents: z.number().int().min(0), placedAt: z.iso.datetime() });
const getOrderInput = { customerId: z.string().min(1), includeHistory: z.boolean().default(false), requestId: z.uuid().optional() };
const getOrderOutput = { found: z.boolean(), customerId: z.string(), orders: z.array(Order) };
`;

export const SYNTHETIC_OUTPUT = { accountId: "acc_1", total: 1, items: [{ id: "it_1", status: "active" }] };
export const GET_ORDER_OUTPUT = {
  found: true,
  customerId: "cus_1",
  orders: [{ id: "ord_1", status: "paid", amountCents: 1200, placedAt: "2026-03-14T09:26:53Z" }],
};

/** toolc's server: every contract gets a handler returning `output`. */
export function writeGeneratedServer(dir: string, output: unknown, line: SdkLine): string {
  const path = join(dir, `server-toolc-sdk${line}.mjs`);
  writeFileSync(
    path,
    `import { StdioServerTransport } from "${SDK_MODULES[line].stdio}";
import { contracts, createServer } from "./js/index.js";
const output = ${JSON.stringify(output)};
const handlers = Object.fromEntries(Object.keys(contracts).map((name) => [name, async () => output]));
await createServer(handlers).connect(new StdioServerTransport());
`,
  );
  return path;
}

/** McpServer + zod: `count` synthetic tools (count 0 means get_order only). */
export function writeZodServer(dir: string, count: number, output: unknown, line: SdkLine): string {
  const path = join(dir, `server-zod-sdk${line}.mjs`);
  const tools =
    count === 0
      ? `server.registerTool("get_order", { title: "Get order", description: "Look up one customer's orders.", inputSchema: getOrderInput, outputSchema: getOrderOutput, annotations: { readOnlyHint: true, idempotentHint: true } }, reply);`
      : `for (let i = 0; i < ${count}; i++) {
  const effect = ["read", "write", "destructive"][i % 3];
  server.registerTool("tool_" + String(i).padStart(4, "0"), { title: "Tool " + i, description: "Synthetic tool number " + i + ".", inputSchema: syntheticInput(effect !== "read"), outputSchema: syntheticOutput, annotations: { readOnlyHint: effect === "read", destructiveHint: effect === "destructive" } }, reply);
}`;
  writeFileSync(
    path,
    `import { McpServer } from "${SDK_MODULES[line].mcpServer}";
import { StdioServerTransport } from "${SDK_MODULES[line].stdio}";
import { z } from "zod";
${ZOD_SHAPES}
const output = ${JSON.stringify(output)};
const reply = async () => ({ content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output });
const server = new McpServer({ name: "bench", version: "1.0.0" });
${tools}
await server.connect(new StdioServerTransport());
`,
  );
  return path;
}

/** The floor: node, the SDK import, and a low-level Server with nothing to list. */
export function writeFloorServer(dir: string, line: SdkLine): string {
  const path = join(dir, `server-floor-sdk${line}.mjs`);
  writeFileSync(
    path,
    `import { Server } from "${SDK_MODULES[line].server}";
import { StdioServerTransport } from "${SDK_MODULES[line].stdio}";
${FLOOR_LIST_HANDLER[line].imports}const server = new Server({ name: "floor", version: "1.0.0" }, { capabilities: { tools: {} } });
${FLOOR_LIST_HANDLER[line].register}
await server.connect(new StdioServerTransport());
`,
  );
  return path;
}

/**
 * toolc's server and McpServer + zod over tools that each have schemas of
 * their own (bench/lib/varied.ts): `results` is a JSON file of each tool's
 * result by name, which both handlers return; `zodTools` a module exporting
 * the hand-written server's tools (name, effect, zod raw shapes).
 */
export function writeVariedServers(dir: string, results: string, zodTools: string, line: SdkLine): { toolc: string; zod: string } {
  const readResults = `import { readFileSync } from "node:fs";
const results = JSON.parse(readFileSync(new URL(${JSON.stringify(`./${results}`)}, import.meta.url), "utf8"));`;
  const toolcPath = join(dir, `server-toolc-varied-sdk${line}.mjs`);
  writeFileSync(
    toolcPath,
    `import { StdioServerTransport } from "${SDK_MODULES[line].stdio}";
import { contracts, createServer } from "./js/index.js";
${readResults}
const handlers = Object.fromEntries(Object.keys(contracts).map((name) => [name, async () => results[name]]));
await createServer(handlers).connect(new StdioServerTransport());
`,
  );
  const zodPath = join(dir, `server-zod-varied-sdk${line}.mjs`);
  writeFileSync(
    zodPath,
    `import { McpServer } from "${SDK_MODULES[line].mcpServer}";
import { StdioServerTransport } from "${SDK_MODULES[line].stdio}";
import { tools } from ${JSON.stringify(`./${zodTools}`)};
${readResults}
const server = new McpServer({ name: "bench", version: "1.0.0" });
tools.forEach(({ name, effect, inputSchema, outputSchema }, i) => {
  const output = results[name];
  const reply = async () => ({ content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output });
  server.registerTool(name, { title: "Tool " + i, description: "Synthetic tool number " + i + ", with schemas of its own.", inputSchema, outputSchema, annotations: { readOnlyHint: effect === "read", destructiveHint: effect === "destructive" } }, reply);
});
await server.connect(new StdioServerTransport());
`,
  );
  return { toolc: toolcPath, zod: zodPath };
}
