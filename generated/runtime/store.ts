// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What instances of one server must share, behind one small interface: a
 * set-if-absent with expiry (approvals used once, runtime/confirm.ts),
 * counters with expiry (rate limits, runtime/rate-limit.ts), and get/set
 * with expiry. `memoryStore` serves stdio and a single instance; behind a
 * load balancer every instance is given the same `redisStore`, over a
 * Redis-protocol server (Redis, Valkey, managed services that speak it).
 *
 * The Redis client is the application's own: toolc imports no Redis
 * package. `redisStore` takes any client that sends a raw command, typed by
 * its shape alone, so the generated code compiles with no Redis package
 * installed. With `redis` (node-redis 4 and later):
 *
 *     import { createClient } from "redis";
 *     const client = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 *     await client.connect();
 *     const store = redisStore(client, { prefix: "orders-mcp:" });
 *
 * `ioredis` works too (`new Redis(url)`: its `call` is used). Every
 * operation gives up after `timeoutMs` and rejects, so a store that is down
 * or slow is a refusal the caller can retry, never a call run unchecked.
 */

/** A store every instance of a server shares. Every operation rejects when the store cannot answer in time. */
export interface SharedStore {
  /** True for a store in one process (memoryStore): more than one instance with it is a start-up error. */
  readonly local?: boolean;
  /** Sets `key` to `value` for `ttlMs` unless it is already set; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Adds one to the counter at `key`, which starts at 0 and expires
   * `windowMs` after its first increment: the count after this one, and the
   * milliseconds until the counter expires.
   */
  increment(
    key: string,
    windowMs: number,
  ): Promise<{ count: number; resetMs: number }>;
  /** The value at `key`; undefined when unset or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key` to `value` for `ttlMs`, whatever it was. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** Why a store operation failed; `cause` is for the operator's trace, never for a caller. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

export interface MemoryStoreOptions {
  /** Keys held at once; past it, expired keys are dropped, and when none have, a write rejects (fail closed). Default 100,000. */
  maxKeys?: number;
  /** The clock, in milliseconds; default Date.now. */
  now?: () => number;
}

const DEFAULT_MAX_KEYS = 100_000;

/**
 * A store in this process: bounded and expiring. It serves stdio and one
 * HTTP instance; two instances with a memory store each share nothing.
 */
export function memoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: string; until: number }>();
  const live = (key: string): { value: string; until: number } | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now()) return entry;
    entries.delete(key);
    return undefined;
  };
  /** Room for one more key: expired ones are dropped first; with none to drop, the write is refused. */
  const room = (key: string): void => {
    if (entries.has(key) || entries.size < maxKeys) return;
    const at = now();
    for (const [k, entry] of entries) if (entry.until <= at) entries.delete(k);
    if (entries.size >= maxKeys)
      throw new StoreUnavailableError(
        `the memory store holds ${maxKeys} keys, none expired`,
      );
  };
  return {
    local: true,
    async setIfAbsent(key, value, ttlMs) {
      if (live(key) !== undefined) return false;
      room(key);
      entries.set(key, { value, until: now() + ttlMs });
      return true;
    },
    async increment(key, windowMs) {
      const entry = live(key);
      if (entry === undefined) {
        room(key);
        entries.set(key, { value: "1", until: now() + windowMs });
        return { count: 1, resetMs: windowMs };
      }
      const count = Number(entry.value) + 1;
      entry.value = String(count);
      return { count, resetMs: Math.max(0, entry.until - now()) };
    },
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      room(key);
      entries.set(key, { value, until: now() + ttlMs });
    },
  };
}

/** node-redis (`createClient()` from `redis`, 4.x and later): the one method used. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}
/** ioredis (`new Redis()`): the one method used. */
export interface IoRedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Put before every key, so that servers sharing one Redis keep apart. Default "toolc:". */
  prefix?: string;
  /** How long one operation may take before it counts as failed, in milliseconds. Default 1,000. */
  timeoutMs?: number;
}

/**
 * The counter's increment and expiry in one step: a counter never outlives
 * its window, even when its first increment and the expiry would otherwise
 * be split by a crash.
 */
const INCREMENT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

const DEFAULT_TIMEOUT_MS = 1_000;

/** `promise`, or a rejection once `ms` have passed: a slow store fails like a down one. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`${what} took over ${ms} ms`)),
      ms,
    );
  });
  // Workers type clearTimeout's argument as `number | null`: no undefined.
  return Promise.race([promise, late]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/** Milliseconds as Redis takes them: a whole number of at least 1. */
const millis = (ms: number): string => String(Math.max(1, Math.ceil(ms)));

/**
 * A store on a Redis-protocol server, through the application's client.
 * Keys are `prefix` + the key; every operation rejects after `timeoutMs`.
 */
export function redisStore(
  client: NodeRedisLike | IoRedisLike,
  options: RedisStoreOptions = {},
): SharedStore {
  const prefix = options.prefix ?? "toolc:";
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const send =
    "sendCommand" in client && typeof client.sendCommand === "function"
      ? (args: string[]) => client.sendCommand(args)
      : "call" in client && typeof client.call === "function"
        ? (args: string[]) => client.call(args[0] ?? "", ...args.slice(1))
        : undefined;
  if (send === undefined)
    throw new TypeError(
      "redisStore needs a Redis client: createClient() from `redis`, or an ioredis client",
    );
  const command = async (args: string[]): Promise<unknown> => {
    try {
      return await withTimeout(
        Promise.resolve().then(() => send(args)),
        timeoutMs,
        `Redis ${args[0]}`,
      );
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(`Redis ${args[0]} failed`, {
        cause: error,
      });
    }
  };
  return {
    async setIfAbsent(key, value, ttlMs) {
      const reply = await command([
        "SET",
        prefix + key,
        value,
        "NX",
        "PX",
        millis(ttlMs),
      ]);
      return reply === "OK";
    },
    async increment(key, windowMs) {
      const reply = await command([
        "EVAL",
        INCREMENT_SCRIPT,
        "1",
        prefix + key,
        millis(windowMs),
      ]);
      if (!Array.isArray(reply) || reply.length !== 2)
        throw new StoreUnavailableError("Redis EVAL gave an unexpected reply");
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
    async get(key) {
      const reply = await command(["GET", prefix + key]);
      if (reply === null || reply === undefined) return undefined;
      return typeof reply === "string" ? reply : String(reply);
    },
    async set(key, value, ttlMs) {
      await command(["SET", prefix + key, value, "PX", millis(ttlMs)]);
    },
  };
}
