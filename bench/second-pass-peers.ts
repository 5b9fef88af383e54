/**
 * The "after" figures of docs/robustness.md's second attack pass, for the
 * rows about the other end of the wire: how many pages verifyServer's check
 * reads from a server whose tools/list never ends, how many DNS-rebound
 * browser requests reach a handler on a non-loopback address, and how many echoed secrets and impossible retries the
 * typed client passes on. Servers run in memory or on 127.0.0.1; counts,
 * one-off figures, not a benchmark.
 *
 * Run alone: npx tsx bench/second-pass-peers.ts
 */
import { once } from "node:events";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createToolClient } from "../generator/runtime/client.js";
import { checkToolDrift } from "../generator/runtime/drift.js";
import { createToolHttpHandler } from "../generator/runtime/http.js";
import { createToolServer } from "../generator/runtime/server.js";
import { containsString } from "../test/fuzz/harness.js";
import { connectInMemory } from "../test/runtime/connect.js";
import { contracts as orders, FakeOrders, makeHandlers } from "../test/runtime/fixtures.js";
import { CALLS, secrets } from "./second-pass-runtime.js";

type Print = (line: string) => void;

/** A server whose tools/list pages come from `nextCursor(page)`; each drift check reads it to its end or until it stops. */
async function pagesUntilStop(nextCursor: (page: number) => string): Promise<{ pages: number; ms: number; problem: string }> {
  let served = 0;
  const server = new Server({ name: "looping", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "get_order", inputSchema: { type: "object" as const } }],
    nextCursor: nextCursor(served++),
  }));
  const { client, close } = await connectInMemory(server);
  const t0 = performance.now();
  const problem = await checkToolDrift(orders, client).then(
    () => "none",
    (e: { problem?: string }) => e.problem ?? String(e),
  );
  const ms = performance.now() - t0;
  await close();
  return { pages: served, ms, problem };
}

async function verifyServerRows(print: Print): Promise<void> {
  const again = await pagesUntilStop(() => "again");
  print(`| verifyServer, the same nextCursor every page | stops after ${again.pages} pages (${again.problem}), ${again.ms.toFixed(0)} ms |`);
  const fresh = await pagesUntilStop((page) => `page-${page}`);
  print(`| verifyServer, a new nextCursor every page | stops after ${fresh.pages} pages (${fresh.problem}), ${fresh.ms.toFixed(0)} ms |`);
}

function post(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A handler without allowedHosts or allowedOrigins whose connections arrive on 192.0.2.10 (simulated), sent rebound pages whose Origin is their Host. */
async function rebindingRow(print: Print): Promise<void> {
  let created = 0;
  const handler = createToolHttpHandler(() => (created++, createToolServer(orders, makeHandlers(new FakeOrders()))), {});
  const http = createServer((req, res) => {
    Object.defineProperty(req.socket, "localAddress", { value: "192.0.2.10", configurable: true });
    return handler(req, res);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const port = (http.address() as AddressInfo).port;
  let refused = 0;
  for (let i = 0; i < CALLS; i++) {
    const host = `rebound-${i}.example:${port}`;
    if ((await post(port, { host, origin: `http://${host}` })) === 403) refused++;
  }
  http.close();
  print(`| DNS rebinding on a non-loopback address | ${refused} of ${CALLS} rebound page requests refused (403), ${created} servers created for them |`);
}

/** A server that answers every tools/call with `answer()`. */
async function echoingClient(answer: () => Record<string, unknown>) {
  const server = new Server({ name: "echo", version: "0.0.1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, () => answer() as never);
  const connected = await connectInMemory(server);
  return { tools: createToolClient(orders, connected.client), close: connected.close };
}

async function clientRows(print: Print): Promise<void> {
  let current = "";
  const envelope = (s: string, code: string) => ({
    ok: false,
    code,
    message: `bad ${s}`,
    retryable: true,
    effect: "none",
    tool: `get_order ${s}`,
    version: 2,
    attempts: 1,
    reason: s,
    issues: [{ path: `apiKey.${s}`, message: `${s} is not a key we know` }],
  });
  const codes = ["INVALID_INPUT", "INVALID_OUTPUT", "RETRYABLE", "FAILED"];
  let code = "";
  const { tools, close } = await echoingClient(() => {
    const e = envelope(current, code);
    return { isError: true, content: [{ type: "text", text: JSON.stringify(e) }], _meta: { "toolc/failure": e } };
  });
  let leaks = 0;
  let retried = 0;
  const all = secrets(CALLS);
  for (const [i, s] of all.entries()) {
    current = s;
    code = codes[i % codes.length]!;
    if (containsString(await tools.get_order({ customerId: "c", apiKey: s }), s)) leaks++;
    code = "RETRYABLE";
    const deleted = await tools.delete_order({ orderId: "o" });
    if (!deleted.ok && deleted.code === "RETRYABLE") retried++;
  }
  await close();
  print(
    `| typed client, a server echoing the call's secret in message, tool, reason and issues | the secret reached the caller in ${leaks} of ${all.length} calls |`,
  );
  print(
    `| typed client, RETRYABLE for delete_order (destructive, not idempotent) | passed on as RETRYABLE ${retried} of ${all.length} times (FAILED, effect unknown, the rest) |`,
  );
}

export async function benchSecondPassPeers(print: Print = console.log): Promise<void> {
  await verifyServerRows(print);
  await rebindingRow(print);
  await clientRows(print);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSecondPassPeers();
