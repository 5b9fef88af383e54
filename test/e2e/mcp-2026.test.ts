/**
 * MCP 2026-07-28 and the 2025 revisions from one server built the README's
 * way (demo/serve.ts: `createHttpHandler` over Node's http, `serveStdio` over
 * stdio), driven by the SDK 2.4 `Client` in each generation and by
 * hand-written JSON-RPC POSTs as curl would send them. Every demo tool is
 * listed and called; bad input is an INVALID_INPUT result, an unknown tool a
 * -32602 error, and headers that disagree with the body are refused before
 * any handler runs. Last, the demo's HTTP entry in this process shows that
 * `ServerOptions.cache` wins over the config's `mcp.cache`.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer as createNodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ProtocolError, ProtocolErrorCode, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { createHttpHandler } from "../../generated/http.js";
import { contracts, createClient, type CacheHint } from "../../generated/index.js";
import { call, connectHttp, connectStdio, demoServer, envelopeOf, spawnHttp, type HttpProcess, type LogBuffer } from "./helpers.js";
import { final, legacyRequest, modernRequest, post } from "./rpc.js";

const ADMIN = "demo-admin-token";
const TOOL_NAMES = Object.values(contracts).map((c) => c.name);

/** One valid call of every demo tool, with what its output must contain. */
function validCalls(): [string, Record<string, unknown>, Record<string, unknown>][] {
  return [
    ["get_order", { customerId: "cus_1" }, { found: true, customerId: "cus_1" }],
    ["search_orders", { filter: { customerId: "cus_2" } }, { nextCursor: null }],
    ["create_refund", { requestId: randomUUID(), orderId: "ord_1", amount: { amountCents: 100, currency: "EUR" } }, { status: "pending" }],
    ["delete_customer", { customerId: "cus_9", confirm: true, adminToken: ADMIN }, { customerId: "cus_9" }],
  ];
}

type Era = "modern" | "legacy";

/** What every generation must do against the demo, through the SDK Client. */
function sdkClientBehaviour(connect: (era: Era) => Promise<{ client: Client; log: LogBuffer; close(): Promise<void> }>, transport: string): void {
  describe.each(["modern", "legacy"] as const)(`the SDK 2.4 Client over ${transport}, %s generation`, (era) => {
    let client: Client;
    let log: LogBuffer;
    let close: () => Promise<void>;
    beforeAll(async () => ({ client, log, close } = await connect(era)));
    afterAll(async () => close?.());

    it("connects on that generation: 2026-07-28 with no initialize, or the 2025 handshake", () => {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getServerVersion()).toMatchObject({ name: "toolc-demo" });
    });

    it("lists every demo tool, in the same order each time, with the contracts' schemas", async () => {
      const first = await client.listTools(undefined, { cacheMode: "bypass" });
      const second = await client.listTools(undefined, { cacheMode: "bypass" });
      expect(first.tools.map((t) => t.name)).toEqual([...TOOL_NAMES].sort());
      expect(second.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
      for (const tool of first.tools) expect(tool.inputSchema).toEqual(contracts[tool.name as keyof typeof contracts].inputSchema);
      expect(first.tools.find((t) => t.name === "get_order")?.inputSchema.properties?.["customerId"]).toMatchObject({ "x-mcp-header": "Customer-Id" });
    });

    it("calls every demo tool", async () => {
      for (const [name, args, expected] of validCalls()) {
        const result = await call(client, name, args);
        expect(result.isError, `${name}: ${JSON.stringify(result)}`).not.toBe(true);
        expect(result.structuredContent).toMatchObject(expected);
      }
      // The typed client mirrors get_order's x-mcp-header argument into Mcp-Param-Customer-Id on a 2026-07-28 HTTP connection.
      expect(await createClient(client).get_order({ customerId: "cus_2" })).toMatchObject({ ok: true, data: { found: true } });
    });

    it("answers bad input with INVALID_INPUT as an isError result, before any handler runs", async () => {
      const failure = envelopeOf(await call(client, "get_order", { customerId: 42 }));
      expect(failure).toMatchObject({ code: "INVALID_INPUT", tool: "get_order", attempts: 0, issues: [{ path: "customerId" }] });
      const typed = await createClient(client).create_refund({ requestId: "not-a-uuid", orderId: "ord_1", amount: { amountCents: 1, currency: "EUR" } });
      expect(typed).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    });

    it("refuses an unknown tool with -32602", async () => {
      const error = await client.callTool({ name: "no_such_tool", arguments: {} }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    });

    it("puts the generation the call came in on into every trace event", async () => {
      await call(client, "get_order", { customerId: "cus_2" });
      const protocol = era === "modern" ? "2026-07-28" : "2025-11-25";
      await log.waitFor(new RegExp(`trace get_order@1 .* protocol=${protocol}`));
      const traces = log.lines().filter((l) => l.includes("trace "));
      expect(traces.length).toBeGreaterThan(0);
      expect(traces.every((l) => /protocol=\d{4}-\d\d-\d\d/.test(l))).toBe(true);
    });
  });
}

describe("one Streamable HTTP endpoint, both generations (demo/serve.ts --http)", () => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await spawnHttp(demoServer, ["--http", "--port", "0"]);
  });
  afterAll(async () => server?.stop());

  sdkClientBehaviour(async (era) => {
    const client = await connectHttp(server.url, era);
    return { client, log: server.log, close: () => client.close() };
  }, "Streamable HTTP");

  describe("raw JSON-RPC, 2026-07-28, as curl sends it", () => {
    it("answers server/discover with the versions, the capabilities, the server's identity and the cache hint", async () => {
      const response = await modernRequest(server.url, "server/discover");
      expect(response.status).toBe(200);
      const { result } = final(response) as { result: Record<string, unknown> };
      expect(result).toMatchObject({ resultType: "complete", capabilities: { tools: {} }, ttlMs: 300000, cacheScope: "public" });
      expect(result["supportedVersions"]).toContain("2026-07-28");
      expect(result["_meta"]).toEqual({ "io.modelcontextprotocol/serverInfo": { name: "toolc-demo", version: "1.0.0" } });
    });

    it("lists the tools with resultType, the config's ttlMs and cacheScope, in name order", async () => {
      const { result } = final(await modernRequest(server.url, "tools/list")) as { result: { tools: { name: string }[]; [key: string]: unknown } };
      expect(result).toMatchObject({ resultType: "complete", ttlMs: 300000, cacheScope: "public" });
      expect(result.tools.map((t) => t.name)).toEqual([...TOOL_NAMES].sort());
    });

    it("calls every demo tool, with no session and no initialize", async () => {
      for (const [name, args, expected] of validCalls()) {
        const headers: Record<string, string> = name === "get_order" ? { "mcp-param-customer-id": String(args["customerId"]) } : {};
        const response = await modernRequest(server.url, "tools/call", { name, arguments: args }, { headers });
        expect(response.status, JSON.stringify(response)).toBe(200);
        const { result } = final(response) as { result: Record<string, unknown> };
        expect(result["isError"]).not.toBe(true);
        expect(result).toMatchObject({ resultType: "complete", structuredContent: expected });
      }
    });

    it.each(["ping", "logging/setLevel"])("answers %s with -32601: 2026-07-28 removed it", async (method) => {
      const response = await modernRequest(server.url, method, method === "ping" ? {} : { level: "debug" });
      expect(final(response)).toMatchObject({ error: { code: -32601 } });
    });

    it("answers bad input with INVALID_INPUT as an isError result", async () => {
      const response = await modernRequest(server.url, "tools/call", { name: "search_orders", arguments: { filter: { customerId: "cus_1" }, limit: 1000 } });
      const { result } = final(response) as { result: { isError: boolean; _meta: Record<string, unknown> } };
      expect(result.isError).toBe(true);
      expect(result._meta["toolc/failure"]).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "limit" }] });
    });

    it("refuses an unknown tool with -32602", async () => {
      const response = await modernRequest(server.url, "tools/call", { name: "no_such_tool", arguments: {} });
      expect(final(response)).toMatchObject({ error: { code: -32602 } });
    });

    it("refuses an Mcp-Name that does not match the body with 400 and -32020, before any handler runs", async () => {
      const before = server.log.lines().length;
      const response = await modernRequest(server.url, "tools/call", { name: "delete_customer", arguments: { customerId: "cus_2", confirm: true, adminToken: ADMIN } }, { headers: { "mcp-name": "get_order" } });
      expect(response.status).toBe(400);
      expect(final(response)).toMatchObject({ error: { code: -32020 } });
      // A call that did run writes a trace line; wait for the next one to be sure none came before it.
      await modernRequest(server.url, "tools/call", { name: "search_orders", arguments: { filter: { customerId: "cus_marker" } } });
      await server.log.waitFor(/trace search_orders@1 /);
      expect(server.log.lines().slice(before).filter((l) => l.includes("trace delete_customer"))).toEqual([]);
      const mismatchedMethod = await modernRequest(server.url, "tools/list", {}, { headers: { "mcp-method": "tools/call" } });
      expect(mismatchedMethod.status).toBe(400);
    });

    it("refuses a missing, wrong or malformed Mcp-Param-Customer-Id with 400 and -32020, and takes the Base64 form", async () => {
      const callWith = (headers: Record<string, string>) => modernRequest(server.url, "tools/call", { name: "get_order", arguments: { customerId: "cus_1" } }, { headers });
      const cases: Record<string, string>[] = [{}, { "mcp-param-customer-id": "cus_2" }, { "mcp-param-customer-id": "=?base64?not base64?=" }];
      for (const headers of cases) {
        const response = await callWith(headers);
        expect(response.status, JSON.stringify(headers)).toBe(400);
        expect(final(response)).toMatchObject({ error: { code: -32020 } });
      }
      const encoded = await callWith({ "mcp-param-customer-id": `=?base64?${Buffer.from("cus_1").toString("base64")}?=` });
      expect(encoded.status).toBe(200);
      expect(final(encoded)).toMatchObject({ result: { structuredContent: { found: true } } });
    });
  });

  describe("raw JSON-RPC, the 2025 revisions, on the same endpoint", () => {
    it.each(["2025-11-25", "2025-06-18"])("negotiates %s with initialize and serves it statelessly: every demo tool called", async (version) => {
      const init = await post(server.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "curl", version: "8.0.0" } } }, {});
      expect(init.status).toBe(200);
      expect(final(init)).toMatchObject({ result: { protocolVersion: version, serverInfo: { name: "toolc-demo" } } });
      const list = final(await legacyRequest(server.url, "tools/list", {}, version)) as { result: Record<string, unknown> };
      // 2025-era results carry no 2026 fields.
      expect(list.result["resultType"]).toBeUndefined();
      expect(list.result["ttlMs"]).toBeUndefined();
      for (const [name, args, expected] of validCalls()) {
        const called = final(await legacyRequest(server.url, "tools/call", { name, arguments: args }, version)) as { result: Record<string, unknown> };
        expect(called.result["isError"], `${name}: ${JSON.stringify(called)}`).not.toBe(true);
        expect(called.result).toMatchObject({ structuredContent: expected });
      }
      await server.log.waitFor(new RegExp(`protocol=${version}`));
      const invalid = final(await legacyRequest(server.url, "tools/call", { name: "get_order", arguments: { customerId: 7 } }, version)) as { result: Record<string, unknown> };
      expect(invalid.result).toMatchObject({ isError: true, _meta: { "toolc/failure": { code: "INVALID_INPUT" } } });
      const unknown = final(await legacyRequest(server.url, "tools/call", { name: "no_such_tool", arguments: {} }, version));
      expect(unknown).toMatchObject({ error: { code: -32602 } });
    });
  });
});

describe("stdio, both generations (demo/serve.ts spawned)", () => {
  sdkClientBehaviour(async (era) => {
    const { client, log } = await connectStdio(demoServer, [], era);
    return { client, log, close: () => client.close() };
  }, "stdio");
});

describe("ServerOptions.cache given to createServer wins over the config's mcp.cache", () => {
  /** The demo's HTTP entry in this process, its createServer given `cache` (or nothing). */
  async function cacheHintsServed(cache: CacheHint | undefined): Promise<Record<string, unknown>[]> {
    const http = createNodeServer(createHttpHandler(createDemoHandlers().handlers, cache === undefined ? {} : { cache }));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    try {
      const answers = await Promise.all(["tools/list", "server/discover"].map(async (method) => final(await modernRequest(url, method)) as { result: Record<string, unknown> }));
      return answers.map(({ result }) => ({ ttlMs: result["ttlMs"], cacheScope: result["cacheScope"] }));
    } finally {
      http.closeAllConnections();
      http.close();
    }
  }

  it("without it, tools/list and server/discover carry the config's (toolc.config.yaml: 300000 ms, public)", async () => {
    expect(await cacheHintsServed(undefined)).toEqual([{ ttlMs: 300000, cacheScope: "public" }, { ttlMs: 300000, cacheScope: "public" }]);
  });

  it("with it, both carry its ttlMs and cacheScope", async () => {
    const cache: CacheHint = { ttlMs: 1500, cacheScope: "private" };
    expect(await cacheHintsServed(cache)).toEqual([cache, cache]);
  });
});
