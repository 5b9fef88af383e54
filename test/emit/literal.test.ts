/**
 * contracts.ts is written already formatted, without prettier, so the
 * literal writer must give valid TS that evaluates to exactly the value,
 * whatever the keys and strings hold.
 */
import { describe, expect, it } from "vitest";
import { literal } from "../../generator/printer/literal.js";

const evaluate = (source: string): unknown => new Function(`return (${source});`)();

describe("literal", () => {
  it.each([
    ["identifier keys unquoted, trailing commas", { a: 1, b: [true, null] }, '{\n  a: 1,\n  b: [\n    true,\n    null,\n  ],\n}'],
    ["other keys stay quoted", { "toolc/contractVersion": 2, "x-sensitive": true, "1a": 0 }, '{\n  "toolc/contractVersion": 2,\n  "x-sensitive": true,\n  "1a": 0,\n}'],
    ["__proto__ becomes a computed key", JSON.parse('{"__proto__": 1}') as object, '{\n  ["__proto__"]: 1,\n}'],
    ["a quote before __proto__ inside a key stays inside the key", { 'x"__proto__': 1, '"__proto__":': 2 }, '{\n  "x\\"__proto__": 1,\n  "\\"__proto__\\":": 2,\n}'],
    ["empty containers stay on one line", { o: {}, l: [] }, "{\n  o: {},\n  l: [],\n}"],
    ["a string that looks like a key is left alone", { d: 'x\n  "k": y' }, '{\n  d: "x\\n  \\"k\\": y",\n}'],
  ])("%s", (_label, value, expected) => {
    const parsed = JSON.parse(JSON.stringify(value)) as unknown;
    expect(literal(parsed)).toBe(expected);
    expect(evaluate(literal(parsed))).toEqual(parsed);
  });

  it("keeps a __proto__ key an own property, not the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const back = evaluate(literal(value)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(back).toEqual(value);
  });

  it("round-trips the suite of awkward strings", () => {
    const value = { s: ["*/", "</script>", "\u2028", '"":', "\\", "${x}", "`"] };
    expect(evaluate(literal(value))).toEqual(value);
  });
});
