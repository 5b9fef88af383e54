/**
 * The failure table, row by row, through executeTool with real validators.
 * Retries and timeouts are in retry.test.ts; secrets in redact.test.ts.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "../../generator/runtime/executor.js";
import type { ToolValidators } from "../../generator/runtime/contract.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { chargeCard, defineContract, deleteOrder, FakeOrders, getOrder, makeHandlers, tagResource } from "./fixtures.js";

function setup() {
  const service = new FakeOrders();
  const handlers = makeHandlers(service);
  const events: TraceEvent[] = [];
  return { service, handlers, events, onTrace: (e: TraceEvent) => events.push(e) };
}

describe("INVALID_INPUT", () => {
  it("reports every issue at the field to fix and never calls the handler", async () => {
    const { service, handlers, events, onTrace } = setup();
    const result = await executeTool(getOrder, { customerId: 42, extra: true }, handlers.get_order, { onTrace });
    expect(result).toEqual({
      ok: false,
      code: "INVALID_INPUT",
      message: expect.any(String),
      issues: [
        { path: "extra", message: "is not an allowed property" },
        { path: "customerId", message: "must be string" },
      ],
      retryable: false,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 0,
    });
    expect(service.calls).toEqual([]);
    expect(events).toEqual([expect.objectContaining({ attempt: 0, code: "INVALID_INPUT", issuePaths: ["extra", "customerId"] })]);
  });

  it("names a missing nested property at its own path", async () => {
    const result = await executeTool(chargeCard, { requestId: "r1", amountCents: 5, card: { number: "4242" } }, makeHandlers(new FakeOrders()).charge_card);
    expect(result.ok === false && result.issues).toEqual([{ path: "card.cvc", message: "is required" }]);
  });

  it.each([
    ["a function", { customerId: () => "x" }, "customerId"],
    ["a Date", { customerId: new Date(0) }, "customerId"],
    ["NaN", { customerId: "c", includeHistory: Number.NaN }, "includeHistory"],
    ["a non-object root", undefined, ""],
  ])("rejects %s as not plain JSON, at the root, without throwing", async (_label, input, where) => {
    const result = await executeTool(getOrder, input, makeHandlers(new FakeOrders()).get_order);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("INVALID_INPUT");
    expect(result.issues?.[0]?.path).toBe("");
    expect(result.issues?.[0]?.message).toContain(where === "" ? "must be" : `at ${where}`);
  });

  it("rejects a cycle instead of recursing forever", async () => {
    const input: Record<string, unknown> = { customerId: "c" };
    input.self = input;
    const result = await executeTool(getOrder, input, makeHandlers(new FakeOrders()).get_order);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "", message: expect.stringContaining("circular reference at self") }] });
  });

  it("survives input whose property reads throw", async () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error("boom"); } });
    const result = await executeTool(getOrder, hostile, makeHandlers(new FakeOrders()).get_order);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
  });
});

describe("defaults and the caller's object", () => {
  it("applies defaults for the handler and leaves the caller's input untouched", async () => {
    const { service, handlers } = setup();
    const input = { customerId: "cus_1" };
    const result = await executeTool(getOrder, input, handlers.get_order);
    expect(result.ok).toBe(true);
    expect(service.calls).toEqual(["get:cus_1:false"]);
    expect(input).toEqual({ customerId: "cus_1" });
  });

  it("returns a copy of the handler's output, the very value it validated, which later changes to the handler's object do not reach", async () => {
    const output = { count: 1 };
    const result = await executeTool(tagResource, { tags: { a: "b" } }, () => output);
    expect(result).toEqual({ ok: true, data: { count: 1 } });
    expect(result.ok && result.data).not.toBe(output);
    output.count = 2;
    expect(result.ok && result.data.count).toBe(1);
  });
});

describe("one call's data as the next call's input", () => {
  const echo = defineContract<object, object, Record<string, unknown>>({
    name: "echo",
    effect: "read",
    input: { type: "object" },
    output: { type: "object", additionalProperties: true },
  });

  it("is plain JSON data: a copy is accepted where the caller's own objects are", async () => {
    const first = await executeTool(echo, { a: { b: [1, { c: "d" }] } }, (input) => input as Record<string, unknown>);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const second = await executeTool(echo, first.data, (input) => input as Record<string, unknown>);
    expect(second).toEqual({ ok: true, data: { a: { b: [1, { c: "d" }] } } });
  });
});

describe("output that is not plain JSON, checked in place", () => {
  const openOutput = defineContract<object, object, Record<string, unknown>>({
    name: "open_output",
    effect: "read",
    input: { type: "object" },
    output: { type: "object", additionalProperties: true },
  });
  class Counter {
    get count(): number {
      return 1;
    }
  }
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;

  it.each([
    ["a Date where the schema is open", openOutput, { when: new Date(0) }, "an instance of Date at when"],
    ["a Map nested in an array", openOutput, { list: [1, new Map()] }, "an instance of Map at list[1]"],
    ["a function", openOutput, { f: () => 1 }, "a function at f"],
    ["NaN", openOutput, { n: Number.NaN }, "a non-finite number at n"],
    ["a cycle", openOutput, circular, "a circular reference at self"],
    ["a class instance whose getter satisfies a closed schema", tagResource, new Counter(), "an instance of Counter"],
  ])("rejects %s as INVALID_OUTPUT, saying why in the trace", async (_label, contract, output, why) => {
    const events: TraceEvent[] = [];
    const input = contract === tagResource ? { tags: {} } : {};
    const result = await executeTool(contract as typeof openOutput, input, () => output as never, { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(events.at(-1)?.outputIssues).toEqual([{ path: "", message: `must be plain JSON data, but has ${why}` }]);
  });
});

describe("__proto__ in JSON input", () => {
  it("is an extra property at path __proto__ on a closed object, and pollutes nothing", async () => {
    const { service, handlers } = setup();
    const raw: unknown = JSON.parse('{"customerId":"cus_1","__proto__":{"polluted":true,"includeHistory":true}}');
    const result = await executeTool(getOrder, raw, handlers.get_order);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "__proto__", message: "is not an allowed property" }] });
    expect(service.calls).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reaches a handler of an open object only as an own data key, never as the prototype", async () => {
    let seen: Record<string, string> | undefined;
    const raw: unknown = JSON.parse('{"tags":{"__proto__":{"polluted":"yes"},"a":"b"}}');
    const result = await executeTool(tagResource, raw, (input) => {
      seen = input.tags;
      return { count: Object.keys(input.tags).length };
    });
    // additionalProperties must be strings, so the object-valued __proto__ key is itself invalid.
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "tags.__proto__" }] });
    expect(seen).toBeUndefined();

    const ok = await executeTool(tagResource, JSON.parse('{"tags":{"__proto__":"x","a":"b"}}'), (input) => {
      seen = input.tags;
      return { count: Object.keys(input.tags).length };
    });
    expect(ok).toEqual({ ok: true, data: { count: 2 } });
    // The copy has no prototype at all: every key in it is an own data key.
    expect(Object.getPrototypeOf(seen)).toBe(null);
    expect(Object.hasOwn(seen ?? {}, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("INVALID_OUTPUT", () => {
  it("never returns output with an undeclared field; details go to the trace only", async () => {
    const { events, onTrace } = setup();
    const leaky = async () => ({ found: true, customerId: "c", orders: [{ id: "o", status: "shipped" }], internalNote: "x" }) as never;
    const result = await executeTool(getOrder, { customerId: "c" }, leaky, { onTrace });
    expect(result).toEqual({
      ok: false,
      code: "INVALID_OUTPUT",
      message: expect.any(String),
      retryable: false,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 1,
    });
    expect(JSON.stringify(result)).not.toContain("internalNote");
    expect(events).toHaveLength(1);
    expect(events[0].outputIssues).toEqual([
      { path: "internalNote", message: "is not an allowed property" },
      { path: "orders[0].status", message: 'must be one of: "paid", "open", "refunded"' },
    ]);
    expect(events[0].issuePaths).toEqual(["internalNote", "orders[0].status"]);
  });

  it("says a write was applied, since the handler finished", async () => {
    const result = await executeTool(deleteOrder, { orderId: "o1" }, () => ({ deleted: "yes" }) as never);
    expect(result).toMatchObject({ code: "INVALID_OUTPUT", effect: "applied", retryable: false });
  });

  it("rejects output that is not plain JSON", async () => {
    const result = await executeTool(tagResource, { tags: {} }, () => ({ count: 1n }) as never);
    expect(result).toMatchObject({ code: "INVALID_OUTPUT" });
  });
});

describe("an output whose root is not an object", () => {
  type Member = { id: string; pin: string };
  const listMembers = defineContract<{ team: string }, { team: string }, Member[]>({
    name: "list_members",
    effect: "read",
    input: { type: "object", properties: { team: { type: "string" } }, required: ["team"], additionalProperties: false },
    output: { type: "array", items: { type: "object", properties: { id: { type: "string" }, pin: { type: "string", "x-sensitive": true } }, required: ["id", "pin"], additionalProperties: false } },
  });
  const headline = defineContract<{ text: string }, { text: string }, string | null>({
    name: "headline",
    effect: "read",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    output: { type: ["string", "null"], maxLength: 5 },
  });

  it.each([
    ["an array", listMembers, [{ id: "m1", pin: "1234" }]],
    ["an empty array", listMembers, []],
    ["a string", headline, "short"],
    ["null", headline, null],
  ] as const)("returns %s as data, a copy of it", async (_name, contract, value) => {
    const result = await executeTool(contract as never, contract === headline ? { text: "t" } : { team: "t" }, (() => value) as never);
    expect(result).toEqual({ ok: true, data: value });
    if (typeof value === "object" && value !== null) expect((result as { data: unknown }).data).not.toBe(value);
  });

  it("fails a wrong value at the item to fix, in the trace only, and never lets a secret in it out", async () => {
    const { events, onTrace } = setup();
    const result = await executeTool(listMembers, { team: "t" }, () => [{ id: "m1", pin: "9876", note: "x" }, { id: 2 }] as never, { onTrace });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false, attempts: 1 });
    expect(events[0]?.issuePaths).toEqual(["[0].note", "[1].pin", "[1].id"]);
    expect(JSON.stringify([result, events])).not.toContain("9876");
  });

  it("fails a scalar of the wrong type or length at the root", async () => {
    const { events, onTrace } = setup();
    for (const value of [42, "too long"]) expect(await executeTool(headline, { text: "t" }, () => value as never, { onTrace })).toMatchObject({ code: "INVALID_OUTPUT" });
    expect(events.map((e) => e.issuePaths)).toEqual([[""], [""]]);
  });
});

describe("REJECTED", () => {
  it("carries the declared reason and the handler's message", async () => {
    const result = await executeTool(getOrder, { customerId: "cus_blocked" }, makeHandlers(new FakeOrders()).get_order);
    expect(result).toEqual({
      ok: false,
      code: "REJECTED",
      message: "Customer is blocked",
      reason: "CUSTOMER_BLOCKED",
      retryable: false,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 1,
    });
  });

  it("falls back to the reason's description when no message is given", async () => {
    const result = await executeTool(deleteOrder, { orderId: "o" }, (_input, ctx) => ctx.reject("ORDER_LOCKED"));
    expect(result).toMatchObject({ code: "REJECTED", reason: "ORDER_LOCKED", message: "The order is locked." });
  });

  it("turns a reason the contract does not declare into FAILED", async () => {
    const result = await executeTool(deleteOrder, { orderId: "o" }, (_input, ctx) => ctx.reject("MADE_UP" as "ORDER_LOCKED"));
    expect(result).toMatchObject({ code: "FAILED", retryable: false });
    expect(result.ok === false && result.reason).toBeUndefined();
  });
});

describe("FAILED: anything else thrown", () => {
  it("uses a generic message; the raw error is only in the trace", async () => {
    const { events, onTrace } = setup();
    const boom = new Error("db password is hunter2");
    const result = await executeTool(getOrder, { customerId: "c" }, () => { throw boom; }, { onTrace });
    expect(result).toEqual({
      ok: false,
      code: "FAILED",
      message: "The tool failed unexpectedly.",
      retryable: false,
      effect: "none",
      tool: "get_order",
      version: 2,
      attempts: 1,
    });
    expect(events.map((e) => [e.code, e.error])).toEqual([["FAILED", boom]]);
  });

  it("reports effect unknown for a write", async () => {
    const result = await executeTool(deleteOrder, { orderId: "o" }, () => Promise.reject("a string"));
    expect(result).toMatchObject({ code: "FAILED", effect: "unknown", attempts: 1 });
  });

  it("treats a missing handler as FAILED without calling anything", async () => {
    const result = await executeTool(getOrder, { customerId: "c" }, undefined);
    expect(result).toMatchObject({ code: "FAILED", attempts: 0, effect: "none" });
  });

  it("ignores hooks that throw", async () => {
    const result = await executeTool(getOrder, { customerId: "c" }, () => { throw new Error("x"); }, {
      onTrace: () => { throw new Error("sink down"); },
      classify: () => { throw new Error("classifier bug"); },
    });
    expect(result).toMatchObject({ code: "FAILED", message: "The tool failed unexpectedly." });
  });

  it("never rejects, even with a contract whose validator throws", async () => {
    const broken = { ...defineContract<object, object, object>({ name: "broken", effect: "read", input: { type: "object" }, output: { type: "object" } }) };
    const throwing = Object.assign(() => { throw new Error("validator bug"); }, { errors: null });
    const result = await executeTool({ ...broken, validators: { validateInput: throwing, validateOutput: throwing } }, {}, () => ({}));
    expect(result).toMatchObject({ ok: false, code: "FAILED" });
  });

  it("loads a contract's validators on its first call, once, and is FAILED with nothing run when they cannot load", async () => {
    const { validators } = defineContract<object, object, object>({ name: "lazy", effect: "read", input: { type: "object" }, output: { type: "object" } });
    let loads = 0;
    const lazy = defineContract<object, object, object>({ name: "lazy", effect: "read", input: { type: "object" }, output: { type: "object" } });
    const loading = { ...lazy, validators: async () => (loads++, validators as ToolValidators) };
    expect(await executeTool(loading, {}, () => ({ a: 1 }))).toEqual({ ok: true, data: { a: 1 } });
    expect(await executeTool(loading, {}, () => ({ b: 2 }))).toEqual({ ok: true, data: { b: 2 } });
    expect(loads).toBe(1);
    const events: TraceEvent[] = [];
    let ran = false;
    const missing = { ...lazy, validators: () => import("./no-such-validators.js" as string) as Promise<ToolValidators> };
    const result = await executeTool(missing, {}, () => ((ran = true), {}), { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "FAILED", effect: "none", attempts: 0 });
    expect(ran).toBe(false);
    expect(events).toEqual([expect.objectContaining({ code: "FAILED", attempt: 0, error: expect.any(Error) })]);
  });
});
