import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("anyOf / oneOf unions", () => {
  const cases: [string, JsonSchema, string][] = [
    ["nullable anyOf", { anyOf: [{ type: "string" }, { type: "null" }] }, "string | null"],
    ["nullable ref", { anyOf: [{ $ref: "#/$defs/Order" }, { type: "null" }] }, "Order | null"],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "integer" }] }, "string | number"],
    ["duplicate branches collapse", { anyOf: [{ type: "integer" }, { type: "number" }] }, "number"],
    ["an unknown branch absorbs the union", { anyOf: [{ type: "string" }, true] }, "unknown"],
    ["never branches drop out", { anyOf: [false, { type: "string" }] }, "string"],
    [
      "oneOf of objects",
      {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" } }, required: ["kind"], additionalProperties: false },
          { type: "object", properties: { kind: { const: "b" } }, required: ["kind"], additionalProperties: false },
        ],
      },
      '{\n  kind: "a";\n} | {\n  kind: "b";\n}',
    ],
    [
      "a union next to other keywords is intersected, parenthesized",
      { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: true, oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] },
      "{\n  id: string;\n  [key: string]: unknown;\n} & (A | B)",
    ],
    ["anyOf and oneOf together", { anyOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }], oneOf: [{ $ref: "#/$defs/C" }, { $ref: "#/$defs/D" }] }, "(A | B) & (C | D)"],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });
});
