/**
 * createToolHttpHandler's Host and Origin options, on a real loopback server:
 * what is refused gets 403 before any server or handler is created. A server
 * on another interface is simulated by the connection's local address.
 */
import { once } from "node:events";
import { createServer, request, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHttpHandler, type HttpHandlerOptions } from "../../generator/runtime/http.js";
import { UNCONFIGURED_HOST } from "../../generator/runtime/http-guard.js";
import { createToolServer } from "../../generator/runtime/server.js";
import { contracts, FakeOrders, makeHandlers } from "./fixtures.js";

let http: HttpServer | undefined;
let created = 0;

/** `localAddress`: the address the connection is seen to arrive on, as on a server listening on another interface. */
async function start(options: HttpHandlerOptions, localAddress?: string): Promise<number> {
  const handlers = makeHandlers(new FakeOrders());
  const handler = createToolHttpHandler(() => { created++; return createToolServer(contracts, handlers); }, options);
  http = createServer((req, res) => {
    if (localAddress !== undefined) Object.defineProperty(req.socket, "localAddress", { value: localAddress, configurable: true });
    return handler(req, res);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return (http.address() as AddressInfo).port;
}

afterEach(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  http = undefined;
});

const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

function post(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(listTools);
  });
}

describe("createToolHttpHandler Host and Origin checks", () => {
  it("on loopback, by default, serves localhost names only and creates nothing for a refused request", async () => {
    const port = await start({});
    const before = created;
    expect(await post(port, { host: `evil.example.com:${port}` })).toBe(403);
    expect(await post(port, { host: `127.0.0.1:${port}`, origin: "null" })).toBe(403);
    expect(created).toBe(before);
    expect(await post(port, { host: `[::1]:${port}` })).toBe(200);
    expect(await post(port, { host: `LOCALHOST:${port}`, origin: "http://127.0.0.1:5173" })).toBe(200);
  });

  it("allowedHosts replaces the loopback default: a proxy's public name, with or without a port", async () => {
    const port = await start({ allowedHosts: ["mcp.example.com", "other.example.com:8443"] });
    expect(await post(port, { host: "mcp.example.com" })).toBe(200);
    expect(await post(port, { host: "MCP.example.com:443" })).toBe(200);
    expect(await post(port, { host: "other.example.com:8443" })).toBe(200);
    expect(await post(port, { host: "other.example.com:9000" })).toBe(403);
    expect(await post(port, { host: `localhost:${port}` })).toBe(403);
    // Same-origin pages on an allowed host are allowed; another site is not.
    expect(await post(port, { host: "mcp.example.com", origin: "https://mcp.example.com" })).toBe(200);
    expect(await post(port, { host: "mcp.example.com", origin: "https://evil.example.com" })).toBe(403);
  });

  it("allowedOrigins lists exactly the origins that may call; a missing Origin (not a browser) is still served", async () => {
    const port = await start({ allowedOrigins: ["https://app.example.com"] });
    const host = `localhost:${port}`;
    expect(await post(port, { host, origin: "https://app.example.com" })).toBe(200);
    expect(await post(port, { host, origin: `http://localhost:${port}` })).toBe(403);
    expect(await post(port, { host, origin: "https://app.example.com.evil.test" })).toBe(403);
    expect(await post(port, { host })).toBe(200);
  });

  it("refuses every other host and origin a fuzzer makes up, creating nothing for them", async () => {
    const port = await start({});
    const before = created;
    const host = fc.oneof(fc.domain(), fc.ipV4(), fc.constantFrom("localhost.evil.test", "127.0.0.1.nip.io", "0.0.0.0", "[::2]"));
    await fc.assert(
      fc.asyncProperty(host, fc.constantFrom("http", "https"), fc.boolean(), async (name, scheme, asOrigin) => {
        if (["localhost", "127.0.0.1"].includes(name.toLowerCase())) return;
        const headers: Record<string, string> = asOrigin ? { host: `127.0.0.1:${port}`, origin: `${scheme}://${name}` } : { host: `${name}:${port}` };
        expect(await post(port, headers)).toBe(403);
      }),
      { numRuns: 30 },
    );
    expect(created).toBe(before);
  });

  describe("on a non-loopback address without allowedHosts (0.0.0.0, as a quick start might listen)", () => {
    /** The status and the JSON-RPC error message of one POST. */
    function answer(port: number, headers: Record<string, string>): Promise<[number, string | undefined]> {
      return new Promise((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            const error = res.statusCode === 403 ? (JSON.parse(text) as { error: { message: string } }).error.message : undefined;
            resolve([res.statusCode ?? 0, error]);
          });
        });
        req.on("error", reject);
        req.end(listTools);
      });
    }

    it("with neither allowedHosts nor allowedOrigins refuses every request, with or without an Origin, creating nothing, and says which option is missing", async () => {
      const port = await start({}, "192.0.2.10");
      const before = created;
      // The attack: evil.example.com rebound to the server's address; the page's Origin is its own, so it matched the Host.
      expect(await answer(port, { host: `evil.example.com:${port}`, origin: `http://evil.example.com:${port}` })).toEqual([403, UNCONFIGURED_HOST]);
      expect(await answer(port, { host: `192.0.2.10:${port}`, origin: `http://192.0.2.10:${port}` })).toEqual([403, UNCONFIGURED_HOST]);
      expect(await answer(port, { host: `evil.example.com:${port}` })).toEqual([403, UNCONFIGURED_HOST]);
      expect(await answer(port, { host: "mcp.example.com" })).toEqual([403, UNCONFIGURED_HOST]);
      expect(UNCONFIGURED_HOST).toMatch(/allowedHosts.*allowedOrigins/);
      expect(created).toBe(before);
      // Loopback connections keep their own rules.
      http?.closeAllConnections();
      await new Promise((resolve) => http?.close(resolve));
      const loopback = await start({});
      expect(await post(loopback, { host: `localhost:${loopback}` })).toBe(200);
    });

    it("serves browser pages that allowedOrigins or allowedHosts vouch for, and with allowedOrigins alone clients that send no Origin", async () => {
      const origins = await start({ allowedOrigins: ["https://app.example.com"] }, "192.0.2.10");
      expect(await post(origins, { host: "mcp.example.com", origin: "https://app.example.com" })).toBe(200);
      expect(await post(origins, { host: "mcp.example.com", origin: "https://mcp.example.com" })).toBe(403);
      expect(await post(origins, { host: "evil.example.com", origin: "http://evil.example.com" })).toBe(403);
      expect(await post(origins, { host: "mcp.example.com" })).toBe(200);
      http?.closeAllConnections();
      await new Promise((resolve) => http?.close(resolve));
      const hosts = await start({ allowedHosts: ["mcp.example.com"] }, "192.0.2.10");
      expect(await post(hosts, { host: "mcp.example.com", origin: "https://mcp.example.com" })).toBe(200);
      expect(await post(hosts, { host: "mcp.example.com" })).toBe(200);
      expect(await post(hosts, { host: "evil.example.com", origin: "http://evil.example.com" })).toBe(403);
    });
  });
});
