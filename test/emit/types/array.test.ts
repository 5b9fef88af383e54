import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("array types", () => {
  const cases: [string, JsonSchema, string][] = [
    ["items", { type: "array", items: { type: "string" } }, "string[]"],
    ["no items", { type: "array" }, "unknown[]"],
    ["items: false", { type: "array", items: false }, "[]"],
    ["union items are parenthesized", { type: "array", items: { type: ["string", "null"] } }, "(string | null)[]"],
    ["enum items", { type: "array", items: { enum: ["a", "b"] } }, '("a" | "b")[]'],
    ["nested arrays", { type: "array", items: { type: "array", items: { type: "number" } } }, "number[][]"],
    ["minItems needs no tuple", { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true }, "string[]"],
    ["maxItems 0", { type: "array", items: { type: "string" }, maxItems: 0 }, "[]"],
    ["ref items", { type: "array", items: { $ref: "#/$defs/Order" } }, "Order[]"],
    ["prefixItems without minItems: all optional, unknown rest", { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] }, "[string?, number?, ...unknown[]]"],
    [
      "prefixItems with minItems and items",
      { type: "array", prefixItems: [{ type: "string" }, { type: ["number", "null"] }], minItems: 1, items: { type: "boolean" } },
      "[string, (number | null)?, ...boolean[]]",
    ],
    ["closed tuple", { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2, items: false }, "[string, number]"],
    ["maxItems closes a tuple", { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2, maxItems: 2 }, "[string, number]"],
    ["maxItems below prefix length truncates", { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], maxItems: 1 }, "[string?]"],
    ["nullable array", { type: ["array", "null"], items: { type: "string" } }, "string[] | null"],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });
});
