/**
 * One border on every entry: the demo's generated `createFetchHandler`
 * (web-standard, called here in-process with `Request` objects, no socket)
 * and its `createHttpHandler` (Node, on a real loopback server) give every
 * refusal the same status, body and headers, because both are the border in
 * runtime/border.ts. The fetch handler has no socket to tell it the local
 * address, so its default is loopback's rules: a non-loopback Host is
 * refused unless `allowedHosts` lists it.
 */
import { once } from "node:events";
import { createServer, request, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { createFetchHandler } from "../../generated/fetch.js";
import { createHttpHandler } from "../../generated/http.js";
import { UNCONFIGURED_HOST } from "../../generator/runtime/http-guard.js";
import { envelope } from "../e2e/rpc.js";

const callBody = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, _meta: envelope() } });

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly status: number;
}

const modern = (name: string) => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name });
const getOrder = callBody("get_order", { customerId: "cus_1" });

/** The refusals, and one call that passes, as a curl user would send them. */
const CASES: Case[] = [
  { name: "a valid call", headers: { ...modern("get_order"), "mcp-param-customer-id": "cus_1" }, body: getOrder, status: 200 },
  { name: "a forged Host (DNS rebinding)", headers: { host: "evil.example.com", ...modern("get_order"), "mcp-param-customer-id": "cus_1" }, body: getOrder, status: 403 },
  { name: "a cross-site Origin", headers: { origin: "https://evil.example.com", ...modern("get_order"), "mcp-param-customer-id": "cus_1" }, body: getOrder, status: 403 },
  { name: "another path", path: "/other", headers: modern("get_order"), body: getOrder, status: 404 },
  { name: "a GET", method: "GET", headers: {}, status: 405 },
  { name: "a body that is not JSON", headers: modern("get_order"), body: "{not json", status: 400 },
  { name: "a body over 4 MiB", headers: modern("get_order"), body: JSON.stringify({ pad: "x".repeat(4 * 1024 * 1024) }), status: 413 },
  { name: "a lying Mcp-Name", headers: { ...modern("search_orders"), "mcp-param-customer-id": "cus_1" }, body: getOrder, status: 400 },
  { name: "an Mcp-Param header that disagrees with the body", headers: { ...modern("get_order"), "mcp-param-customer-id": "cus_2" }, body: getOrder, status: 400 },
  { name: "a missing Mcp-Param header", headers: modern("get_order"), body: getOrder, status: 400 },
];

/** What a refusal is made of: status, body, and the headers a client reads. */
async function seen(response: Response): Promise<{ status: number; body: unknown; type: string | null; allow: string | null }> {
  const text = await response.text();
  const type = response.headers.get("content-type");
  let body: unknown = text;
  if (type?.startsWith("application/json")) body = JSON.parse(text) as unknown;
  // A stream's lines as they are; the call's result differs only in nothing between the two entries.
  return { status: response.status, body, type, allow: response.headers.get("allow") };
}

function requestOf(base: string, c: Case, host: string): Request {
  const method = c.method ?? "POST";
  return new Request(new URL(c.path ?? "/mcp", base), {
    method,
    headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", ...c.headers },
    ...(method === "GET" ? {} : { body: c.body ?? "" }),
  });
}

/** The case sent over a real socket with node:http, which sends the Host it is given (fetch would send the URL's). */
function viaNode(c: Case, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const method = c.method ?? "POST";
    const req = request(
      { host: "127.0.0.1", port, path: c.path ?? "/mcp", method, headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", ...c.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") headers.set(name, value);
          resolve(new Response(chunks.length === 0 ? null : Buffer.concat(chunks), { status: res.statusCode ?? 0, headers }));
        });
      },
    );
    req.on("error", reject);
    req.end(method === "GET" ? undefined : (c.body ?? ""));
  });
}

let http: HttpServer;
let port = 0;

beforeAll(async () => {
  const handler = createHttpHandler(createDemoHandlers().handlers);
  http = createServer((req, res) => void handler(req, res));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  port = (http.address() as AddressInfo).port;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe("createFetchHandler and createHttpHandler: one border", () => {
  const fetchHandler = createFetchHandler(createDemoHandlers().handlers);

  it.each(CASES)("$name: the same status, body and headers from both ($status)", async (c) => {
    const host = `127.0.0.1:${port}`;
    const overNode = await seen(await viaNode(c, c.headers?.["host"] ?? host));
    const inProcess = await seen(await fetchHandler(requestOf(`http://127.0.0.1:${port}`, c, host)));
    expect(inProcess.status).toBe(c.status);
    expect(inProcess).toEqual(overNode);
    if (c.status >= 400) expect(inProcess.body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
  });

  it("refuses -32020 for a disagreeing Mcp-Param header, and 413 for an oversized body, with the JSON-RPC answers", async () => {
    const mismatch = await fetchHandler(requestOf("http://localhost", CASES[8]!, "localhost"));
    expect(await mismatch.json()).toEqual({ jsonrpc: "2.0", error: { code: -32020, message: "Header mismatch: the Mcp-Param-Customer-Id header does not match arguments.customerId." }, id: 7 });
    const huge = await fetchHandler(requestOf("http://localhost", CASES[6]!, "localhost"));
    expect(await huge.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Request body too large." }, id: null });
  });

  it("stops reading an oversized body at the cap: a body that never ends is refused with 413", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await fetchHandler(
      new Request("http://localhost/mcp", { method: "POST", headers: { host: "localhost", "content-type": "application/json", accept: "application/json, text/event-stream" }, body: endless, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(413);
    // 4 MiB in 64 KiB chunks is 64 of them; the stream's own read-ahead may pull a few more, never all of it.
    expect(pulled).toBeLessThan(80);
  });

  it("without a socket counts every request as loopback: a public Host is refused unless allowedHosts names it", async () => {
    const public_ = { ...CASES[0]!, headers: { ...CASES[0]!.headers } };
    const refused = await fetchHandler(requestOf("https://mcp.example.com", public_, "mcp.example.com"));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { message: "Host not allowed." } });
    const named = createFetchHandler(createDemoHandlers().handlers, { allowedHosts: ["mcp.example.com"] });
    expect((await named(requestOf("https://mcp.example.com", public_, "mcp.example.com"))).status).toBe(200);
    expect((await named(requestOf("https://mcp.example.com", public_, "evil.example.com"))).status).toBe(403);
  });

  it("with localAddress set to a non-loopback address, applies the Node handler's rules for one: nothing without allowedHosts or allowedOrigins", async () => {
    const listening = createFetchHandler(createDemoHandlers().handlers, { localAddress: "192.0.2.10" });
    const rebound = { ...CASES[0]!, headers: { ...CASES[0]!.headers, origin: "http://evil.example.com" } };
    expect((await listening(requestOf("http://evil.example.com", rebound, "evil.example.com"))).status).toBe(403);
    const plain = await listening(requestOf("http://mcp.example.com", CASES[0]!, "mcp.example.com"));
    expect([plain.status, await plain.json()]).toEqual([403, { jsonrpc: "2.0", error: { code: -32000, message: UNCONFIGURED_HOST }, id: null }]);
    const origins = createFetchHandler(createDemoHandlers().handlers, { localAddress: "192.0.2.10", allowedOrigins: ["https://app.example.com"] });
    expect((await origins(requestOf("http://evil.example.com", rebound, "evil.example.com"))).status).toBe(403);
    expect((await origins(requestOf("http://mcp.example.com", CASES[0]!, "mcp.example.com"))).status).toBe(200);
  });
});
