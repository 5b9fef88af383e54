/**
 * Unions inside objects, and schemas that nothing can pass. An object that
 * holds `anyOf`/`oneOf` is closed over the branch that matched
 * (`unevaluatedProperties: false`, branches open), so a discriminated union
 * accepts each of its shapes and rejects the rest, with the real Ajv, and
 * its TS type is exactly the union. A schema no value can pass by
 * construction is a located error (TC026), so no such tool compiles.
 */
import { describe, expect, it } from "vitest";
import { sharedAjv } from "../../generator/ajv-shared.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { emitToolModule } from "../../generator/emit/tool-module.js";
import type { ToolIR } from "../../generator/ir.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";

function compile(text: string): { tool: ToolIR | undefined; lines: string[] } {
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts([{ source: "t.yaml", display: "definitions/t.yaml", text }]));
  return { tool: ir.tools[0], lines: diagnostics.map(formatDiagnostic) };
}

function tool(output: string, input = "{ type: object }"): string {
  return `name: t\nversion: 1\ndescription: d\neffect: read\ninput: ${input}\noutput:\n${output}\n`;
}

const DISCRIMINATED = `  type: object
  oneOf:
    - properties:
        status: { const: paid }
        receiptId: { type: string }
      required: [status, receiptId]
    - properties:
        status: { const: pending }
        reference: { type: string }
      required: [status, reference]`;

const WITH_OWN = `  type: object
  properties:
    amountCents: { type: integer }
  required: [amountCents]
  anyOf:
    - properties: { card: { type: string } }
      required: [card]
    - properties: { iban: { type: string } }
      required: [iban]`;

/** "At least one of": the properties are the object's own, and each branch only requires one of them. */
const AT_LEAST_ONE = `  type: object
  properties:
    phone: { type: string, maxLength: 20 }
    email: { type: string, maxLength: 50 }
  anyOf:
    - required: [phone]
    - required: [email]`;

describe("an object holding a union", () => {
  it.each([
    { name: "anyOf of required-only branches (at least one of)", output: AT_LEAST_ONE, valid: [{ phone: "1" }, { email: "a" }, { phone: "1", email: "a" }], invalid: [{}, { phone: "1", extra: 1 }, { phone: 1 }] },
    { name: "oneOf with no properties of its own", output: DISCRIMINATED, valid: [{ status: "paid", receiptId: "r" }, { status: "pending", reference: "x" }], invalid: [{}, { status: "paid", receiptId: "r", reference: "x" }, { status: "paid", reference: "x" }, { status: "paid", receiptId: "r", extra: 1 }] },
    { name: "anyOf beside properties of its own", output: WITH_OWN, valid: [{ amountCents: 1, card: "c" }, { amountCents: 1, iban: "i" }, { amountCents: 1, card: "c", iban: "i" }], invalid: [{ amountCents: 1 }, { card: "c" }, { amountCents: 1, card: "c", extra: true }] },
  ])("$name: each shape passes, anything else fails", ({ output, valid, invalid }) => {
    const { tool: t, lines } = compile(tool(output));
    expect(lines).toEqual([]);
    const validate = sharedAjv({ applyDefaults: false }).compile(t!.outputSchema);
    for (const value of valid) expect(validate(value), JSON.stringify(value)).toBe(true);
    for (const value of invalid) expect(validate(value), JSON.stringify(value)).toBe(false);
    expect(t!.outputSchema["unevaluatedProperties"]).toBe(false);
    expect(t!.outputSchema).not.toHaveProperty("additionalProperties");
  });

  it("is typed as the union of closed shapes, with the object's own properties beside it", () => {
    const discriminated = emitToolModule(compile(tool(DISCRIMINATED)).tool!).text;
    expect(discriminated).toContain('export type TOutput =\n  | {\n      status: "paid";\n      receiptId: string;\n    }\n  | {\n      status: "pending";\n      reference: string;\n    };');
    expect(discriminated.slice(discriminated.indexOf("export type TOutput"))).not.toContain("[key: string]: never");
    const own = emitToolModule(compile(tool(WITH_OWN)).tool!).text;
    expect(own).toMatch(/export type TOutput = \{\n\s+amountCents: number;\n\s*\} & \(/);
    expect(own).not.toContain("[key: string]: unknown");
  });

  it("types an at-least-one-of branch's required name with the object's own declaration, never `never`", () => {
    const text = emitToolModule(compile(tool(AT_LEAST_ONE)).tool!).text;
    expect(text).toContain("export type TOutput = {\n  phone?: string;\n  email?: string;\n} & ({\n  phone: string;\n} | {\n  email: string;\n});");
    const declaration = text.slice(text.indexOf("export type TOutput"));
    expect(declaration.slice(0, declaration.indexOf(";\n\n"))).not.toContain("never");
  });

  it("keeps a bare union of objects closed branch by branch, as before", () => {
    const { tool: t } = compile(tool("  type: object\n  properties:\n    f:\n      oneOf:\n        - { type: object, properties: { a: { type: string } } }\n        - { type: object, properties: { b: { type: string } } }"));
    const f = (t!.outputSchema["properties"] as Record<string, { oneOf: object[] }>)["f"]!;
    expect(f.oneOf.every((b) => (b as { additionalProperties?: unknown }).additionalProperties === false)).toBe(true);
    expect(f).not.toHaveProperty("unevaluatedProperties");
  });
});

describe("schemas nothing can pass (TC026)", () => {
  it.each([
    { name: "minimum above maximum", schema: "{ type: integer, minimum: 5, maximum: 2 }", want: /error TC026: `minimum: 5` and `maximum: 2` leave no number between them/ },
    { name: "an exclusive bound meeting the other", schema: "{ type: number, exclusiveMinimum: 2, maximum: 2 }", want: /error TC026: `exclusiveMinimum: 2` and `maximum: 2` leave no number between them/ },
    { name: "no integer in range", schema: "{ type: integer, minimum: 1.2, maximum: 1.8 }", want: /error TC026: no integer lies between/ },
    { name: "minLength above maxLength", schema: "{ type: string, minLength: 3, maxLength: 2 }", want: /error TC026: `minLength: 3` is above `maxLength: 2`/ },
    { name: "minItems above maxItems", schema: "{ type: array, items: { type: string }, minItems: 3, maxItems: 1 }", want: /error TC026: `minItems: 3` is above `maxItems: 1`/ },
    { name: "a const its type refuses", schema: "{ type: string, const: 3 }", want: /error TC026: `const: 3` is not of `type: string`/ },
    { name: "an enum none of whose values its type allows", schema: "{ type: [string, 'null'], enum: [1, 2] }", want: /error TC026: no `enum` value is of `type: \[string, null\]`, so no value passes/ },
    { name: "a required property set to false", schema: "{ type: object, properties: { x: false }, required: [x] }", want: /error TC026: required property `x` is `false` in `properties`/ },
    { name: "more required than maxProperties", schema: "{ type: object, properties: { a: { type: string }, b: { type: string } }, required: [a, b], maxProperties: 1 }", want: /error TC026: `maxProperties: 1` is below the 2 required properties/ },
    { name: "union branches the closing rule forbids", schema: "{ type: object, additionalProperties: false, oneOf: [{ properties: { a: { type: string } }, required: [a] }, { properties: { b: { type: string } }, required: [b] }] }", want: /error TC026: every branch requires a property the object's `additionalProperties: false` forbids \(`a`, `b`\)/ },
    { name: "an allOf branch the closing rule forbids", schema: "{ type: object, properties: { a: { type: string } }, additionalProperties: false, allOf: [{ required: [b] }] }", want: /error TC026: this branch requires `b`, which the object's `additionalProperties: false` forbids/ },
    { name: "a required name no branch declares", schema: "{ type: object, required: [c], anyOf: [{ properties: { a: { type: string } } }, { properties: { b: { type: string } } }] }", want: /error TC026: required property `c` is declared neither in `properties` nor in any branch/ },
    { name: "a const outside its own enum", schema: "{ type: string, enum: [a], const: b }", want: /error TC026: `const: "b"` and `enum: \["a"\]` have no value in common, so no value passes/ },
    { name: "allOf parts with different consts", schema: "{ allOf: [{ const: a }, { const: b }] }", want: /error TC026: `const: "a"` \(allOf part 0\) and `const: "b"` \(allOf part 1\) have no value in common/ },
    { name: "an allOf part's enum against another part's type", schema: "{ allOf: [{ enum: [a, b] }, { type: integer }] }", want: /error TC026: no value of `enum: \["a","b"\]` \(allOf part 0\) is of `type: integer` \(allOf part 1\), so no value passes/ },
    { name: "no multiple of multipleOf between the bounds (integers)", schema: "{ type: integer, multipleOf: 2, minimum: 1, maximum: 1 }", want: /error TC026: no integer that is a multiple of 2 lies between `minimum: 1` and `maximum: 1`/ },
    { name: "no multiple of multipleOf between the bounds (decimals)", schema: "{ type: number, multipleOf: 0.1, minimum: 0.31, maximum: 0.39 }", want: /error TC026: no number that is a multiple of 0.1 lies between `minimum: 0.31` and `maximum: 0.39`/ },
    { name: "no integer between exclusive bounds", schema: "{ type: integer, exclusiveMinimum: 1, exclusiveMaximum: 2 }", want: /error TC026: no integer lies between `exclusiveMinimum: 1` and `exclusiveMaximum: 2`/ },
    { name: "a pattern longer than maxLength", schema: '{ type: string, maxLength: 2, pattern: "^abc$" }', want: /error TC026: `pattern: "\^abc\$"` matches no string shorter than 3 characters, above `maxLength: 2`/ },
    { name: "a format longer than maxLength", schema: "{ type: string, format: uuid, maxLength: 32 }", want: /error TC026: every `format: uuid` string is at least 36 characters, above `maxLength: 32`/ },
    { name: "a format shorter than minLength", schema: "{ type: string, format: date, minLength: 11 }", want: /error TC026: every `format: date` string is at most 10 characters, below `minLength: 11`/ },
    { name: "minProperties above what a closed object holds", schema: "{ type: object, properties: { a: { type: string } }, minProperties: 2 }", want: /error TC026: `minProperties: 2` is above the 1 properties the closed object can hold/ },
  ])("$name", ({ schema, want }) => {
    const { lines } = compile(tool(`  type: object\n  properties:\n    v: ${schema}`));
    expect(lines).toEqual([expect.stringMatching(want)]);
    expect(lines[0]).toMatch(/^definitions\/t\.yaml:9:/);
  });

  it.each([
    ["null beside numbers no multiple fits", '{ type: [integer, "null"], multipleOf: 2, minimum: 1, maximum: 1 }'],
    ["a decimal bound that is a multiple", "{ type: number, multipleOf: 0.1, minimum: 0.3, maximum: 0.3 }"],
    ["null beside a format longer than maxLength", '{ type: [string, "null"], format: uuid, maxLength: 10 }'],
    ["a const among its allOf part's enum", "{ allOf: [{ enum: [a, b] }, { const: b }] }"],
    ["a pattern that fits maxLength", '{ type: string, maxLength: 3, pattern: "^abc$" }'],
    ["minProperties on an open object", "{ type: object, properties: { a: { type: string } }, additionalProperties: true, minProperties: 2 }"],
  ])("still compiles: %s", (_name, schema) => {
    expect(compile(tool(`  type: object\n  properties:\n    v: ${schema}`)).lines).toEqual([]);
  });

  it("also in input, located at the keyword", () => {
    const { lines } = compile(tool("  type: object", "{ type: object, properties: { n: { type: integer, minimum: 9, maximum: 1 } } }"));
    expect(lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:5:67: error TC026: `minimum: 9`/)]);
  });
});
