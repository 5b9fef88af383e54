/**
 * The demo server as a user runs it (`demo/serve.ts`, spawned), driven by the
 * SDK Client and the typed client, over stdio and over Streamable HTTP.
 * Each transport gets a fresh process, so the cases below share its state in order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProtocolError, ProtocolErrorCode, type Client } from "@modelcontextprotocol/client";
import { contracts, createClient, type Order } from "../../generated/index.js";
import { DEMO_ADMIN_TOKEN } from "../../demo/handlers.js";
import { call, connectHttp, connectStdio, demoServer, envelopeOf, spawnHttp, type HttpProcess, type LogBuffer } from "./helpers.js";

interface Running {
  client: Client;
  log: LogBuffer;
  close(): Promise<void>;
}

async function stdioDemo(): Promise<Running> {
  const { client, log } = await connectStdio(demoServer);
  return { client, log, close: () => client.close() };
}

async function httpDemo(): Promise<Running> {
  const proc = await spawnHttp(demoServer, ["--http", "--port", "0"]);
  const client = await connectHttp(proc.url);
  return { client, log: proc.log, close: async () => { await client.close(); await proc.stop(); } };
}

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const admin = { confirm: true, adminToken: DEMO_ADMIN_TOKEN } as const;

describe.each([["stdio", stdioDemo], ["Streamable HTTP", httpDemo]] as const)("the demo over %s", (_name, start) => {
  let demo: Running;
  const errors: Error[] = [];
  beforeAll(async () => {
    demo = await start();
    // Anything but protocol on stdout, or a broken HTTP exchange, surfaces here.
    demo.client.onerror = (e) => errors.push(e);
  });
  afterAll(async () => { await demo?.close(); });

  it("lists the four tools with their compiled schemas and annotations", async () => {
    const { tools } = await demo.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["create_refund", "delete_customer", "get_order", "search_orders"]);
    for (const tool of tools) {
      const contract = contracts[tool.name as keyof typeof contracts];
      expect(tool.inputSchema).toEqual(contract.inputSchema);
      expect(tool.outputSchema).toEqual(contract.outputSchema);
      expect(tool.annotations).toEqual(contract.annotations);
      expect(tool._meta).toMatchObject({ "toolc/contractVersion": contract.version, "toolc/schemaHash": expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
      expect(tool._meta).toEqual(contract.meta);
    }
    // Besides toolc's two keys, get_order's _meta names its view (MCP Apps, docs/apps.md), under the key and the legacy flat key.
    const extraKeys = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t._meta ?? {}).filter((key) => !key.startsWith("toolc/"))]));
    expect(extraKeys).toEqual({ create_refund: [], delete_customer: [], get_order: ["ui", "ui/resourceUri"], search_orders: [] });
    expect(tools.find((t) => t.name === "delete_customer")?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it("looks up orders, hiding cancelled ones unless history is asked for", async () => {
    const tools = createClient(demo.client);
    const ids = (orders: Order[]): string[] => orders.map((o) => o.id);
    const current = await tools.get_order({ customerId: "cus_1" });
    const all = await tools.get_order({ customerId: "cus_1", includeHistory: true });
    if (!current.ok || !all.ok) throw new Error(JSON.stringify({ current, all }));
    expect(ids(current.data.orders)).toEqual(["ord_1"]);
    expect(ids(all.data.orders)).toEqual(["ord_1", "ord_2"]);
    expect(await tools.get_order({ customerId: "cus_nobody" })).toEqual({ ok: true, data: { found: false, customerId: "cus_nobody", orders: [] } });
    expect(await tools.get_order({ customerId: "cus_blocked" })).toMatchObject({ ok: false, code: "REJECTED", reason: "CUSTOMER_BLOCKED" });
  });

  it("rides out the flaky customer's outage with a retry, visible in the trace log", async () => {
    const r = await createClient(demo.client).get_order({ customerId: "cus_flaky" });
    expect(r).toMatchObject({ ok: true, data: { found: true } });
    await demo.log.waitFor(/trace get_order@1 attempt=2 code=OK/);
    expect(demo.log.text).toMatch(/trace get_order@1 attempt=1 code=RETRYABLE effect=none \d+ms protocol=2025-11-25 error=TransientError/);
  });

  it("applies a refund once per requestId and enforces the business rules", async () => {
    const tools = createClient(demo.client);
    const first = { requestId: uuid(1), orderId: "ord_1", amount: { amountCents: 1000, currency: "EUR" } };
    const a = await tools.create_refund(first);
    const b = await tools.create_refund(first);
    expect(a).toMatchObject({ ok: true, data: { status: "pending", amount: first.amount } });
    expect(b).toEqual(a);
    // 200 cents are left only if the replay above was not applied a second time.
    const more = { requestId: uuid(2), orderId: "ord_1", amount: { amountCents: 300, currency: "EUR" } };
    expect(await tools.create_refund(more)).toMatchObject({ code: "REJECTED", reason: "AMOUNT_TOO_LARGE" });
    expect(await tools.create_refund({ ...more, amount: { amountCents: 200, currency: "EUR" } })).toMatchObject({ ok: true });
    expect(await tools.create_refund({ ...more, requestId: uuid(3), orderId: "ord_3" })).toMatchObject({ code: "REJECTED", reason: "ORDER_NOT_PAID" });
  });

  it("deletes a customer only without open orders", async () => {
    const tools = createClient(demo.client);
    expect(await tools.delete_customer({ customerId: "cus_2", ...admin })).toMatchObject({ code: "REJECTED", reason: "HAS_OPEN_ORDERS" });
    expect(await tools.delete_customer({ customerId: "cus_9", ...admin })).toEqual({ ok: true, data: { deleted: true, customerId: "cus_9" } });
    expect(await tools.get_order({ customerId: "cus_9" })).toMatchObject({ ok: true, data: { found: false } });
    const wrong = await tools.delete_customer({ customerId: "cus_1", confirm: true, adminToken: "not-the-token" });
    expect(wrong).toMatchObject({ code: "FAILED", message: "The tool failed unexpectedly." });
    expect(JSON.stringify(wrong)).not.toContain("not-the-token");
  });

  it("pages through search results with the cursor", async () => {
    const tools = createClient(demo.client);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r = await tools.search_orders({ filter: { status: ["paid"] }, limit: 1, cursor });
      if (!r.ok) throw new Error(JSON.stringify(r));
      seen.push(...r.data.orders.map((o) => o.id));
      cursor = r.data.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(["ord_1", "ord_4", "ord_5"]);
  });

  it("answers bad arguments with an envelope and an unknown tool with -32602", async () => {
    const failure = envelopeOf(await call(demo.client, "search_orders", { filter: { customerId: "cus_1" }, limit: 1000 }));
    expect(failure).toMatchObject({ code: "INVALID_INPUT", tool: "search_orders", version: 1, issues: [{ path: "limit" }] });
    const unknown = await demo.client.callTool({ name: "no_such_tool", arguments: {} }).then(() => undefined, (e: unknown) => e);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
  });

  it("keeps the channel clean: no stray output, traces without payloads", () => {
    expect(errors).toEqual([]);
    expect(demo.log.text).toMatch(/^toolc-demo: (serving on stdio|listening on http)/m);
    expect(demo.log.text).not.toContain(DEMO_ADMIN_TOKEN);
    expect(demo.log.text).not.toContain("cus_1");
  });
});

describe("the demo's HTTP endpoint", () => {
  let proc: HttpProcess;
  beforeAll(async () => { proc = await spawnHttp(demoServer, ["--http", "--port", "0"]); });
  afterAll(async () => { await proc?.stop(); });

  it("answers only POST on /mcp", async () => {
    expect((await fetch(proc.url)).status).toBe(405);
    expect((await fetch(new URL("/other", proc.url), { method: "POST" })).status).toBe(404);
  });
});
