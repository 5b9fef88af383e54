/**
 * The failure policy, seen from a real MCP client, against handlers written
 * only against the generated API. The same cases run in process, over stdio
 * and over Streamable HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contracts, createClient } from "../../generated/index.js";
import { CRASH, DOWN, LEAKY, REJECT_SECRET, SECRET, LEAKED } from "./fixtures/chaos-handlers.js";
import { httpHarness, inMemoryHarness, stdioHarness, type Harness } from "./harness.js";
import { call, envelopeOf } from "./helpers.js";

const REQUEST_ID = "0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10";
const refund = { requestId: REQUEST_ID, orderId: "ord_1", amount: { amountCents: 100, currency: "EUR" } };

const transports: [string, () => Promise<Harness>][] = [
  ["in memory", inMemoryHarness],
  ["stdio (spawned)", stdioHarness],
  ["Streamable HTTP (spawned)", httpHarness],
];

describe.each(transports)("the failure policy over %s", (_name, start) => {
  let h: Harness;
  beforeAll(async () => { h = await start(); });
  afterAll(async () => { await h?.close(); });

  it("never lets bad input reach the handler", async () => {
    const bad: [string, Record<string, unknown>][] = [
      ["get_order", { customerId: 42 }],
      ["get_order", {}],
      ["get_order", { customerId: "cus_1", includeDeleted: true }],
      ["get_order", { customerId: "cus_1", constructor: { prototype: { polluted: true } } }],
      ["create_refund", { ...refund, requestId: "not-a-uuid" }],
      ["delete_customer", { customerId: "cus_9", confirm: false, adminToken: SECRET }],
      ["search_orders", { filter: { status: ["paid", "paid"] } }],
    ];
    const { result, calls } = await h.track(() => Promise.all(bad.map(([tool, args]) => call(h.client, tool, args))));
    expect(calls).toEqual([]);
    for (const r of result) expect(envelopeOf(r)).toMatchObject({ code: "INVALID_INPUT", attempts: 0, effect: "none", retryable: false });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("does not let a __proto__ key pollute anything", async () => {
    const args = JSON.parse('{"customerId":"cus_1","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const result = await call(h.client, "get_order", args);
    // The SDK's own request parsing drops an own __proto__ key before the server sees it,
    // so the call is served as { customerId }. Either way nothing may be polluted.
    expect(result.isError ? envelopeOf(result).code : "OK").toMatch(/^(OK|INVALID_INPUT)$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain("polluted");
  });

  it("reports an extra or missing field at its own path", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["get_order", { customerId: "cus_1", includeDeleted: true }, "includeDeleted"],
      ["get_order", { includeHistory: true }, "customerId"],
      ["create_refund", { ...refund, amount: { amountCents: 100 } }, "amount.currency"],
      ["create_refund", { ...refund, amount: { ...refund.amount, fx: 1 } }, "amount.fx"],
      ["delete_customer", { customerId: "cus_9", adminToken: SECRET }, "confirm"],
    ];
    for (const [tool, args, path] of cases) {
      const failure = envelopeOf(await call(h.client, tool, args));
      expect(failure.code).toBe("INVALID_INPUT");
      expect(failure.issues?.map((i) => i.path)).toEqual([path]);
    }
  });

  it("applies defaults before the handler runs", async () => {
    const { calls } = await h.track(async () => {
      await call(h.client, "get_order", { customerId: "cus_1" });
      await call(h.client, "search_orders", { filter: { customerId: "cus_1" } });
      await call(h.client, "create_refund", refund);
    });
    expect(calls.map((c) => [c.tool, c.seen])).toEqual([
      ["get_order", { customerId: "cus_1", includeHistory: false }],
      ["search_orders", { limit: 20, cursor: null }],
      ["create_refund", { reason: "requested_by_customer", note: null, key: REQUEST_ID }],
    ]);
  });

  it("retries a transient failure on a read exactly up to the policy", async () => {
    const policy = contracts.get_order.retry.attempts;
    expect(policy).toBe(3);
    const { result, calls } = await h.track(() => call(h.client, "get_order", { customerId: DOWN }));
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(envelopeOf(result)).toMatchObject({ code: "RETRYABLE", retryable: true, effect: "none", attempts: policy });
  });

  it("runs a destructive handler once on a transient failure and reports effect unknown", async () => {
    const args = { customerId: DOWN, confirm: true, adminToken: SECRET };
    const { result, calls } = await h.track(() => call(h.client, "delete_customer", args));
    expect(calls).toHaveLength(1);
    expect(envelopeOf(result)).toMatchObject({ code: "FAILED", retryable: false, effect: "unknown", attempts: 1 });
  });

  it("carries a rejection's declared reason", async () => {
    const blocked = envelopeOf(await call(h.client, "get_order", { customerId: "cus_blocked" }));
    expect(blocked).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED", retryable: false, effect: "none" });
    const typed = await createClient(h.client).delete_customer({ customerId: "cus_2", confirm: true, adminToken: SECRET });
    expect(typed).toMatchObject({ ok: false, code: "REJECTED", reason: "HAS_OPEN_ORDERS" });
  });

  it("never lets an undeclared output field leave the server", async () => {
    const result = await call(h.client, "get_order", { customerId: LEAKY });
    expect(envelopeOf(result)).toMatchObject({ code: "INVALID_OUTPUT", retryable: false });
    expect(JSON.stringify(result)).not.toContain(LEAKED);
    expect(JSON.stringify(result)).not.toContain("internalNote");
    expect(await createClient(h.client).get_order({ customerId: LEAKY })).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });

  it("never shows a secret in any failure, response or trace", async () => {
    const base = { confirm: true, adminToken: SECRET } as const;
    const failing: Record<string, unknown>[] = [
      { ...base, customerId: DOWN }, // TransientError quoting the token
      { ...base, customerId: CRASH }, // plain Error quoting the token
      { ...base, customerId: REJECT_SECRET }, // ctx.reject quoting the token
      { ...base, customerId: "cus_9", extra: SECRET }, // invalid, the secret elsewhere too
      { ...base, customerId: "", confirm: false }, // invalid, the token valid
      { customerId: "cus_9", confirm: true, adminToken: "short" }, // the token itself invalid
    ];
    const results = await Promise.all(failing.map((args) => call(h.client, "delete_customer", args)));
    const codes = results.map((r) => envelopeOf(r).code);
    expect(codes).toEqual(["FAILED", "FAILED", "REJECTED", "INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT"]);
    // The handlers did put the token in their messages; the runtime removed it.
    expect(envelopeOf(results[0]).message).toContain("[REDACTED]");
    expect(envelopeOf(results[2]).message).toContain("[REDACTED]");
    for (const r of results) expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(JSON.stringify(results[5])).not.toContain('"short"');
    expect(h.serverLog()).toContain("[REDACTED]");
    expect(h.serverLog()).not.toContain(SECRET);
  });
});
