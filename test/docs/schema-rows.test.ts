/**
 * Schemas as the rows of the catalog's tables: one row per value a caller
 * meets, nested, with the type, whether it is required, the details and the
 * description; references as links; any root; every keyword shown somewhere.
 */
import { describe, expect, it } from "vitest";
import type { Inline } from "../../generator/emit/catalog/model.js";
import { rootSummary, schemaRows, type RefResolver } from "../../generator/emit/catalog/schema-rows.js";
import type { JsonSchema } from "../../generator/ir.js";

const resolve: RefResolver = (ref) => (ref === "#/$defs/Order" ? { name: "Order", to: { page: "types", anchor: "order" } } : undefined);

const plain = (cell: readonly Inline[]): string => cell.map((p) => p.text).join("");

/** Each row as [indented field, type, required, details, description]. */
function rows(schema: JsonSchema): string[][] {
  return schemaRows(schema, resolve).map((row) => {
    const [field = [], ...rest] = row.cells;
    return [`${"  ".repeat(row.depth ?? 0)}${plain(field)}`, ...rest.map(plain)];
  });
}

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: "object", properties, required, additionalProperties: false });

describe("one property per keyword family: the Details cell", () => {
  it.each<[string, JsonSchema, string]>([
    ["string bounds", { type: "string", minLength: 1, maxLength: 64 }, "1–64 characters"],
    ["exact length", { type: "string", minLength: 3, maxLength: 3 }, "exactly 3 characters"],
    ["upper bound only", { type: "string", maxLength: 1 }, "at most 1 character"],
    ["numeric range", { type: "integer", minimum: 1, maximum: 100 }, "1 ≤ value ≤ 100"],
    ["exclusive bounds", { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 }, "0 < value < 1"],
    // The ends of int32 and int64 (the OpenAPI import writes int32 as bounds) say nothing to a reader.
    ["int32's own bounds", { type: "integer", minimum: -2147483648, maximum: 2147483647 }, ""],
    ["int64's own bounds", { type: ["integer", "null"], minimum: -9223372036854775808, maximum: 9223372036854775807 }, ""],
    ["int32 with a real lower bound", { type: "integer", minimum: 1, maximum: 2147483647 }, "1 ≤ value"],
    ["a number's bound is its own", { type: "number", maximum: 2147483647 }, "value ≤ 2147483647"],
    ["multiple of", { type: "integer", multipleOf: 5 }, "multiple of 5"],
    ["enum", { enum: ["a", "b", null] }, 'one of "a", "b", null'],
    ["const", { const: true }, "= true"],
    ["default", { type: "boolean", default: false }, "default false"],
    ["format and pattern", { type: "string", format: "uuid", pattern: "^[a-f0-9-]+$" }, "format uuid · pattern ^[a-f0-9-]+$"],
    ["array counts", { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true }, "1–3 items, all distinct"],
    ["map size", { type: "object", additionalProperties: { type: "string" }, maxProperties: 20 }, "at most 20 keys"],
    ["open object", { type: "object", properties: {} }, "other keys allowed"],
    ["dependent required", { type: "object", properties: {}, additionalProperties: false, dependentRequired: { a: ["b", "c"] } }, "with a, also b, c"],
    ["annotations", { type: "string", deprecated: true, readOnly: true }, "deprecated read-only"],
    ["examples", { type: "string", examples: ["x"] }, 'e.g. "x"'],
    ["x-sensitive", { type: "string", "x-sensitive": true }, "sensitive"],
    ["x-sensitive withhold", { type: "string", "x-sensitive": "withhold" }, "sensitive: withhold"],
    ["x-mcp-header", { type: "string", "x-mcp-header": "Region" }, "header Mcp-Param-Region"],
    ["any other extension", { type: "string", "x-vendor": { a: 1 } }, 'x-vendor: {"a":1}'],
    ["a keyword no facet knows", { type: "string", contentSchema: { type: "object" } }, 'contentSchema: {"type":"object"}'],
  ])("%s", (_label, schema, details) => {
    expect(rows(object({ p: schema }))[0]?.[3]).toBe(details);
  });
});

describe("the Type cell", () => {
  it.each<[string, JsonSchema, string]>([
    ["one type", { type: "string" }, "string"],
    ["a union of types", { type: ["string", "null"] }, "string | null"],
    ["a reference", { $ref: "#/$defs/Order" }, "Order"],
    ["an array of a reference", { type: "array", items: { $ref: "#/$defs/Order" } }, "array of Order"],
    ["an array of a type", { type: "array", items: { type: "integer" } }, "array of integer"],
    ["an enum", { enum: [1, 2] }, "enum"],
    ["one of", { oneOf: [{ type: "string" }, { type: "integer" }] }, "one of"],
    ["true", true, "any"],
    ["false", false, "nothing (never valid)"],
    ["no type", {}, "any"],
  ])("%s", (_label, schema, type) => {
    expect(rows(object({ p: schema }))[0]?.[1]).toBe(type);
  });

  it("links a reference it can resolve, and shows one it cannot as code", () => {
    const [linked, unknown] = schemaRows(object({ a: { $ref: "#/$defs/Order" }, b: { $ref: "#/$defs/Gone" } }), resolve);
    expect(linked?.cells[1]).toEqual([{ kind: "link", text: "Order", to: { page: "types", anchor: "order" }, code: true }]);
    expect(unknown?.cells[1]).toEqual([{ kind: "code", text: "#/$defs/Gone" }]);
  });
});

describe("nesting", () => {
  it("nests properties, items, map values, unions and conditionals under their parent, and marks what is required", () => {
    const schema = object(
      {
        filter: { description: "How to search.", oneOf: [object({ id: { type: "string" } }, ["id"]), object({ tags: { type: "array", items: object({ name: { type: "string" } }, ["name"]) } })] },
        labels: { type: "object", additionalProperties: { type: "string", maxLength: 5 } },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
        rule: { if: { type: "string" }, then: { minLength: 1 }, else: { type: "null" } },
      },
      ["filter"],
    );
    expect(rows(schema)).toEqual([
      ["filter", "one of", "yes", "", "How to search."],
      ["  option 1", "object", "", "", ""],
      ["    id", "string", "yes", "", ""],
      ["  option 2", "object", "", "", ""],
      ["    tags", "array", "no", "", ""],
      ["      each item", "object", "", "", ""],
      ["        name", "string", "yes", "", ""],
      ["labels", "object", "no", "", ""],
      ["  any other key", "string", "", "at most 5 characters", ""],
      ["pair", "array", "no", "", ""],
      ["  item 0", "string", "", "", ""],
      ["  item 1", "integer", "", "", ""],
      ["  each further item", "nothing (never valid)", "", "", ""],
      ["rule", "any", "no", "", ""],
      ["  if", "string", "", "", ""],
      ["  then", "any", "", "at least 1 character", ""],
      ["  else", "null", "", "", ""],
    ]);
  });

  it("records the labels above each row, for the path the Markdown shows", () => {
    const [, , deep] = schemaRows(object({ a: object({ b: object({ c: { type: "string" } }) }) }), resolve);
    expect(deep?.trail?.map(plain)).toEqual(["a", "b"]);
  });
});

describe("any root", () => {
  it.each<[string, JsonSchema, string[][], string]>([
    ["a string", { type: "string", maxLength: 10 }, [["(the value)", "string", "", "at most 10 characters", ""]], "string · at most 10 characters"],
    ["an array of objects", { type: "array", items: object({ id: { type: "string" } }, ["id"]) }, [["each item", "object", "", "", ""], ["  id", "string", "yes", "", ""]], "array"],
    ["an array of a reference", { type: "array", items: { $ref: "#/$defs/Order" } }, [["(the value)", "array of Order", "", "", ""]], "array of Order"],
    ["a union", { anyOf: [{ type: "string" }, { type: "null" }] }, [["option 1", "string", "", "", ""], ["option 2", "null", "", "", ""]], "any of"],
    ["an open object", { type: "object" }, [["(the value)", "object", "", "other keys allowed", ""]], "object · other keys allowed"],
  ])("%s", (_label, schema, expected, summary) => {
    expect(rows(schema)).toEqual(expected);
    expect(plain(rootSummary(schema, resolve))).toBe(summary);
  });
});
