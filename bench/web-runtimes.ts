/**
 * The border's cost per runtime: the demo's generated tools served on
 * 127.0.0.1 by Node's `createHttpHandler` and through `createFetchHandler`
 * on Node (@hono/node-server), Deno, Bun and workerd (test/web-runtimes:
 * serve.ts, and worker.ts under `wrangler dev --local`), each in its own
 * process, all called by one Node client over keep-alive HTTP with the same
 * 2026-07-28 tools/call (get_order). Two figures: the round trip through
 * `createFetchHandler` on Node against the Node handler (median of
 * interleaved rounds; target within 1.1×), and calls per second on each
 * runtime (8 calls in flight), as ratios to the Node handler. Runtimes that
 * are not installed (npm run runtimes) are reported as such.
 *
 * Run alone: npx tsx bench/web-runtimes.ts   (BENCH_QUICK=1 for fewer calls)
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { LogBuffer, stopProcess } from "../test/e2e/helpers.js";
import { envelope } from "../test/e2e/rpc.js";
import { startWorker } from "../test/web-runtimes/wrangler.js";
import { ROOT } from "./lib/project.js";

const QUICK = process.env.BENCH_QUICK === "1";
const SERVE = join(ROOT, "test/web-runtimes/serve.ts");
const BIN = join(ROOT, "test/web-runtimes/node_modules/.bin");

interface Served {
  url: URL;
  stop(): Promise<void>;
}

/** The runtimes, the Node handler first: every ratio is to it. */
const RUNTIMES: Record<string, () => Promise<Served> | undefined> = {
  "Node, createHttpHandler": () => spawnServe([process.execPath, "--import", "tsx", SERVE], { TOOLC_RT_ENTRY: "node-http" }),
  "Node, createFetchHandler": () => spawnServe([process.execPath, "--import", "tsx", SERVE]),
  "Deno, createFetchHandler": () =>
    existsSync(join(BIN, "deno")) ? spawnServe([join(BIN, "deno"), "run", "--allow-all", "--sloppy-imports", SERVE]) : undefined,
  "Bun, createFetchHandler": () => (existsSync(join(BIN, "bun")) ? spawnServe([join(BIN, "bun"), "run", SERVE]) : undefined),
  "workerd, createFetchHandler": () => (existsSync(join(BIN, "wrangler")) ? startWorker(join(ROOT, "test/web-runtimes/wrangler.toml")) : undefined),
};

async function spawnServe(argv: string[], env: Record<string, string> = {}): Promise<Served> {
  const [command, ...args] = argv;
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stdout);
  log.attach(child.stderr);
  const [, url] = await log.waitFor(/listening on (http:\/\/\S+)/, 90_000).catch(async (error: unknown) => {
    await stopProcess(child);
    throw error;
  });
  return { url: new URL(url!), stop: () => stopProcess(child) };
}

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "get_order", arguments: { customerId: "cus_1" }, _meta: envelope() },
});
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "get_order",
  "mcp-param-customer-id": "cus_1",
};

/** One tools/call over a kept-alive connection; rejects on anything but 200. */
function callOnce(url: URL, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers: { ...HEADERS, host: url.host } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url.href}: status ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(BODY);
  });
}

/** Per-call latencies of `n` calls one after the other (ms). */
async function roundTrips(url: URL, agent: Agent, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await callOnce(url, agent);
    out.push(performance.now() - t0);
  }
  return out;
}

/** Calls per second with `inFlight` calls outstanding, over `n` calls. */
async function callsPerSecond(url: URL, agent: Agent, n: number, inFlight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await callOnce(url, agent);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const x = (n: number): string => `${n.toFixed(2)}×`;
const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;

export async function benchWebRuntimes(print: (line?: string) => void): Promise<void> {
  const rounds = QUICK ? 3 : 7;
  const perRound = QUICK ? 100 : 300;
  const throughputCalls = QUICK ? 300 : 2000;
  const served = new Map<string, Served>();
  const missing: string[] = [];
  try {
    for (const [name, start] of Object.entries(RUNTIMES)) {
      const started = await start();
      if (started === undefined) missing.push(name);
      else served.set(name, started);
    }
    const agents = new Map([...served.keys()].map((name) => [name, new Agent({ keepAlive: true, maxSockets: 8 })]));
    for (const [name, s] of served) await roundTrips(s.url, agents.get(name)!, 100); // warm-up: JIT, first-call loading
    // Round trip: the two Node entries, interleaved round by round so that drift on a shared machine hits both.
    const [node, fetchOnNode] = ["Node, createHttpHandler", "Node, createFetchHandler"];
    const latency: Record<string, number[]> = { [node]: [], [fetchOnNode]: [] };
    for (let r = 0; r < rounds; r++)
      for (const name of [node, fetchOnNode]) latency[name]!.push(median(await roundTrips(served.get(name)!.url, agents.get(name)!, perRound)));
    const [nodeMs, fetchMs] = [median(latency[node]!), median(latency[fetchOnNode]!)];
    print(row(["entry on Node", "round trip ms (median of round medians)", "vs createHttpHandler", "within 1.1×"]));
    print(row(["---", "---:", "---:", "---"]));
    print(row(["createHttpHandler", nodeMs.toFixed(3), x(1), "—"]));
    print(row(["createFetchHandler (@hono/node-server)", fetchMs.toFixed(3), x(fetchMs / nodeMs), fetchMs / nodeMs <= 1.1 ? "met" : "NOT met"]));
    print(`\nCalls per second, ${throughputCalls} calls with 8 in flight, one runtime at a time:\n`);
    print(row(["runtime, entry", "calls/s", "vs Node createHttpHandler"]));
    print(row(["---", "---:", "---:"]));
    const rates = new Map<string, number>();
    for (const [name, s] of served) rates.set(name, await callsPerSecond(s.url, agents.get(name)!, throughputCalls, 8));
    const base = rates.get(node) ?? Number.NaN;
    for (const [name, rate] of rates) print(row([name, rate.toFixed(0), x(rate / base)]));
    for (const name of missing) print(row([name, "not installed (npm run runtimes)", "—"]));
    for (const agent of agents.values()) agent.destroy();
  } finally {
    await Promise.all([...served.values()].map((s) => s.stop()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWebRuntimes((line = "") => console.log(line));
