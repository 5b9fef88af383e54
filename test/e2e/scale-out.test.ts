/**
 * More than one instance, from real parts (test/helpers/scale-out.ts):
 * Debian's haproxy round-robin on loopback in front of two processes
 * serving a generated project over Streamable HTTP, and Debian's
 * redis-server as their shared store, all started and stopped here. Calls
 * are plain 2026-07-28 JSON-RPC POSTs (rpc.ts); a confirmed call is its two
 * rounds, the question and the answer with the state the server signed.
 * Every handler run is a line in the effects file, so "ran once" is counted
 * where the effect happens.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startHaproxy, startRedis, type Daemon } from "../helpers/daemons.js";
import { effects, scaleOutProject, SECRET, startInstance, type Instance } from "../helpers/scale-out.js";
import { envelope, modernHeaders } from "./rpc.js";

let dir: string;
let redis: Daemon;
let haproxy: Daemon;
const instances: Instance[] = [];
let ports: number[];
let lb: URL;
let effectsFile: string;

const env = () => ({ REDIS_URL: `redis://127.0.0.1:${redis.port}`, SECRET, EFFECTS: effectsFile });

beforeAll(async () => {
  dir = await scaleOutProject();
  effectsFile = join(dir, "effects.jsonl");
  redis = await startRedis();
  ports = [await freePort(), await freePort()];
  instances.push(...(await Promise.all([startInstance(dir, "a", ports[0]!, env()), startInstance(dir, "b", ports[1]!, env())])));
  haproxy = await startHaproxy(ports);
  lb = new URL(`http://127.0.0.1:${haproxy.port}/mcp`);
}, 180_000);

afterAll(async () => {
  await Promise.all([...instances.map((i) => i.stop()), haproxy?.stop(), redis?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const FORM = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };
const direct = (port: number) => new URL(`http://127.0.0.1:${port}/mcp`);

type Result = Record<string, unknown>;

/** One round of wipe_record: the question (no state) or the answer (accepted, with the state). */
async function wipe(url: URL, id: string, requestState?: string): Promise<Result> {
  const params = { name: "wipe_record", arguments: { id }, ...(requestState === undefined ? {} : { inputResponses: ACCEPT, requestState }) };
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: envelope(FORM) } };
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...modernHeaders("tools/call", "wipe_record") }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text}\n${instances.map((i) => `${i.name}: ${i.stderr().slice(-2000)}`).join("\n")}`);
  return (JSON.parse(text) as { result: Result }).result;
}

const stateOf = (result: Result): string => {
  expect(result["resultType"]).toBe("input_required");
  return result["requestState"] as string;
};
const failureOf = (result: Result) => (result["_meta"] as Record<string, unknown> | undefined)?.["toolc/failure"] as Record<string, unknown> | undefined;
const ranFor = (id: string) => effects(effectsFile).filter((e) => e.id === id);
const USED = { code: "REJECTED", reason: "CONFIRMATION_INVALID", message: expect.stringContaining("already used") };

describe("two instances behind haproxy, one redis-server", () => {
  it("a confirmation asked through one instance and answered through the other runs once; the replay through either is refused", async () => {
    const state = stateOf(await wipe(direct(ports[0]!), "cross-1"));
    expect((await wipe(direct(ports[1]!), "cross-1", state))["structuredContent"]).toEqual({ wiped: "cross-1" });
    for (const url of [direct(ports[0]!), direct(ports[1]!), lb, lb]) expect(failureOf(await wipe(url, "cross-1", state))).toMatchObject(USED);
    expect(ranFor("cross-1")).toEqual([{ id: "cross-1", by: "b" }]);
  });

  it("1,000 concurrent confirmed calls across both, each answer sent twice at once: 0 errors, each runs exactly once", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `bulk-${i}`);
    const outcomes = await Promise.all(
      ids.map(async (id) => {
        const state = stateOf(await wipe(lb, id));
        const answers = await Promise.all([wipe(lb, id, state), wipe(lb, id, state)]);
        return answers.map((answer) => (answer["structuredContent"] !== undefined ? "ran" : failureOf(answer)?.["reason"] === "CONFIRMATION_INVALID" ? "used" : JSON.stringify(answer)));
      }),
    );
    const unexpected = outcomes.flat().filter((o) => o !== "ran" && o !== "used");
    expect(unexpected).toEqual([]);
    expect(outcomes.every((pair) => pair.filter((o) => o === "ran").length === 1)).toBe(true);
    const bulk = effects(effectsFile).filter((e) => e.id.startsWith("bulk-"));
    expect(bulk).toHaveLength(1000);
    expect(new Set(bulk.map((e) => e.id)).size).toBe(1000);
    // Round-robin: both instances ran calls.
    expect(new Set(bulk.map((e) => e.by))).toEqual(new Set(["a", "b"]));
  }, 400_000);

  it("a rate limit holds across both instances: 20 calls a minute per tenant, the rest 429 with Retry-After", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let n = 0; n < 30; n++) {
      const response = await fetch(lb, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ping", "x-tenant": "acme" },
        body: JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "ping", arguments: { n }, _meta: envelope() } }),
      });
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get("retry-after");
        const body = (await response.json()) as { result: { _meta: Record<string, unknown> } };
        expect(body.result._meta["toolc/failure"]).toMatchObject({ code: "REJECTED", reason: "RATE_LIMITED", effect: "none" });
      } else await response.text();
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Both instances refused some: each counted in the shared store, not alone.
    for (const instance of instances) expect(instance.stderr()).toContain('"reason":"RATE_LIMITED"');
  });

  it("a limit declared in the contract holds across both instances: quota's 10 calls a minute, the rest 429 with the envelope", async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 16; n++) {
      const response = await fetch(lb, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...modernHeaders("tools/call", "quota") },
        body: JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "quota", arguments: { n }, _meta: envelope() } }),
      });
      statuses.push(response.status);
      const body = (await response.json()) as { result: { _meta?: Record<string, unknown> } };
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(body.result._meta?.["toolc/failure"]).toMatchObject({ code: "REJECTED", reason: "RATE_LIMITED", tool: "quota", effect: "none" });
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(6).fill(429)]);
    // Round-robin: each instance refused some of quota's calls, so each counted in the shared store, not alone.
    for (const instance of instances) expect(instance.stderr()).toContain('"reason":"RATE_LIMITED","code":"REJECTED","tool":"quota"');
  });

  it("one instance stopped mid-run loses no confirmed call and runs none twice", async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `stop-${i}`);
    let done = 0;
    const run = Promise.all(
      ids.map(async (id) => {
        const state = stateOf(await wipe(lb, id));
        const answer = await wipe(lb, id, state);
        done++;
        return answer["structuredContent"];
      }),
    );
    // Mid-run: once some calls have finished, instance a stops (SIGTERM: calls in flight finish, new connections go to b).
    for (let i = 0; i < 600 && done < 20; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await instances[0]!.stop();
    const results = await run;
    expect(results).toEqual(ids.map((id) => ({ wiped: id })));
    const ran = effects(effectsFile).filter((e) => e.id.startsWith("stop-"));
    expect(ran).toHaveLength(200);
    expect(new Set(ran.map((e) => e.id)).size).toBe(200);
    instances[0] = await startInstance(dir, "a", ports[0]!, env());
  }, 180_000);

  it("a configuration that shares the store without the key stops the instance at start-up, with a message and no stack trace", async () => {
    const port = await freePort();
    const failed = startInstance(dir, "nokey", port, { ...env(), SECRET: undefined });
    const error = (await failed.then(() => undefined, (e: unknown) => e as Error))!;
    expect(error.message).toMatch(/exited with 1/);
    expect(error.message).toContain("ConfigurationError: toolc: this server shares state with other instances");
    expect(error.message).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("the store stopped mid-run gives refusals, never an unchecked run", async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `down-${i}`);
    const states = await Promise.all(ids.map(async (id) => stateOf(await wipe(lb, id))));
    // The first half are answered while the store is up; the store stops while the rest are on their way.
    const first = await Promise.all(ids.slice(0, 50).map((id, i) => wipe(lb, id, states[i])));
    const rest = Promise.all(ids.slice(50).map((id, i) => wipe(lb, id, states[50 + i])));
    await redis.stop();
    const late = await Promise.all(ids.slice(50).map((id, i) => wipe(lb, id, states[50 + i])));
    const all = [...first, ...(await rest), ...late];
    const ranIds = new Set<string>();
    for (const [i, result] of all.entries()) {
      const id = ids[i % 100]!;
      if (result["structuredContent"] !== undefined) ranIds.add(id);
      else expect(failureOf(result)).toMatchObject(expect.objectContaining({ effect: "none" }));
    }
    // Everything answered after the store stopped was refused as retryable, saying nothing of the store.
    for (const result of late) {
      expect(failureOf(result)).toMatchObject({ code: "RETRYABLE", retryable: true, effect: "none", attempts: 0 });
      expect(JSON.stringify(result)).not.toMatch(/redis|ECONNREFUSED|closed|store/i);
    }
    // What ran is exactly what was answered "ran", once each.
    const ran = effects(effectsFile).filter((e) => e.id.startsWith("down-"));
    expect(ran.map((e) => e.id).sort()).toEqual([...ranIds].sort());
    expect(new Set(ran.map((e) => e.id)).size).toBe(ran.length);
    expect(ran.length).toBeGreaterThanOrEqual(50);
    expect(instances.map((i) => i.stderr()).join("")).toContain('"reason":"STORE_UNAVAILABLE"');
  }, 120_000);
});
