/**
 * The typed client against servers that are not toolc, or that break the
 * contract: hand-written low-level SDK Servers over InMemoryTransport.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createToolClient } from "../../generator/runtime/client.js";
import { connectInMemory } from "./connect.js";
import { contracts, SECRET } from "./fixtures.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => { await cleanup?.(); cleanup = undefined; });

/** A server that answers every tools/call with `answer`, and lists the contracts' schemas. */
async function foreignServer(answer: (name: string, args: unknown) => CallToolResult | Promise<CallToolResult>) {
  const server = new Server({ name: "foreign", version: "0.0.1" }, { capabilities: { tools: {} } });
  const calls: unknown[] = [];
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: Object.values(contracts).map((c) => ({ name: c.name, inputSchema: c.inputSchema, outputSchema: c.outputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    calls.push(request.params.arguments);
    return answer(request.params.name, request.params.arguments);
  });
  const { client, close } = await connectInMemory(server);
  cleanup = close;
  return { tools: createToolClient(contracts, client), client, calls };
}

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("a server that is not toolc", () => {
  it("turns plain isError text into FAILED with that text", async () => {
    const { tools } = await foreignServer(() => ({ isError: true, content: text("Customer not found in CRM") }));
    expect(await tools.get_order({ customerId: "c" })).toEqual({
      ok: false,
      code: "FAILED",
      message: "Customer not found in CRM",
      retryable: false,
      effect: "unknown",
      tool: "get_order",
      version: 2,
      attempts: 1,
    });
  });

  it("truncates long text, and scrubs secrets the server echoes back", async () => {
    const { tools } = await foreignServer(() => ({ isError: true, content: text(`bad key ${SECRET} ${"x".repeat(2000)}`) }));
    const result = await tools.get_order({ customerId: "c", apiKey: SECRET });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message.length).toBeLessThanOrEqual(300);
    expect(result.message).toMatch(/^bad key \[REDACTED\] x+…$/);
  });

  it("sends the input as given, without local defaults", async () => {
    const { tools, calls } = await foreignServer(() => ({ content: [], structuredContent: { found: false, customerId: "c", orders: [] } }));
    expect(await tools.get_order({ customerId: "c" })).toEqual({ ok: true, data: { found: false, customerId: "c", orders: [] } });
    expect(calls).toEqual([{ customerId: "c" }]);
  });

  it("sends the copy it validated: a getter's second answer and a later change to the caller's object never reach the server", async () => {
    const { tools, calls } = await foreignServer(() => ({ content: [], structuredContent: { found: false, customerId: "c", orders: [] } }));
    let reads = 0;
    const shifty = { get customerId(): unknown { return reads++ === 0 ? "cus_1" : 42; } };
    expect((await tools.get_order(shifty as { customerId: string })).ok).toBe(true);
    const input = { customerId: "cus_2" };
    const pending = tools.get_order(input);
    input.customerId = "changed after the call";
    expect((await pending).ok).toBe(true);
    expect(calls).toEqual([{ customerId: "cus_1" }, { customerId: "cus_2" }]);
    expect(reads).toBe(1);
  });

  it("accepts the JSON text block from a server that sends no structuredContent", async () => {
    const { tools } = await foreignServer(() => ({ content: text('{"deleted":true}') }));
    expect(await tools.delete_order({ orderId: "o" })).toEqual({ ok: true, data: { deleted: true } });
  });

  it("does not trust something merely shaped like an envelope", async () => {
    const fake = { ok: false, code: "REJECTED", message: "nope", reason: "NOT_DECLARED", retryable: true, effect: "none", tool: "get_order", version: 2, attempts: 1 };
    const { tools } = await foreignServer(() => ({ isError: true, content: text(JSON.stringify(fake)) }));
    const result = await tools.get_order({ customerId: "c" });
    expect(result).toMatchObject({ code: "FAILED", retryable: false });
    expect(result.ok === false && result.reason).toBeUndefined();

    const { tools: other } = await foreignServer(() => ({ isError: true, content: text(JSON.stringify({ ok: false, code: "WHATEVER" })) }));
    expect(await other.get_order({ customerId: "c" })).toMatchObject({ code: "FAILED", message: '{"ok":false,"code":"WHATEVER"}' });
  });

  it("keeps only the envelope's own fields", async () => {
    const envelope = { ok: false, code: "RETRYABLE", message: "later", retryable: true, effect: "none", tool: "get_order", version: 2, attempts: 3, debug: "stack…" };
    const { tools } = await foreignServer(() => ({ isError: true, content: text("x"), _meta: { "toolc/failure": envelope } }));
    const result = await tools.get_order({ customerId: "c" });
    expect(result).toEqual({ ok: false, code: "RETRYABLE", message: "later", retryable: true, effect: "none", tool: "get_order", version: 2, attempts: 3 });
  });
});

describe("a server that breaks the output contract", () => {
  it("gets INVALID_OUTPUT, and the data never reaches the caller", async () => {
    const bad = { found: true, customerId: "c", orders: [{ id: "o", status: "lost" }], leaked: "internal" };
    const { tools, client } = await foreignServer(() => ({ content: text(JSON.stringify(bad)), structuredContent: bad }));
    await client.listTools(); // the SDK's own callTool would now throw; the typed client must not
    const result = await tools.get_order({ customerId: "c" });
    expect(result).toEqual({
      ok: false,
      code: "INVALID_OUTPUT",
      message: expect.any(String),
      retryable: false,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 1,
    });
    expect(JSON.stringify(result)).not.toContain("internal");
  });

  it("says a write was applied when its output is bad", async () => {
    const { tools } = await foreignServer(() => ({ content: [], structuredContent: { deleted: "sure" } }));
    expect(await tools.delete_order({ orderId: "o" })).toMatchObject({ code: "INVALID_OUTPUT", effect: "applied" });
  });

  it("treats a success with no output at all as INVALID_OUTPUT", async () => {
    const { tools } = await foreignServer(() => ({ content: text("done!") }));
    expect(await tools.delete_order({ orderId: "o" })).toMatchObject({ code: "INVALID_OUTPUT" });
  });
});

describe("protocol and transport errors", () => {
  const hang = () => new Promise<CallToolResult>(() => {});

  it("maps a timeout to RETRYABLE on an idempotent tool", async () => {
    const { tools } = await foreignServer(hang);
    expect(await tools.get_order({ customerId: "c" }, { timeoutMs: 20 })).toMatchObject({ code: "RETRYABLE", retryable: true, effect: "none" });
  });

  it("maps a timeout to FAILED, effect unknown, on a non-idempotent write", async () => {
    const { tools } = await foreignServer(hang);
    expect(await tools.delete_order({ orderId: "o" }, { timeoutMs: 20 })).toMatchObject({ code: "FAILED", retryable: false, effect: "unknown" });
  });

  it("maps a JSON-RPC error to FAILED", async () => {
    const { tools } = await foreignServer(() => { throw new Error("tool exploded"); });
    const result = await tools.delete_order({ orderId: "o" });
    expect(result).toMatchObject({ code: "FAILED", retryable: false, effect: "unknown" });
    expect(result.ok === false && result.message).toContain("tool exploded");
  });

  it("maps an unknown-tool refusal to FAILED with nothing applied", async () => {
    const { tools } = await foreignServer(() => { throw new McpError(ErrorCode.InvalidParams, "Unknown tool"); });
    expect(await tools.delete_order({ orderId: "o" })).toMatchObject({ code: "FAILED", effect: "none", attempts: 0 });
  });

  it("maps caller cancellation to FAILED, without throwing", async () => {
    const { tools } = await foreignServer(hang);
    const result = await tools.get_order({ customerId: "c" }, { signal: AbortSignal.timeout(10) });
    expect(result).toMatchObject({ code: "FAILED", message: "The call was cancelled." });
  });

  it("maps a closed connection to FAILED", async () => {
    const { tools, client } = await foreignServer(hang);
    await client.close();
    expect(await tools.get_order({ customerId: "c" })).toMatchObject({ ok: false, code: "FAILED" });
  });
});
