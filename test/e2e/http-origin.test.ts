/**
 * DNS rebinding and cross-origin calls against the demo's HTTP server, as an
 * outside page would send them, and the official MCP conformance scenario.
 */
import { execFile } from "node:child_process";
import { request } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBin, packageBin } from "../helpers/node-runtimes.js";
import { demoServer, root, spawnHttp, type HttpProcess } from "./helpers.js";

interface Reply {
  status: number;
  body: string;
}

/** A raw POST with exactly the headers given: fetch would not let a test set Host. */
function post(url: URL, headers: Record<string, string>, body: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const deleteCall = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "delete_customer", arguments: { customerId: "cus_1", confirm: true, adminToken: "wrong-token-123" } },
};

describe("the demo over HTTP refuses what a browser on another site sends", () => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await spawnHttp(demoServer, ["--http", "--port", "0"]);
  }, 60_000);
  afterAll(async () => server?.stop());

  const traces = (): number => (server.log.text.match(/trace delete_customer/g) ?? []).length;

  it("answers 403 to a rebound Host and Origin, and runs no handler", async () => {
    const before = traces();
    const reply = await post(server.url, { host: "evil.example.com", origin: "http://evil.example.com" }, deleteCall);
    expect(reply.status).toBe(403);
    expect(traces()).toBe(before);
  });

  it("answers 403 to a cross-origin page calling the right host", async () => {
    const before = traces();
    const reply = await post(server.url, { host: server.url.host, origin: "https://evil.example.com" }, deleteCall);
    expect(reply.status).toBe(403);
    expect(traces()).toBe(before);
  });

  it("answers 403 to a rebound Host without any Origin", async () => {
    const reply = await post(server.url, { host: `attacker.test:${server.url.port}` }, deleteCall);
    expect(reply.status).toBe(403);
  });

  it("serves localhost names with and without a local Origin", async () => {
    const variants: Record<string, string>[] = [{ host: server.url.host }, { host: `localhost:${server.url.port}`, origin: `http://localhost:${server.url.port}` }];
    for (const headers of variants) {
      const before = traces();
      const reply = await post(server.url, headers, deleteCall);
      expect(reply.status).toBe(200);
      // The handler ran (and refused the wrong credential), which the trace line shows.
      expect(traces()).toBe(before + 1);
    }
  });

  it("passes the official conformance scenario dns-rebinding-protection", async () => {
    const suite = packageBin("@modelcontextprotocol/conformance", "conformance");
    const { stdout } = await promisify(execFile)(nodeBin(24), [suite, "server", "--url", server.url.href, "--scenario", "dns-rebinding-protection"], {
      cwd: root,
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    expect(stdout).toMatch(/Passed:\s*2\/2/);
    expect(stdout).not.toMatch(/FAIL/);
  }, 90_000);
});
