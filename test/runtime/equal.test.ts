/**
 * JSON equality for uniqueItems, enum and const. Ajv's default helper called
 * `valueOf` on objects that have that key, so ordinary JSON from a model made
 * validation throw (FAILED) instead of giving INVALID_INPUT.
 */
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { equal } from "../../generator/runtime/equal.js";
import { execute } from "../../generated/index.js";

describe("equal", () => {
  it.each([
    [1, 1, true],
    ["a", "a", true],
    [null, null, true],
    [1, "1", false],
    [null, {}, false],
    [[], {}, false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [2, 1], false],
    [{ a: 1, b: [1] }, { b: [1], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: undefined }, { b: undefined }, false],
    [{ valueOf: {} }, { valueOf: {} }, true],
    [{ valueOf: 1, toString: "x" }, { valueOf: 2, toString: "x" }, false],
    [{ constructor: 1 }, { constructor: 1 }, true],
  ])("equal(%j, %j) is %s", (a, b, want) => {
    expect(equal(a, b)).toBe(want);
    expect(equal(b, a)).toBe(want);
  });

  it("is what toolc's Ajv uses, in process and in standalone code", () => {
    const ajv = createAjv({ applyDefaults: false });
    const unique = ajv.compile({ type: "array", uniqueItems: true });
    expect(unique([{ valueOf: {} }, { valueOf: 1 }])).toBe(true);
    expect(unique([{ valueOf: {} }, { valueOf: {} }])).toBe(false);
    const oneOf = ajv.compile({ enum: [{ toString: 1 }] });
    expect(oneOf({ toString: 1 })).toBe(true);
    expect(oneOf({ toString: {}, valueOf: "x" })).toBe(false);
  });
});

describe("a generated validator given objects with valueOf/toString keys", () => {
  it("reports INVALID_INPUT at the items, never FAILED", async () => {
    const input = JSON.parse('{"filter":{"status":[{},"pending","pending",{"toString":1,"valueOf":{}}]},"limit":1}') as unknown;
    const result = await execute("search_orders", input, { search_orders: async () => ({ orders: [] }) } as never);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", effect: "none" });
    expect(result.ok ? [] : (result.issues ?? []).map((i) => i.path)).toContain("filter.status[3]");
  });
});
