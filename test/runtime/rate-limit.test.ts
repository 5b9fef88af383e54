/**
 * Per-caller rate limits at the border (runtime/rate-limit.ts), on the
 * generated SDK 2.x runtime: two HTTP handlers with one store stand for two
 * instances, so the limit holds across both; a call over it gets 429 with
 * Retry-After and the REJECTED / RATE_LIMITED envelope, and nothing runs;
 * callers are counted apart; only tools/call counts; a store that cannot
 * count lets calls through and tells the operator. (The same with a real
 * redis-server behind haproxy: test/e2e/scale-out.test.ts.)
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createToolHttpHandler, type HttpHandlerOptions } from "../../generated/runtime/http.js";
import { createToolServer } from "../../generated/runtime/server.js";
import { memoryStore, type SharedStore } from "../../generated/runtime/store.js";
import type { TraceEvent } from "../../generated/runtime/types.js";
import { modernRequest, type RpcResponse } from "../e2e/rpc.js";
import { defineContract } from "./fixtures.js";

const ping = defineContract<{ n: number }, { n: number }, { n: number }>({
  name: "ping",
  effect: "read",
  input: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
  output: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
});
const contracts = { ping };

const servers: HttpServer[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** One instance on a loopback port; `auth`, when given, is what an upstream middleware verified (req.auth). */
async function instance(options: HttpHandlerOptions, ran: number[], auth?: (req: IncomingMessage) => object | undefined): Promise<URL> {
  const handler = createToolHttpHandler(() => createToolServer(contracts, { ping: (input) => (ran.push(input.n), { n: input.n }) }), options, contracts);
  const server = createServer((req: IncomingMessage & { auth?: object }, res: ServerResponse) => {
    const verified = auth?.(req);
    if (verified !== undefined) req.auth = verified;
    void handler(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

const byTenant = (request: Request): string | undefined => request.headers.get("x-tenant") ?? undefined;
const ping$ = (url: URL, n: number, headers: Record<string, string> = {}): Promise<RpcResponse & { retryAfter?: string }> =>
  modernRequest(url, "tools/call", { name: "ping", arguments: { n } }, { headers });

describe("a rate limit shared by two instances", () => {
  it("holds across both: the calls past it get 429, Retry-After and REJECTED / RATE_LIMITED, and nothing runs", async () => {
    const store = memoryStore();
    const ran: number[] = [];
    const traces: TraceEvent[] = [];
    const options = { store, rateLimit: { calls: 3, windowSeconds: 60, per: byTenant }, onTrace: (e: TraceEvent) => traces.push(e) };
    const urls = [await instance({ ...options }, ran), await instance({ ...options }, ran)];
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await ping$(urls[n % 2]!, n, { "x-tenant": "acme" })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(ran).toEqual([0, 1, 2]);
    const response = await fetch(urls[0]!, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ping", "x-tenant": "acme" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "ping", arguments: { n: 9 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await response.json()) as { id: number; result: { isError: boolean; _meta: Record<string, unknown> } };
    expect(body.id).toBe(9);
    expect(body.result.isError).toBe(true);
    expect(body.result._meta["toolc/failure"]).toMatchObject({ code: "REJECTED", reason: "RATE_LIMITED", effect: "none", attempts: 0, tool: "ping" });
    expect(traces.filter((e) => e.reason === "RATE_LIMITED")).toHaveLength(4);
    // Another tenant is counted apart, and a request with no key is not counted.
    expect((await ping$(urls[1]!, 10, { "x-tenant": "globex" })).status).toBe(200);
    expect((await ping$(urls[1]!, 11)).status).toBe(200);
    // Only tools/call counts: listing tools is never limited.
    expect((await modernRequest(urls[0]!, "tools/list", {}, { headers: { "x-tenant": "acme" } })).status).toBe(200);
  });

  it("counts per verified subject by default, and per client with `per: client`", async () => {
    const ran: number[] = [];
    const auth = (req: IncomingMessage) => ({ token: "t", clientId: String(req.headers["x-client"]), scopes: [], extra: { subject: String(req.headers["x-user"]) } });
    const bySubject = await instance({ store: memoryStore(), rateLimit: { calls: 1, windowSeconds: 60 } }, ran, auth);
    expect((await ping$(bySubject, 1, { "x-user": "ann", "x-client": "app" })).status).toBe(200);
    expect((await ping$(bySubject, 2, { "x-user": "bob", "x-client": "app" })).status).toBe(200);
    expect((await ping$(bySubject, 3, { "x-user": "ann", "x-client": "other" })).status).toBe(429);
    const byClient = await instance({ store: memoryStore(), rateLimit: { calls: 1, windowSeconds: 60, per: "client" } }, ran, auth);
    expect((await ping$(byClient, 4, { "x-user": "ann", "x-client": "app" })).status).toBe(200);
    expect((await ping$(byClient, 5, { "x-user": "bob", "x-client": "app" })).status).toBe(429);
    expect(ran).toEqual([1, 2, 4]);
  });

  it("a store that cannot count lets the call through and tells the operator", async () => {
    const ran: number[] = [];
    const traces: TraceEvent[] = [];
    const down: SharedStore = { ...memoryStore(), increment: () => Promise.reject(new Error("connect ECONNREFUSED")) };
    const url = await instance({ store: down, rateLimit: { calls: 1, windowSeconds: 60, per: byTenant }, onTrace: (e) => traces.push(e) }, ran);
    expect((await ping$(url, 1, { "x-tenant": "acme" })).status).toBe(200);
    expect(ran).toEqual([1]);
    expect(traces.find((e) => e.reason === "RATE_UNCOUNTED")).toMatchObject({ tool: "ping", error: { message: "connect ECONNREFUSED" } });
  });

  it("a limit that cannot work stops the start-up", () => {
    const start = (options: HttpHandlerOptions) => () => createToolHttpHandler(() => createToolServer(contracts, {}), options, contracts);
    expect(start({ rateLimit: { calls: 0, windowSeconds: 60 } })).toThrow(/whole number above 0/);
    expect(start({ rateLimit: { calls: 5, windowSeconds: 60 }, instances: 2 })).toThrow(/needs a shared `store`/);
  });
});
