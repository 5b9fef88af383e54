/**
 * Transient failures and timeouts: retried exactly as the policy allows on
 * safe tools, never on unsafe writes. A fake service records every effect, and
 * an injected sleep records every backoff delay, so nothing depends on timing.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "../../generator/runtime/executor.js";
import { backoffDelay } from "../../generator/runtime/policy.js";
import type { ExecuteOptions, TraceEvent } from "../../generator/runtime/types.js";
import { chargeCard, defineContract, deleteOrder, FakeOrders, getOrder, makeHandlers, TransientError } from "./fixtures.js";

function harness(random = 0.5) {
  const service = new FakeOrders();
  const delays: number[] = [];
  const events: TraceEvent[] = [];
  const options: ExecuteOptions = {
    onTrace: (e) => events.push(e),
    random: () => random,
    sleep: async (ms) => { delays.push(ms); },
  };
  return { service, handlers: makeHandlers(service), delays, events, options };
}

const unavailable = () => new TransientError("orders service unavailable");

describe("transient failure on an idempotent read", () => {
  it("gives each retry a fresh copy of the input, with defaults applied, whatever the last attempt did to its own", async () => {
    const { options } = harness();
    const seen: unknown[] = [];
    const caller = { customerId: "c" };
    const result = await executeTool(getOrder, caller, (input: Record<string, unknown>, ctx) => {
      seen.push(structuredClone(input));
      input.customerId = "mutated";
      delete input.includeHistory;
      if (ctx.attempt === 1) throw unavailable();
      return { found: false, customerId: "c", orders: [] };
    }, options);
    expect(result.ok).toBe(true);
    expect(seen).toEqual([
      { customerId: "c", includeHistory: false },
      { customerId: "c", includeHistory: false },
    ]);
    expect(caller).toEqual({ customerId: "c" });
  });

  it("retries up to retry.attempts, then returns RETRYABLE", async () => {
    const { service, handlers, delays, events, options } = harness();
    service.failures = [unavailable(), unavailable(), unavailable(), unavailable()];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, options);
    expect(result).toEqual({
      ok: false,
      code: "RETRYABLE",
      message: "The tool failed temporarily: orders service unavailable.",
      retryable: true,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 3,
    });
    expect(service.calls).toHaveLength(3);
    expect(delays).toEqual([5, 10]); // 0.5 × 10·2⁰, 0.5 × 10·2¹
    expect(events.map((e) => [e.attempt, e.code])).toEqual([[1, "RETRYABLE"], [2, "RETRYABLE"], [3, "RETRYABLE"]]);
  });

  it("returns the data when a retry succeeds", async () => {
    const { service, handlers, events, options } = harness();
    service.failures = [unavailable()];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, options);
    expect(result).toMatchObject({ ok: true, data: { found: true } });
    expect(events.map((e) => e.code)).toEqual(["RETRYABLE", "OK"]);
    expect(service.calls).toHaveLength(2);
  });

  it("passes the attempt number to the handler", async () => {
    const seen: number[] = [];
    const result = await executeTool(getOrder, { customerId: "c" }, (_i, ctx) => { seen.push(ctx.attempt); throw unavailable(); }, harness().options);
    expect(result).toMatchObject({ attempts: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });
});

describe("transient failure on a non-idempotent write without a key", () => {
  it("runs the handler once and returns FAILED with effect unknown", async () => {
    const { service, handlers, delays, options } = harness();
    service.failures = [unavailable(), unavailable()];
    const result = await executeTool(deleteOrder, { orderId: "o1" }, handlers.delete_order, options);
    expect(result).toMatchObject({ ok: false, code: "FAILED", retryable: false, effect: "unknown", attempts: 1 });
    expect(service.deleted).toEqual(["o1"]);
    expect(delays).toEqual([]);
  });

  it("does the same on a timeout", async () => {
    const { service, handlers, options } = harness();
    service.failures = ["hang"];
    const result = await executeTool(deleteOrder, { orderId: "o1" }, handlers.delete_order, options);
    expect(result).toMatchObject({ code: "FAILED", effect: "unknown", attempts: 1, message: expect.stringContaining("timed out") });
    expect(service.deleted).toEqual(["o1"]);
  });
});

describe("a write with an idempotency key", () => {
  it("is retried with the same key, so the charge is applied once", async () => {
    const { service, handlers, options } = harness();
    service.failures = [unavailable(), unavailable(), unavailable()];
    const input = { requestId: "req_1", amountCents: 500, card: { number: "4242", cvc: "123" } };
    const result = await executeTool(chargeCard, input, handlers.charge_card, options);
    expect(result).toMatchObject({ code: "RETRYABLE", retryable: true, effect: "unknown", attempts: 3 });
    expect(service.calls).toEqual(["charge:req_1", "charge:req_1", "charge:req_1"]);
    expect([...service.charges]).toEqual([["req_1", 500]]);
  });
});

describe("timeouts through ctx.signal", () => {
  it("aborts ctx.signal at timeoutMs and retries a read", async () => {
    const { service, handlers, events, options } = harness();
    service.failures = ["hang", "hang", "hang"];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, options);
    expect(result).toMatchObject({ code: "RETRYABLE", attempts: 3, message: "The tool timed out after 50 ms." });
    expect(events.map((e) => (e.error as Error).name)).toEqual(["TimeoutError", "TimeoutError", "TimeoutError"]);
  });

  it("stops waiting at the timeout even if the handler ignores the signal", async () => {
    let aborted: boolean | undefined;
    const contract = defineContract<object, object, object>({ name: "slow", effect: "read", timeoutMs: 20, input: { type: "object" }, output: { type: "object" } });
    const result = await executeTool(contract, {}, async (_i, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
      aborted = ctx.signal.aborted;
      return {};
    });
    expect(result).toMatchObject({ code: "RETRYABLE", attempts: 1 });
    expect(aborted).toBeUndefined();
  });
});

describe("classify", () => {
  class HttpError extends Error {
    constructor(readonly status: number) { super(`HTTP ${status}`); }
  }
  const classify: ExecuteOptions["classify"] = (e) => (e instanceof HttpError && e.status === 503 ? "transient" : e instanceof HttpError && e.status === 429 ? { transient: true, retryAfterMs: 30 } : undefined);

  it("maps the user's own errors to transient, with Retry-After", async () => {
    const { service, handlers, delays, options } = harness();
    service.failures = [new HttpError(503), new HttpError(429)];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, { ...options, classify });
    expect(result.ok).toBe(true);
    expect(delays).toEqual([5, 30]);
  });

  it("keeps the raw error out of the envelope", async () => {
    const { service, handlers, options } = harness();
    service.failures = [new HttpError(503), new HttpError(503), new HttpError(503)];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, { ...options, classify });
    expect(result).toMatchObject({ code: "RETRYABLE", message: "The tool failed temporarily." });
  });

  it("can declare a TransientError failed", async () => {
    const { service, handlers, options } = harness();
    service.failures = [unavailable()];
    const result = await executeTool(getOrder, { customerId: "c" }, handlers.get_order, { ...options, classify: () => "failed" });
    expect(result).toMatchObject({ code: "FAILED", attempts: 1, message: "The tool failed unexpectedly." });
  });
});

describe("backoff and budget", () => {
  const policy = { attempts: 10, backoffMs: 100, maxBackoffMs: 1000, budgetMs: 10_000 };

  it("is full-jitter exponential, capped", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(policy, n, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
    expect(backoffDelay(policy, 1, () => 0.5, 700)).toBe(700);
    expect(backoffDelay(policy, 1, () => 0.5, 60_000)).toBe(1000);
  });

  it("never plans delays beyond retry.budgetMs", async () => {
    const contract = defineContract<object, object, object>({
      name: "budgeted",
      effect: "read",
      retry: { attempts: 10, backoffMs: 1000, maxBackoffMs: 5000, budgetMs: 2500 },
      input: { type: "object" },
      output: { type: "object" },
    });
    const { delays, options } = harness(0.999);
    let calls = 0;
    const result = await executeTool(contract, {}, () => { calls++; throw unavailable(); }, options);
    // 999 fits; 999 + 1998 would not.
    expect(delays).toEqual([999]);
    expect(calls).toBe(2);
    expect(result).toMatchObject({ code: "RETRYABLE", retryable: true, attempts: 2 });
  });
});

describe("caller cancellation", () => {
  it("aborts ctx.signal and makes no further attempts", async () => {
    const controller = new AbortController();
    const { options } = harness();
    let calls = 0;
    const result = await executeTool(getOrder, { customerId: "c" }, async (_i, ctx) => {
      calls++;
      setTimeout(() => controller.abort(new Error("user pressed stop")), 1);
      await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted"))));
      return null as never;
    }, { ...options, signal: controller.signal });
    expect(result).toMatchObject({ code: "FAILED", message: "The call was cancelled.", retryable: false, attempts: 1 });
    expect(calls).toBe(1);
  });

  it("makes no attempt when already cancelled", async () => {
    const events: TraceEvent[] = [];
    const signal = AbortSignal.abort();
    const result = await executeTool(getOrder, { customerId: "c" }, () => { throw new Error("must not run"); }, { signal, onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ code: "FAILED", attempts: 0, effect: "none" });
    expect(events).toEqual([expect.objectContaining({ attempt: 0, code: "FAILED", error: signal.reason })]);
  });
});
