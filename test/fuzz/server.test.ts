/**
 * Server fuzzing: random `tools/call` requests over the SDK Client against
 * the generated demo server (in memory, and a smaller number over a real
 * stdio child process). Every call is answered: a tool result (success or
 * isError) for a known tool, a JSON-RPC error for an unknown tool or
 * malformed params; and a final listTools still works.
 */
import { join } from "node:path";
import { Client, ProtocolError, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createServer } from "../../generated/index.js";
import { connectInMemory } from "../runtime/connect-sdk2.js";
import { runs, timeoutFor } from "./config.js";
import { demoHandlers } from "./fixtures/demo-handlers.js";
import { hostileValue } from "./hostile.js";
import { shaped, TOOL_NAMES, wireable } from "./harness.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A call: a known tool with shaped or hostile arguments, or an unknown name. */
const call = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TOOL_NAMES).chain((name) => fc.record({ name: fc.constant(name), arguments: shaped(name, "inputSchema").map(wireable) })) },
  fc.record({ name: fc.constantFrom(...TOOL_NAMES), arguments: hostileValue.map(wireable) }),
  fc.record({ name: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom("__proto__", "constructor", "get_order ", "GET_ORDER")), arguments: fc.jsonValue({ maxDepth: 1 }) }),
);

type Answer = "result" | "isError" | "rpc-error";

async function send(client: Client, c: { name: string; arguments: unknown }): Promise<Answer> {
  try {
    const r = (await client.request({ method: "tools/call", params: { name: c.name, arguments: c.arguments as never } })) as CallToolResult;
    if (r.isError) {
      const text = (r.content[0] as { text?: string }).text ?? "";
      expect(JSON.parse(text)).toMatchObject({ ok: false, tool: c.name });
      return "isError";
    }
    expect(r.structuredContent).toBeDefined();
    return "result";
  } catch (e) {
    // An answer too, as long as it is a JSON-RPC error and not a dropped connection.
    expect(e).toBeInstanceOf(ProtocolError);
    return "rpc-error";
  }
}

async function fuzzClient(client: Client, numRuns: number): Promise<Record<Answer, number>> {
  const tally: Record<Answer, number> = { result: 0, isError: 0, "rpc-error": 0 };
  await fc.assert(fc.asyncProperty(call, async (c) => void tally[await send(client, c)]++), { numRuns });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  return tally;
}

const N = runs();
const STDIO_N = runs(10, 20);

describe("server fuzz", () => {
  it(`in memory: every call is answered and the server stays up (${N} runs)`, async () => {
    const { client, close } = await connectInMemory(createServer(demoHandlers));
    try {
      const tally = await fuzzClient(client, N);
      console.log(`server fuzz (in memory): ${JSON.stringify(tally)}`);
      expect(tally.result).toBeGreaterThan(0);
      expect(tally.isError).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, timeoutFor(N, 10));

  it(`over stdio: every call is answered and the process stays up (${STDIO_N} runs)`, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, "test/fuzz/fixtures/demo-stdio-server.ts")],
      stderr: "ignore",
    });
    const client = new Client({ name: "fuzz", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tally = await fuzzClient(client, STDIO_N);
      console.log(`server fuzz (stdio): ${JSON.stringify(tally)}`);
    } finally {
      await client.close();
    }
  }, timeoutFor(STDIO_N, 50));
});
