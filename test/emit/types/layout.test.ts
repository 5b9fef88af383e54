/**
 * Type files are written in their final layout, without a formatter. The
 * layout is prettier's for the shapes toolc renders, so prettier (in toolc's
 * fixed style) is the oracle here: it must leave every file unchanged.
 */
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { FileBuilder } from "../../../generator/printer/file-builder.js";
import { schemaToType } from "../../../generator/emit/types/index.js";
import { layoutType, typeAliasText } from "../../../generator/printer/types/layout.js";
import { keyword, objectOf, property, scalarLiteral, unionOf } from "../../../generator/printer/types/node.js";
import type { JsonObject } from "../../../generator/ir.js";
import { FORMAT_OPTIONS } from "../../../generator/format/prettier.js";
import { testContext } from "./helpers.js";

const LONG_ENUM = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const object = (properties: Record<string, unknown>, required: string[] = []): JsonObject => ({ type: "object", properties, required, additionalProperties: false }) as JsonObject;

const SHAPES: Record<string, JsonObject> = {
  "a long enum": { enum: LONG_ENUM },
  "a short enum": { enum: ["a", "b"] },
  "an array of a long enum": { type: "array", items: { enum: LONG_ENUM } },
  "a union of objects": { oneOf: [object({ a: { type: "string" } }, ["a"]), object({ b: { type: "integer" } }, ["b"])] },
  "an array of a union with an object": { type: "array", items: { anyOf: [object({ a: { type: "string" } }), { type: "string" }] } },
  "a nullable object": { type: ["object", "null"], properties: { x: { type: "integer" } }, additionalProperties: false },
  "nested objects with long unions, docs and odd keys": object({
    deeper: object({
      kind: { enum: ["first_option_value", "second_option_value", "third_option_value", "fourth"], description: "Which one.\n\nSecond paragraph." },
      "quoted-key": { type: "string", description: "A long description that goes on and on past the eighty column limit." },
      // A computed key in this literal is an own property, not the prototype.
      ["__proto__"]: { enum: LONG_ENUM },
      maybe: { type: ["object", "null"], properties: { x: { enum: LONG_ENUM } }, additionalProperties: false },
    }),
    map: { type: "object", additionalProperties: { enum: LONG_ENUM } },
    tuple: { type: "array", prefixItems: [{ type: "string" }, { enum: LONG_ENUM }], minItems: 2, items: false },
    constant: { const: { a: 1, b: "x" } },
  }),
  // An empty tuple that does not fit after its key stays `[]`: there is nothing to break.
  "an empty tuple after a long key": object({ ["k".repeat(76)]: { type: "array", items: false } }, ["k".repeat(76)]),
};

async function assertPrettierStable(text: string): Promise<void> {
  expect(await prettier.format(text, { ...FORMAT_OPTIONS, parser: "typescript" })).toBe(text);
}

describe("type layout", () => {
  it.each(Object.entries(SHAPES))("writes %s as prettier would, at the top level and as a member", async (_label, schema) => {
    const builder = new FileBuilder("tools/x.ts", "// header");
    const type = schemaToType(schema, testContext());
    builder.add({ kind: "typeAlias", name: "Top", type, docs: ["Doc."] });
    builder.add({ kind: "typeAlias", name: "AsMember", type: schemaToType(object({ member: schema, other: { type: "string" } }, ["member"]), testContext()) });
    await assertPrettierStable(builder.toText());
  });

  it("breaks a union one member per line only when it does not fit", () => {
    expect(typeAliasText("Short", unionOf([scalarLiteral("a"), scalarLiteral("b")]))).toBe('export type Short = "a" | "b";');
    const long = unionOf(LONG_ENUM.map(scalarLiteral));
    expect(typeAliasText("Long", long)).toBe(`export type Long =\n${LONG_ENUM.map((v) => `  | "${v}"`).join("\n")};`);
  });

  it("keeps an object with null together instead of breaking the union", () => {
    const nullable = unionOf([objectOf([property("a", keyword("string"))]), keyword("null")]);
    expect(layoutType(nullable, "  ", 10, 1)).toEqual({ text: "{\n    a: string;\n  } | null", broken: false });
  });
});
