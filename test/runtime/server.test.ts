/**
 * The MCP server and typed client over InMemoryTransport with the real SDK
 * Client: what tools/list serves, how results and failures are mapped, and
 * the typed client's round trip.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { createToolClient, type AccessReason } from "../../generator/runtime/client.js";
import { createToolServer } from "../../generator/runtime/server.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { connectInMemory } from "./connect.js";
import { contracts, FakeOrders, makeHandlers, SECRET, TransientError } from "./fixtures.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => { await cleanup?.(); cleanup = undefined; });

async function start(handlers = makeHandlers(new FakeOrders()), onTrace?: (e: TraceEvent) => void) {
  const server = createToolServer(contracts, handlers, { name: "orders", version: "3.1.0", instructions: "Be nice.", onTrace, sleep: async () => {} });
  const connection = await connectInMemory(server);
  cleanup = connection.close;
  return connection.client;
}

describe("tools/list", () => {
  it("serves each tool with a handler, in contract order, with the contract's own schemas", async () => {
    const { get_order, charge_card } = makeHandlers(new FakeOrders());
    const client = await start({ charge_card, get_order });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_order", "charge_card"]);
    expect(tools[0]).toEqual({
      name: "get_order",
      title: "Title of get_order",
      description: "Description of get_order.",
      inputSchema: contracts.get_order.inputSchema,
      outputSchema: contracts.get_order.outputSchema,
      annotations: contracts.get_order.annotations,
      _meta: { "toolc/version": 2 },
    });
    expect(JSON.stringify(tools[1].inputSchema)).toBe(JSON.stringify(contracts.charge_card.inputSchema));
    expect(client.getServerVersion()).toMatchObject({ name: "orders", version: "3.1.0" });
    expect(client.getInstructions()).toBe("Be nice.");
  });
});

describe("tools/call", () => {
  it("returns structuredContent and its JSON as text on success", async () => {
    const client = await start();
    await client.listTools(); // makes the SDK validate structuredContent against outputSchema too
    const result = await client.callTool({ name: "get_order", arguments: { customerId: "cus_1" } });
    const data = { found: true, customerId: "cus_1", orders: [{ id: "ord_1", status: "paid" }] };
    expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data });
  });

  it("returns the envelope as text and in _meta on failure, never as structuredContent", async () => {
    const client = await start();
    await client.listTools();
    const result = await client.callTool({ name: "get_order", arguments: { customerId: "" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const envelope = (result._meta as Record<string, unknown>)["toolc/failure"];
    expect(envelope).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "customerId", message: "must have at least 1 character" }] });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(envelope) }]);
  });

  it("never lets an undeclared output field leave the server", async () => {
    const handlers = { ...makeHandlers(new FakeOrders()), delete_order: () => ({ deleted: true, auditToken: "tok_internal" }) };
    const client = await start(handlers);
    const result = await client.callTool({ name: "delete_order", arguments: { orderId: "o1" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result._meta as Record<string, unknown>)["toolc/failure"]).toMatchObject({ code: "INVALID_OUTPUT", effect: "applied" });
    expect(JSON.stringify(result)).not.toContain("tok_internal");
    expect(JSON.stringify(result)).not.toContain("auditToken");
  });

  it("makes an unknown tool, or one without a handler, a JSON-RPC -32602 error", async () => {
    const { get_order } = makeHandlers(new FakeOrders());
    const client = await start({ get_order });
    for (const name of ["no_such_tool", "delete_order", "__proto__", "constructor"]) {
      const error = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    }
  });

  it("treats missing arguments as an empty object", async () => {
    const client = await start();
    const result = await client.callTool({ name: "get_order" });
    expect((result._meta as Record<string, unknown>)["toolc/failure"]).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "customerId", message: "is required" }] });
  });

  it("aborts the handler's signal when the client cancels the request", async () => {
    let aborted = false;
    const handlers = { ...makeHandlers(new FakeOrders()), get_order: async (_i: unknown, ctx: { signal: AbortSignal }) => {
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      aborted = true;
      return { found: false, customerId: "", orders: [] };
    } };
    const client = await start(handlers);
    const controller = new AbortController();
    const call = client.callTool({ name: "get_order", arguments: { customerId: "c" } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborted).toBe(true);
  });
});

describe("the typed client over a toolc server", () => {
  it("round-trips a success, typed", async () => {
    const client = await start();
    const tools = createToolClient(contracts, client);
    const result = await tools.get_order({ customerId: "cus_1" });
    expect(result).toEqual({ ok: true, data: { found: true, customerId: "cus_1", orders: [{ id: "ord_1", status: "paid" }] } });
    if (result.ok) expect(result.data.orders[0].status).toBe("paid");
  });

  it("rejects invalid input locally, with no round trip", async () => {
    const events: TraceEvent[] = [];
    const client = await start(undefined, (e) => events.push(e));
    const tools = createToolClient(contracts, client);
    const input = { customerId: "c", includeHistory: "yes" } as unknown as { customerId: string };
    const result = await tools.get_order(input);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", attempts: 0, issues: [{ path: "includeHistory", message: "must be boolean" }] });
    expect(events).toEqual([]);
    expect(input).toEqual({ customerId: "c", includeHistory: "yes" });
  });

  it("rebuilds REJECTED with its reason, and RETRYABLE with its attempts", async () => {
    const service = new FakeOrders();
    const client = await start(makeHandlers(service));
    const tools = createToolClient(contracts, client);
    const rejected = await tools.get_order({ customerId: "cus_blocked" });
    expect(rejected).toEqual({ ok: false, code: "REJECTED", message: "Customer is blocked", reason: "CUSTOMER_BLOCKED", retryable: false, effect: "none", tool: "get_order", version: 2, attempts: 1 });
    if (!rejected.ok && rejected.code === "REJECTED") expect(rejected.reason satisfies "CUSTOMER_BLOCKED" | AccessReason | undefined).toBe("CUSTOMER_BLOCKED");
    service.failures = [new TransientError("down"), new TransientError("down"), new TransientError("down")];
    expect(await tools.get_order({ customerId: "c" })).toMatchObject({ code: "RETRYABLE", retryable: true, attempts: 3 });
  });

  it("runs a destructive tool once on a transient failure and reports effect unknown", async () => {
    const service = new FakeOrders();
    service.failures = [new TransientError("disk busy")];
    const tools = createToolClient(contracts, await start(makeHandlers(service)));
    expect(await tools.delete_order({ orderId: "o9" })).toMatchObject({ code: "FAILED", effect: "unknown", attempts: 1, retryable: false });
    expect(service.deleted).toEqual(["o9"]);
  });

  it("never lets a secret reach the client", async () => {
    const handlers = { ...makeHandlers(new FakeOrders()), get_order: () => { throw new TransientError(`key ${SECRET} rejected`); } };
    const tools = createToolClient(contracts, await start(handlers));
    const result = await tools.get_order({ customerId: "c", apiKey: SECRET });
    expect(result).toMatchObject({ code: "RETRYABLE" });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
