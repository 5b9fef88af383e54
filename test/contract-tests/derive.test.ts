/**
 * The derivation behind the generated contract tests, table-driven: a schema
 * and a valid base in, the derived negatives (name → expected issue path) out.
 * Every derived case is also checked here to be rejected by a fresh Ajv at
 * its path, independently of the deriver's own verification.
 */
import { describe, expect, it } from "vitest";
import { SchemaChecker } from "../../generator/emit/contract-tests/checker.js";
import { deriveNegatives } from "../../generator/emit/contract-tests/derive.js";
import type { JsonObject, JsonValue } from "../../generator/ir.js";

const closed = (properties: JsonObject, required: string[] = Object.keys(properties)): JsonObject => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

interface Row {
  readonly title: string;
  readonly schema: JsonObject;
  readonly base: JsonValue;
  /** name → expected issue path, in derivation order. */
  readonly expected: [string, string][];
}

const rows: Row[] = [
  {
    title: "a required string with length bounds",
    schema: closed({ name: { type: "string", minLength: 2, maxLength: 4 } }),
    base: { name: "abc" },
    expected: [
      ["name: missing required property", "name"],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["name: wrong type (number)", "name"],
      ["name: null where not nullable", "name"],
      ["name: shorter than minLength 2", "name"],
      ["name: longer than maxLength 4", "name"],
    ],
  },
  {
    title: "a nullable optional string gets no null case, and is filled in to be mutated",
    schema: closed({ note: { type: ["string", "null"], maxLength: 1 } }, []),
    base: {},
    expected: [
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["note: wrong type (number)", "note"],
      ["note: longer than maxLength 1", "note"],
    ],
  },
  {
    title: "integer bounds, exclusive and inclusive, and a fraction",
    schema: closed({ n: { type: "integer", exclusiveMinimum: 0, maximum: 10 } }),
    base: { n: 5 },
    expected: [
      ["n: missing required property", "n"],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["n: wrong type (string)", "n"],
      ["n: wrong type (a fraction, not an integer)", "n"],
      ["n: null where not nullable", "n"],
      ["n: at exclusiveMinimum 0", "n"],
      ["n: above maximum 10", "n"],
    ],
  },
  {
    title: "an enum of numbers, a const and a date-time",
    schema: closed({ level: { enum: [1, 2, 3] }, yes: { const: true }, at: { type: "string", format: "date-time" } }, []),
    base: {},
    expected: [
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["level: wrong type (string)", "level"],
      ["level: null where not nullable", "level"],
      ["level: value not in the enum (4)", "level"],
      ["yes: wrong type (number)", "yes"],
      ["yes: null where not nullable", "yes"],
      ["yes: not the constant (false)", "yes"],
      ["at: wrong type (number)", "at"],
      ["at: null where not nullable", "at"],
      ["at: impossible date-time (2026-02-30T10:00:00Z)", "at"],
    ],
  },
  {
    title: "a nested object through $ref, inside an array with item bounds",
    schema: {
      ...closed({ items: { type: "array", items: { $ref: "#/$defs/Item" }, minItems: 1, maxItems: 2 } }),
      $defs: { Item: closed({ id: { type: "string", pattern: "^i_[0-9]+$" } }) },
    },
    base: { items: [{ id: "i_1" }] },
    expected: [
      ["items: missing required property", "items"],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["items: wrong type (number)", "items"],
      ["items: null where not nullable", "items"],
      ["items: fewer items than minItems 1", "items"],
      ["items: more items than maxItems 2", "items"],
      ["items[0]: wrong type (number)", "items[0]"],
      ["items[0]: null where not nullable", "items[0]"],
      ["items[0].id: missing required property", "items[0].id"],
      ["items[0].undeclaredProperty: undeclared property", "items[0].undeclaredProperty"],
      ["items[0].id: wrong type (number)", "items[0].id"],
      ["items[0].id: null where not nullable", "items[0].id"],
    ],
  },
  {
    title: "oneOf branches are each visited, and reported at the union's path",
    schema: closed({
      by: {
        oneOf: [closed({ id: { type: "string" } }), closed({ tag: { enum: ["a", "b"] } })],
      },
    }),
    base: { by: { id: "x" } },
    expected: [
      ["by: missing required property", "by"],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["by: wrong type (number)", "by"],
      ["by: null where not nullable", "by"],
      ["by.id: missing required property (oneOf branch 1), reported at by", "by"],
      ["by.undeclaredProperty: undeclared property (oneOf branch 1), reported at by", "by"],
      ["by.id: wrong type (number) (oneOf branch 1), reported at by", "by"],
      ["by.id: null where not nullable (oneOf branch 1), reported at by", "by"],
      ["by.undeclaredProperty: undeclared property (oneOf branch 2), reported at by", "by"],
      ["by.tag: wrong type (number) (oneOf branch 2), reported at by", "by"],
      ["by.tag: null where not nullable (oneOf branch 2), reported at by", "by"],
      ['by.tag: value not in the enum ("unknown-value") (oneOf branch 2), reported at by', "by"],
    ],
  },
  {
    title: "a tagged union's branches report at their own paths, and a bad tag at the tag",
    schema: closed({
      shape: {
        anyOf: [closed({ kind: { const: "circle" }, r: { type: "number" } }), closed({ kind: { const: "square" }, side: { type: "number" } })],
      },
    }),
    base: { shape: { kind: "circle", r: 1 } },
    expected: [
      ["shape: missing required property", "shape"],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["shape: wrong type (number)", "shape"],
      ["shape: null where not nullable", "shape"],
      ["shape.kind: missing required property (anyOf branch 1)", "shape.kind"],
      ["shape.r: missing required property (anyOf branch 1)", "shape.r"],
      ["shape.undeclaredProperty: undeclared property (anyOf branch 1)", "shape.undeclaredProperty"],
      ["shape.kind: wrong type (number) (anyOf branch 1)", "shape.kind"],
      ["shape.kind: null where not nullable (anyOf branch 1)", "shape.kind"],
      ['shape.kind: not the constant ("circle-other") (anyOf branch 1)', "shape.kind"],
      ["shape.r: wrong type (string) (anyOf branch 1)", "shape.r"],
      ["shape.r: null where not nullable (anyOf branch 1)", "shape.r"],
      ["shape.kind: missing required property (anyOf branch 2)", "shape.kind"],
      ["shape.side: missing required property (anyOf branch 2)", "shape.side"],
      ["shape.undeclaredProperty: undeclared property (anyOf branch 2)", "shape.undeclaredProperty"],
      ["shape.kind: wrong type (number) (anyOf branch 2)", "shape.kind"],
      ["shape.kind: null where not nullable (anyOf branch 2)", "shape.kind"],
      ['shape.kind: not the constant ("square-other") (anyOf branch 2)', "shape.kind"],
      ["shape.side: wrong type (string) (anyOf branch 2)", "shape.side"],
      ["shape.side: null where not nullable (anyOf branch 2)", "shape.side"],
    ],
  },
  {
    title: "an open object and an any-value property give nothing that would still be valid",
    schema: { type: "object", properties: { anything: {} }, additionalProperties: true },
    base: { anything: 1 },
    expected: [],
  },
  {
    title: "values under an additionalProperties schema are properties too",
    schema: closed({ labels: { type: "object", additionalProperties: { type: "string", maxLength: 2 } } }, []),
    base: {},
    expected: [
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ["labels: wrong type (number)", "labels"],
      ["labels: null where not nullable", "labels"],
      ["labels.additionalKey: wrong type (number)", "labels.additionalKey"],
      ["labels.additionalKey: null where not nullable", "labels.additionalKey"],
      ["labels.additionalKey: longer than maxLength 2", "labels.additionalKey"],
    ],
  },
  {
    title: "a property name that is not an identifier is bracketed, as the runtime reports it",
    schema: closed({ "first name": { type: "boolean" } }),
    base: { "first name": true },
    expected: [
      ['["first name"]: missing required property', '["first name"]'],
      ["undeclaredProperty: undeclared property", "undeclaredProperty"],
      ['["first name"]: wrong type (number)', '["first name"]'],
      ['["first name"]: null where not nullable', '["first name"]'],
    ],
  },
];

describe("deriveNegatives", () => {
  it.each(rows)("$title", ({ schema, base, expected }) => {
    const checker = new SchemaChecker(schema, true);
    const negatives = deriveNegatives(checker, base);
    expect(negatives.map((n) => [n.name, n.path])).toEqual(expected);
    // Independently of the deriver: a fresh checker rejects each case at its path.
    const fresh = new SchemaChecker(schema, true);
    for (const n of negatives) {
      expect(fresh.valid(n.input), n.name).toBe(false);
      expect(fresh.failures(n.input).map((f) => f.path), n.name).toContain(n.path);
    }
  });

  it("derives nothing from an invalid base", () => {
    const checker = new SchemaChecker(closed({ a: { type: "string" } }), true);
    expect(deriveNegatives(checker, { a: 1 })).toEqual([]);
  });

  it("changes one thing at a time: each case differs from the base at one place", () => {
    const schema = closed({ a: { type: "string", minLength: 1 }, b: { type: "integer", minimum: 0 } });
    const base = { a: "x", b: 1 };
    for (const n of deriveNegatives(new SchemaChecker(schema, true), base)) {
      const input = n.input as Record<string, unknown>;
      const changed = ["a", "b", "undeclaredProperty"].filter((k) => JSON.stringify(input[k]) !== JSON.stringify((base as Record<string, unknown>)[k]));
      expect(changed, n.name).toHaveLength(1);
    }
  });

  it("can stay at the root and keep to some kinds (as for bad outputs)", () => {
    const schema = closed({ a: closed({ b: { type: "string" } }), c: { type: "string" } });
    const negatives = deriveNegatives(new SchemaChecker(schema, false), { a: { b: "x" }, c: "y" }, { kinds: new Set(["missing", "extra"]), nested: false });
    expect(negatives.map((n) => n.name)).toEqual(["a: missing required property", "c: missing required property", "undeclaredProperty: undeclared property"]);
  });

  it("drops a mutation the validator accepts, so a test never claims a rejection that does not happen", () => {
    // 42 is a valid value here, so no "wrong type (number)"; boolean is the first type it rules out.
    const schema = closed({ v: { type: ["string", "number"] } });
    const names = deriveNegatives(new SchemaChecker(schema, true), { v: "s" }).map((n) => n.name);
    expect(names).toContain("v: wrong type (boolean)");
    expect(names.filter((n) => n.includes("number"))).toEqual([]);
  });
});
