import { describe, expect, it } from "vitest";
import { keyword } from "../../../generator/printer/types/node.js";
import { declaredTypes, primitiveType } from "../../../generator/emit/types/primitive.js";
import type { JsonSchema } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("primitive types", () => {
  const cases: [string, JsonSchema, string][] = [
    ["string", { type: "string" }, "string"],
    ["number", { type: "number" }, "number"],
    ["integer is number", { type: "integer" }, "number"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["null", { type: "null" }, "null"],
    ["type array", { type: ["string", "number"] }, "string | number"],
    ["nullable type array", { type: ["string", "null"] }, "string | null"],
    ["integer and number collapse", { type: ["integer", "number"] }, "number"],
    ["format does not change the type", { type: "string", format: "date-time" }, "string"],
    ["assertions do not change the type", { type: "string", minLength: 1, maxLength: 3, pattern: "^a" }, "string"],
    ["numeric bounds", { type: "integer", minimum: 0, exclusiveMaximum: 10, multipleOf: 2 }, "number"],
    ["x-sensitive does not change the type", { type: "string", "x-sensitive": true }, "string"],
    ["true schema", true, "unknown"],
    ["empty schema", {}, "unknown"],
    ["annotations only", { description: "anything" }, "unknown"],
    ["false schema", false, "never"],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });

  it("maps scalar names", () => {
    expect(primitiveType("integer")).toEqual(keyword("number"));
    expect(primitiveType("string")).toEqual(keyword("string"));
  });

  it("rejects an unknown type name instead of widening it", () => {
    expect(() => declaredTypes({ type: "date" })).toThrow(/unsupported type "date"/);
    expect(() => typeTextOf({ type: ["string", "int"] }, testContext())).toThrow(/unsupported type/);
  });
});
