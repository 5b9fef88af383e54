import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("allOf intersections", () => {
  const cases: [string, JsonSchema, string][] = [
    ["refs", { allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }, "A & B"],
    ["a single branch", { allOf: [{ $ref: "#/$defs/A" }] }, "A"],
    ["unions inside are parenthesized", { allOf: [{ $ref: "#/$defs/A" }, { anyOf: [{ $ref: "#/$defs/B" }, { type: "null" }] }] }, "A & (B | null)"],
    ["unknown branches drop out", { allOf: [true, { type: "string" }] }, "string"],
    ["a false branch makes it never", { allOf: [false, { type: "string" }] }, "never"],
    ["with a sibling ref", { $ref: "#/$defs/A", allOf: [{ $ref: "#/$defs/B" }] }, "A & B"],
    [
      "closed over its branches (unevaluatedProperties: false): branches typed closed",
      { type: "object", unevaluatedProperties: false, allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] },
      "{\n  a?: string;\n} & {\n  b?: string;\n}",
    ],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });

  it("applies defaults inside allOf when resolved (Ajv does)", () => {
    const schema: JsonSchema = { allOf: [{ type: "object", properties: { n: { type: "integer", default: 1 } }, additionalProperties: false }] };
    expect(typeTextOf(schema, testContext({ resolved: true }))).toContain("n: number;");
  });
});
