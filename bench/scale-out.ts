/**
 * Scale-out: calls per second through Debian's haproxy in front of two
 * instances (sharing a redis-server) against one instance on its own with
 * the memory store, side by side in one run; and the store's cost per
 * confirmed call (one set-if-absent marks its approval used), memory
 * against Redis, in process and end to end. The same parts as
 * test/e2e/scale-out.test.ts (test/helpers/scale-out.ts). Skipped, and
 * says so, where haproxy or redis-server is missing.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createClient } from "redis";
import { memoryStore, redisStore, type SharedStore } from "../generator/runtime/store.js";
import { freePort, startHaproxy, startRedis, type Daemon } from "../test/helpers/daemons.js";
import { scaleOutProject, SECRET, startInstance, type Instance } from "../test/helpers/scale-out.js";
import { envelope, modernHeaders } from "../test/e2e/rpc.js";

type Print = (line?: string) => void;

const has = (command: string): boolean => {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

let nextId = 1;
async function post(url: URL, name: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const body = { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, ...params, _meta: envelope(meta) } };
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...modernHeaders("tools/call", name) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { result: Record<string, unknown> }).result;
}

/** `calls` pings with `concurrency` in flight; calls per second. */
async function throughput(url: URL, calls: number, concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const n = next++;
        const result = await post(url, "ping", { arguments: { n } });
        if ((result["structuredContent"] as { n?: number } | undefined)?.n !== n) throw new Error(`ping ${n}: ${JSON.stringify(result)}`);
      }
    }),
  );
  return calls / ((performance.now() - started) / 1000);
}

const FORM = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

/** One confirmed call, question and answer, on one instance; ms. */
async function confirmedCall(url: URL, id: string): Promise<number> {
  const started = performance.now();
  const asked = await post(url, "wipe_record", { arguments: { id } }, FORM);
  const answered = await post(url, "wipe_record", { arguments: { id }, inputResponses: ACCEPT, requestState: asked["requestState"] }, FORM);
  if (answered["structuredContent"] === undefined) throw new Error(`wipe ${id}: ${JSON.stringify(answered)}`);
  return performance.now() - started;
}

/** µs per setIfAbsent, median of rounds of `n` sequential calls. */
async function storeCost(store: SharedStore, label: string, rounds: number, n: number): Promise<number> {
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) await store.setIfAbsent(`bench:${label}:${r}:${i}`, "1", 60_000);
    perRound.push(((performance.now() - started) * 1000) / n);
  }
  return median(perRound);
}

export async function benchScaleOut(print: Print, quick: boolean): Promise<void> {
  if (!has("haproxy") || !has("redis-server")) {
    print("(skipped: Debian's haproxy and redis-server are needed; .ci/run installs them)");
    return;
  }
  const dir = await scaleOutProject();
  const daemons: Daemon[] = [];
  const instances: Instance[] = [];
  try {
    const redis = await startRedis();
    daemons.push(redis);
    const env = { REDIS_URL: `redis://127.0.0.1:${redis.port}`, SECRET, RATE: "1000000" };
    const [a, b, single] = [await freePort(), await freePort(), await freePort()];
    instances.push(
      ...(await Promise.all([
        startInstance(dir, "a", a, env),
        startInstance(dir, "b", b, env),
        startInstance(dir, "single", single, { SECRET, STORE: "memory", INSTANCES: "1" }),
      ])),
    );
    const haproxy = await startHaproxy([a, b], { keepAlive: true });
    daemons.push(haproxy);
    const lb = new URL(`http://127.0.0.1:${haproxy.port}/mcp`);
    const alone = new URL(`http://127.0.0.1:${single}/mcp`);
    const direct = new URL(`http://127.0.0.1:${a}/mcp`);

    const calls = quick ? 500 : 2000;
    const concurrency = 32;
    await throughput(lb, 200, concurrency);
    await throughput(alone, 200, concurrency);
    const rates: { lb: number[]; alone: number[] } = { lb: [], alone: [] };
    for (let round = 0; round < (quick ? 3 : 5); round++) {
      rates.lb.push(await throughput(lb, calls, concurrency));
      rates.alone.push(await throughput(alone, calls, concurrency));
    }
    print(
      `ping (an unconfirmed read), ${calls} calls per round, ${concurrency} in flight, client keep-alive; median of ${rates.lb.length} interleaved rounds\n`,
    );
    print("| served by | calls/s | ratio |");
    print("| --- | ---: | ---: |");
    print(`| one instance, memory store, no load balancer | ${median(rates.alone).toFixed(0)} | 1.0× |`);
    print(`| haproxy round-robin → two instances, Redis store | ${median(rates.lb).toFixed(0)} | ${(median(rates.lb) / median(rates.alone)).toFixed(2)}× |`);

    const client = createClient({ url: env.REDIS_URL, disableOfflineQueue: true });
    await client.connect();
    try {
      const n = quick ? 500 : 2000;
      const memory = await storeCost(memoryStore(), "memory", 5, n);
      const viaRedis = await storeCost(redisStore(client, { prefix: "bench:" }), "redis", 5, n);
      const e2e: { memory: number[]; redis: number[] } = { memory: [], redis: [] };
      for (let i = 0; i < (quick ? 50 : 200); i++) {
        e2e.memory.push(await confirmedCall(alone, `m-${i}`));
        e2e.redis.push(await confirmedCall(direct, `r-${i}`));
      }
      print(`\nThe store's cost per confirmed call (one set-if-absent marks the approval used)\n`);
      print(
        "| store | setIfAbsent µs (in process, median of 5 × " +
          n +
          ") | confirmed call ms (question + answer, one instance, median of " +
          e2e.memory.length +
          ") |",
      );
      print("| --- | ---: | ---: |");
      print(`| memoryStore | ${memory.toFixed(1)} | ${median(e2e.memory).toFixed(2)} |`);
      print(`| redisStore (node-redis, loopback redis-server) | ${viaRedis.toFixed(1)} | ${median(e2e.redis).toFixed(2)} |`);
    } finally {
      await client.quit().catch(() => {});
    }
  } finally {
    await Promise.all([...instances.map((i) => i.stop()), ...daemons.map((d) => d.stop())]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npx tsx bench/scale-out.ts`: this section alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchScaleOut((line = "") => console.log(line), process.env.BENCH_QUICK === "1");
}
