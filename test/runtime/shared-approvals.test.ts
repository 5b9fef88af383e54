/**
 * Approvals of confirmed calls through the shared store (runtime/confirm.ts,
 * runtime/store.ts), on the generated SDK 2.x runtime: two HTTP handlers in
 * this process stand for two instances with one store and one key. An
 * approval asked through one and answered through the other runs once; a
 * replay through either is refused; a configuration that would share a
 * store without the key stops at start-up; a store that fails or hangs
 * refuses the call as RETRYABLE, nothing run, and tells only the operator
 * why. (The same with a real redis-server behind haproxy: test/e2e/scale-out.test.ts.)
 */
import { once } from "node:events";
import { createServer, type RequestListener, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createToolHttpHandler } from "../../generated/runtime/http.js";
import { createToolServer, type ServerOptions } from "../../generated/runtime/server.js";
import { memoryStore, type SharedStore } from "../../generated/runtime/store.js";
import type { TraceEvent } from "../../generated/runtime/types.js";
import { final, modernRequest } from "../e2e/rpc.js";
import { defineContract } from "./fixtures.js";

const REASONS = { CONFIRMATION_DECLINED: "declined", CONFIRMATION_INVALID: "invalid", CONFIRMATION_UNAVAILABLE: "unavailable" };
const wipe = {
  ...defineContract<{ id: string }, { id: string }, { wiped: string }, keyof typeof REASONS>({
    name: "wipe",
    effect: "destructive",
    timeoutMs: 300,
    errors: REASONS,
    input: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
    output: { type: "object", properties: { wiped: { type: "string" } }, required: ["wiped"], additionalProperties: false },
  }),
  confirm: true as const,
};
const contracts = { wipe };
const SECRET = "a shared secret of more than thirty-two bytes";
const FORM = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

/** A memory store standing for one every instance shares (a redisStore, in production): the two instances here are in one process. */
const sharedStore = (): SharedStore => ({ ...memoryStore(), local: false });

const servers: HttpServer[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** One instance: its own options object and handler, on a loopback port; `ran` records each run of the handler. */
async function instance(options: ServerOptions, ran: string[]): Promise<URL> {
  const handler = createToolHttpHandler(() => createToolServer(contracts, { wipe: (input) => (ran.push(input.id), { wiped: input.id }) }, options));
  const server = createServer(handler as RequestListener);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

async function call(url: URL, id: string, requestState?: string): Promise<Record<string, unknown>> {
  const params = { name: "wipe", arguments: { id }, ...(requestState === undefined ? {} : { inputResponses: ACCEPT, requestState }) };
  const response = final(await modernRequest(url, "tools/call", params, { meta: FORM }));
  return response["result"] as Record<string, unknown>;
}

const stateOf = (result: Record<string, unknown>): string => {
  expect(result["resultType"]).toBe("input_required");
  return result["requestState"] as string;
};
const failureOf = (result: Record<string, unknown>) => (result["_meta"] as Record<string, unknown>)["toolc/failure"];

describe("two instances, one store, one key", () => {
  it("asked through one and answered through the other runs once; the replay through either is refused", async () => {
    const store = sharedStore();
    const ran: string[] = [];
    const a = await instance({ store, confirm: { secret: SECRET }, instances: 2 }, ran);
    const b = await instance({ store, confirm: { secret: SECRET }, instances: 2 }, ran);
    const state = stateOf(await call(a, "rec_1"));
    expect((await call(b, "rec_1", state))["structuredContent"]).toEqual({ wiped: "rec_1" });
    for (const url of [a, b]) expect(failureOf(await call(url, "rec_1", state))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_INVALID", message: expect.stringContaining("already used") });
    expect(ran).toEqual(["rec_1"]);
  });

  it("with a store each (what the default would give two processes), the same replay runs twice: why the store is shared", async () => {
    const ran: string[] = [];
    const a = await instance({ store: memoryStore(), confirm: { secret: SECRET } }, ran);
    const b = await instance({ store: memoryStore(), confirm: { secret: SECRET } }, ran);
    const state = stateOf(await call(a, "rec_2"));
    await call(a, "rec_2", state);
    await call(b, "rec_2", state);
    expect(ran).toEqual(["rec_2", "rec_2"]);
  });
});

describe("configuration that cannot be half right", () => {
  it("a shared store, or more than one instance, without a shared key stops the start-up with a clear message and no stack frames", () => {
    const start = (options: ServerOptions) => () => createToolHttpHandler(() => createToolServer(contracts, { wipe: () => ({ wiped: "" }) }, options));
    for (const options of [{ store: sharedStore() }, { store: sharedStore(), instances: 3 }]) {
      const error = (() => {
        try {
          start(options)();
        } catch (e) {
          return e as Error;
        }
        throw new Error("no error");
      })();
      expect(error).toMatchObject({ name: "ConfigurationError", message: expect.stringContaining("no `confirm.secret`") });
      expect(error.stack).not.toMatch(/\n\s+at /);
    }
    expect(start({ instances: 2, confirm: { secret: SECRET } })).toThrow(/configured for 2 instances but has no shared store/);
    // A memory store is this process's alone, so it shares nothing with a second instance.
    expect(start({ store: memoryStore(), confirm: { secret: SECRET }, instances: 2 })).toThrow(/configured for 2 instances but has no shared store/);
    expect(start({ store: sharedStore(), confirm: { secret: SECRET }, instances: 2 })).not.toThrow();
    // A memory store on one instance shares nothing, so the process's own key serves.
    expect(start({ store: memoryStore() })).not.toThrow();
    // A server without a confirmed tool signs nothing, so it needs no key.
    expect(() => createToolHttpHandler(() => createToolServer({}, {}, { store: memoryStore() }))).not.toThrow();
  });
});

describe("a store that is down or slow refuses confirmed calls", () => {
  const failing = (fault: "down" | "slow"): SharedStore => {
    const store = memoryStore();
    return {
      ...store,
      setIfAbsent: () => (fault === "down" ? Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")) : new Promise<never>(() => {})),
    };
  };

  it.each(["down", "slow"] as const)("%s: RETRYABLE, effect none, nothing run; the operator's trace says why, the caller is told nothing of it", async (fault) => {
    const ran: string[] = [];
    const traces: TraceEvent[] = [];
    const url = await instance({ store: failing(fault), confirm: { secret: SECRET }, onTrace: (event) => traces.push(event) }, ran);
    const state = stateOf(await call(url, "rec_3"));
    const result = await call(url, "rec_3", state);
    expect(failureOf(result)).toMatchObject({ code: "RETRYABLE", retryable: true, effect: "none", attempts: 0 });
    expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED|6379|took over|store/i);
    expect(ran).toEqual([]);
    const refusal = traces.find((event) => event.reason === "STORE_UNAVAILABLE");
    expect(refusal).toMatchObject({ tool: "wipe", code: "RETRYABLE", effect: "none", attempt: 0 });
    expect(String((refusal?.error as Error).message)).toMatch(fault === "down" ? /ECONNREFUSED/ : /took over 300 ms/);
  });

  it("the same answer, sent again once the store is back, runs once", async () => {
    const ran: string[] = [];
    const store = memoryStore();
    let down = true;
    const flaky: SharedStore = { ...store, setIfAbsent: (...args) => (down ? Promise.reject(new Error("down")) : store.setIfAbsent(...args)) };
    const url = await instance({ store: flaky, confirm: { secret: SECRET } }, ran);
    const state = stateOf(await call(url, "rec_4"));
    expect(failureOf(await call(url, "rec_4", state))).toMatchObject({ code: "RETRYABLE" });
    down = false;
    expect((await call(url, "rec_4", state))["structuredContent"]).toEqual({ wiped: "rec_4" });
    expect(failureOf(await call(url, "rec_4", state))).toMatchObject({ reason: "CONFIRMATION_INVALID" });
    expect(ran).toEqual(["rec_4"]);
  });
});
