import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../generator/ir.js";
import { testContext, typeTextOf } from "./helpers.js";

const lines = (...l: string[]) => l.join("\n");

describe("object types", () => {
  const cases: [string, JsonSchema, string][] = [
    [
      "required and optional properties, in schema order",
      { type: "object", properties: { b: { type: "string" }, a: { type: "number" } }, required: ["a"], additionalProperties: false },
      lines("{", "  b?: string;", "  a: number;", "}"),
    ],
    [
      "non-identifier names are quoted",
      { type: "object", properties: { "x-y": { type: "string" }, "1a": { type: "string" }, $ok: { type: "string" } }, required: ["x-y"], additionalProperties: false },
      lines("{", '  "x-y": string;', '  "1a"?: string;', "  $ok?: string;", "}"),
    ],
    [
      "a property named __proto__ is a computed key, as literal.ts writes every key",
      JSON.parse('{ "type": "object", "properties": { "__proto__": { "type": "string" } }, "required": ["__proto__"], "additionalProperties": false }') as JsonSchema,
      lines("{", '  ["__proto__"]: string;', "}"),
    ],
    ["closed empty object", { type: "object", additionalProperties: false }, "{ [key: string]: never }"],
    ["open empty object", { type: "object", additionalProperties: true }, lines("{", "  [key: string]: unknown;", "}")],
    ["additionalProperties absent means open", { type: "object" }, lines("{", "  [key: string]: unknown;", "}")],
    [
      "record",
      { type: "object", additionalProperties: { type: "integer" } },
      lines("{", "  [key: string]: number;", "}"),
    ],
    [
      "record combined with known properties admits their types",
      { type: "object", properties: { id: { type: "string" }, n: { type: "boolean" } }, required: ["id"], additionalProperties: { type: "integer" } },
      lines("{", "  id: string;", "  n?: boolean;", "  [key: string]: number | string | boolean | undefined;", "}"),
    ],
    [
      "open object with known properties",
      { type: "object", properties: { id: { type: "string" } }, additionalProperties: true },
      lines("{", "  id?: string;", "  [key: string]: unknown;", "}"),
    ],
    [
      "a required key without a property schema takes additionalProperties",
      { type: "object", required: ["k"], additionalProperties: { type: "string" } },
      lines("{", "  k: string;", "  [key: string]: string;", "}"),
    ],
    [
      "a required key a closed object cannot have is never",
      { type: "object", required: ["k"], additionalProperties: false },
      lines("{", "  k: never;", "}"),
    ],
    [
      "nested objects are indented",
      {
        type: "object",
        properties: { a: { type: "object", properties: { b: { type: "string" } }, required: ["b"], additionalProperties: false } },
        required: ["a"],
        additionalProperties: false,
      },
      lines("{", "  a: {", "    b: string;", "  };", "}"),
    ],
    [
      "nullable object",
      { type: ["object", "null"], properties: { a: { type: "string" } }, additionalProperties: false },
      lines("{", "  a?: string;", "} | null"),
    ],
    [
      "propertyNames keeps string keys",
      { type: "object", propertyNames: { pattern: "^[a-z]+$" }, additionalProperties: { type: "string" } },
      lines("{", "  [key: string]: string;", "}"),
    ],
    [
      "annotations become JSDoc on the property",
      {
        type: "object",
        properties: { at: { type: "string", format: "date-time", description: "When.", default: "now", deprecated: true } },
        additionalProperties: false,
      },
      lines("{", "  /**", "   * When.", "   * @format date-time", '   * @default "now"', "   * @deprecated", "   */", "  at?: string;", "}"),
    ],
  ];
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(typeTextOf(schema, testContext())).toBe(expected);
  });

  describe("defaults: input as sent versus resolved", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        q: { type: "string" },
        limit: { type: "integer", default: 10 },
        opts: {
          type: "object",
          properties: { deep: { type: "boolean", default: false } },
          additionalProperties: false,
        },
        pick: {
          anyOf: [{ type: "object", properties: { x: { type: "string", default: "a" } }, additionalProperties: false }, { type: "null" }],
        },
      },
      required: ["q"],
      additionalProperties: false,
    };
    it("as sent, a property with a default is optional", () => {
      const t = typeTextOf(schema, testContext());
      expect(t).toContain("limit?: number;");
      expect(t).toContain("deep?: boolean;");
    });
    it("resolved, it is required at any depth where its parent is present", () => {
      const t = typeTextOf(schema, testContext({ resolved: true }));
      expect(t).toContain("  limit: number;");
      expect(t).toContain("  opts?: {");
      expect(t).toContain("    deep: boolean;");
    });
    it("resolved, anyOf/oneOf branches keep defaults optional: Ajv assigns none there", () => {
      const t = typeTextOf(schema, testContext({ resolved: true }));
      expect(t).toContain("x?: string;");
    });
    it("required wins over default", () => {
      const s: JsonSchema = { type: "object", properties: { a: { type: "string", default: "x" } }, required: ["a"], additionalProperties: false };
      expect(typeTextOf(s, testContext())).toContain("  a: string;");
    });
  });
});
