import { describe, expect, it } from "vitest";
import { literalType } from "../../../generator/emit/types/enum.js";
import { typeText } from "../../../generator/printer/types/render.js";
import type { JsonSchema, JsonValue } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("enum and const", () => {
  const cases: [string, JsonSchema, string][] = [
    ["string enum", { type: "string", enum: ["pending", "paid", "cancelled"] }, '"pending" | "paid" | "cancelled"'],
    ["untyped enum", { enum: ["a", 1, true, null] }, '"a" | 1 | true | null'],
    ["enum filtered by type", { type: "string", enum: ["a", 1] }, '"a"'],
    ["nullable enum", { type: ["string", "null"], enum: ["a", null] }, '"a" | null'],
    ["integer enum keeps integers only", { type: "integer", enum: [1, 1.5, 2] }, "1 | 2"],
    ["duplicates collapse", { enum: ["a", "a"] }, '"a"'],
    ["empty enum", { enum: [] }, "never"],
    ["string const", { const: "v1" }, '"v1"'],
    ["number const", { const: -2.5 }, "-2.5"],
    ["boolean const", { const: false }, "false"],
    ["null const", { const: null }, "null"],
    ["const of the wrong type", { type: "string", const: 1 }, "never"],
    ["object const", { const: { a: 1, "b-c": ["x"] } }, '{ a: 1; "b-c": ["x"] }'],
    ["array const", { const: [1, "two", null] }, '[1, "two", null]'],
    ["a __proto__ key in an object const is computed", { const: JSON.parse('{ "__proto__": 1 }') as JsonValue }, '{ ["__proto__"]: 1 }'],
    ["empty object const", { const: {} }, "{ [key: string]: never }"],
    ["quotes and newlines stay inside the literal", { const: 'a"b\n*/' }, '"a\\"b\\n*/"'],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });

  it("renders every literal as valid JSON-ish TS", () => {
    const values: [JsonValue, string][] = [
      [0, "0"],
      [1e21, "1e+21"],
      ["é", '"é"'],
      [[], "[]"],
    ];
    for (const [value, text] of values) expect(typeText(literalType(value))).toBe(text);
  });

  it("refuses numbers JSON cannot carry", () => {
    expect(() => literalType(Number.POSITIVE_INFINITY)).toThrow(/not a JSON number/);
    expect(() => literalType(Number.NaN)).toThrow(/not a JSON number/);
  });
});
