/**
 * The shared store (runtime/store.ts): the in-memory default, bounded and
 * expiring on a fake clock, and the Redis adapter over a real Debian
 * redis-server through the `redis` package's own client, typed only by its
 * shape. The same properties hold for both, so one table runs on each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { memoryStore, redisStore, StoreUnavailableError, type SharedStore } from "../../generator/runtime/store.js";
import { startRedis, type Daemon } from "../helpers/daemons.js";

let redis: Daemon;
let client: ReturnType<typeof createClient>;
let run = 0;

beforeAll(async () => {
  redis = await startRedis();
  client = createClient({ url: `redis://127.0.0.1:${redis.port}`, disableOfflineQueue: true });
  await client.connect();
}, 30_000);

afterAll(async () => {
  await client?.quit().catch(() => {});
  await redis?.stop();
});

const stores: [string, () => SharedStore][] = [
  ["memory", () => memoryStore()],
  ["redis", () => redisStore(client, { prefix: `store-test-${++run}:` })],
];

describe.each(stores)("%s store", (_name, make) => {
  it("setIfAbsent sets once; the value is read back and replaced by set", async () => {
    const store = make();
    expect(await store.setIfAbsent("a", "1", 60_000)).toBe(true);
    expect(await store.setIfAbsent("a", "2", 60_000)).toBe(false);
    expect(await store.get("a")).toBe("1");
    await store.set("a", "3", 60_000);
    expect(await store.get("a")).toBe("3");
    expect(await store.get("missing")).toBeUndefined();
  });

  it("a counter counts up within its window and says when it resets", async () => {
    const store = make();
    const first = await store.increment("c", 60_000);
    const second = await store.increment("c", 60_000);
    expect([first.count, second.count]).toEqual([1, 2]);
    expect(second.resetMs).toBeGreaterThan(0);
    expect(second.resetMs).toBeLessThanOrEqual(60_000);
  });

  it("100 concurrent setIfAbsent of one key: exactly one wins", async () => {
    const store = make();
    const wins = await Promise.all(Array.from({ length: 100 }, () => store.setIfAbsent("race", "x", 60_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});

describe("memory store: bounded and expiring", () => {
  it("keys expire with the clock, and a counter starts again after its window", async () => {
    let now = 1_000;
    const store = memoryStore({ now: () => now });
    await store.setIfAbsent("k", "v", 100);
    await store.increment("n", 100);
    now += 100;
    expect(await store.get("k")).toBeUndefined();
    expect(await store.setIfAbsent("k", "w", 100)).toBe(true);
    expect((await store.increment("n", 100)).count).toBe(1);
  });

  it("full of live keys, a write is refused (fail closed); once some expire, it is taken", async () => {
    let now = 0;
    const store = memoryStore({ maxKeys: 2, now: () => now });
    await store.setIfAbsent("a", "1", 10);
    await store.setIfAbsent("b", "1", 1_000);
    await expect(store.setIfAbsent("c", "1", 1_000)).rejects.toBeInstanceOf(StoreUnavailableError);
    now = 20;
    expect(await store.setIfAbsent("c", "1", 1_000)).toBe(true);
  });
});

describe("redis store: faults", () => {
  it("a client that never answers fails after the timeout; one that throws fails with the cause kept", async () => {
    const silent = redisStore({ sendCommand: () => new Promise<never>(() => {}) }, { timeoutMs: 50 });
    await expect(silent.setIfAbsent("k", "v", 1_000)).rejects.toThrow(/took over 50 ms/);
    const broken = redisStore({ sendCommand: () => Promise.reject(new Error("ECONNREFUSED")) });
    const failed = await silent.get("k").catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StoreUnavailableError);
    const refused = await broken.increment("k", 1_000).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "StoreUnavailableError", cause: { message: "ECONNREFUSED" } });
  });

  it("an ioredis-shaped client (call) works as well, and anything else is refused at once", async () => {
    const sent: string[][] = [];
    const ioredis = { call: async (command: string, ...args: string[]) => (sent.push([command, ...args]), "OK") };
    expect(await redisStore(ioredis, { prefix: "p:" }).setIfAbsent("k", "v", 1_500)).toBe(true);
    expect(sent).toEqual([["SET", "p:k", "v", "NX", "PX", "1500"]]);
    expect(() => redisStore({} as never)).toThrow(/needs a Redis client/);
  });

  it("keys carry the prefix, and expire in Redis itself", async () => {
    const store = redisStore(client, { prefix: "prefixed:" });
    await store.setIfAbsent("k", "v", 60_000);
    expect(await client.get("prefixed:k")).toBe("v");
    expect(await client.pTTL("prefixed:k")).toBeGreaterThan(0);
    await store.increment("n", 60_000);
    expect(await client.pTTL("prefixed:n")).toBeGreaterThan(0);
  });
});
