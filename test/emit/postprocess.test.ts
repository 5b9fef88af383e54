/**
 * The validators' post-processing of Ajv's standalone code (inlined refs,
 * error helper, call-free root signature, schemaPath only under unions)
 * keeps what the runtime sees: for each schema and
 * value, the generated module gives the same verdict, the same errors
 * (instancePath, keyword, params) and the same issues as Ajv compiling the
 * same schema in process, without any of it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { withDiscriminators } from "../../generator/discriminators.js";
import { standaloneModule } from "../../generator/emit/validators.js";
import type { JsonObject } from "../../generator/ir.js";
import { toIssues } from "../../generator/runtime/issues.js";
import { writeValidatorRuntime } from "../helpers/transpile.js";
import type { ValidationError } from "../../generator/runtime/contract.js";

const ROOT = new URL("../../", import.meta.url).pathname;

const ITEM: JsonObject = {
  type: "object",
  properties: { id: { type: "string", pattern: "^it_[A-Za-z0-9]+$" }, status: { $ref: "#/$defs/Status" }, qty: { type: "integer", minimum: 0 }, at: { type: "string", format: "date-time" } },
  required: ["id", "status"],
  additionalProperties: false,
};

/** [name, schema, applyDefaults, values] */
const CASES: [string, JsonObject, boolean, unknown[]][] = [
  [
    "nested refs in array items (inlined)",
    {
      type: "object",
      properties: { items: { type: "array", items: { $ref: "#/$defs/Item" } }, next: { type: ["string", "null"] }, name: { type: "string", minLength: 2, maxLength: 4 } },
      required: ["items"],
      additionalProperties: false,
      $defs: { Item: ITEM, Status: { enum: ["a", "b"] } },
    },
    false,
    [
      { items: [] },
      { items: [{ id: "it_1", status: "a", qty: 1, at: "2026-01-01T00:00:00Z" }], next: null, name: "ab" },
      { items: [{ id: "x", status: "c", qty: -1, at: "2026-02-30T00:00:00Z", extra: 1 }, 5], next: 3, name: "a" },
      { items: [{}], name: "abcde" },
      { name: "\u{1F600}\u{1F600}" },
      { name: "\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}" },
      [],
      null,
    ],
  ],
  [
    "recursive ref (stays a function)",
    { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, required: ["name"], additionalProperties: false },
    false,
    [{ name: "a" }, { name: "a", children: [{ name: "b", children: [{}] }, { name: 1 }] }, { children: [] }],
  ],
  [
    "unions keep their branch errors filtered",
    {
      type: "object",
      properties: {
        reason: { anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }], default: null },
        filter: {
          oneOf: [
            { type: "object", properties: { kind: { const: "id" }, id: { $ref: "#/$defs/Id" } }, required: ["kind", "id"], additionalProperties: false },
            { type: "object", properties: { kind: { const: "q" }, q: { type: "string" } }, required: ["kind", "q"], additionalProperties: false },
          ],
        },
      },
      additionalProperties: false,
      $defs: { Id: { type: "string", minLength: 1 } },
    },
    true,
    [{}, { reason: "abcd" }, { reason: 1, filter: { kind: "id", id: "" } }, { filter: { kind: "q", id: "x" } }, { filter: { kind: "id", id: "x" } }],
  ],
  [
    "defaults, bounds and a shared small ref",
    {
      type: "object",
      properties: { a: { $ref: "#/$defs/S" }, b: { $ref: "#/$defs/S" }, n: { type: "integer", minimum: 1, maximum: 9, default: 5 }, tags: { type: "array", items: { type: "string", maxLength: 2 }, uniqueItems: true, maxItems: 3 } },
      additionalProperties: false,
      $defs: { S: { type: "object", properties: { v: { $ref: "#/$defs/V" } }, additionalProperties: false }, V: { enum: [1, 2] } },
    },
    true,
    [{}, { a: { v: 1 }, b: { v: 3 }, n: 0 }, { tags: ["a", "a", "abc", "b"] }, { a: [], b: { w: 1 } }],
  ],
];

type Fn = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; params: unknown; schemaPath?: string }[] | null };
let dir: string;
const generated: Fn[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolc-postprocess-"));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeValidatorRuntime(dir);
  mkdirSync(join(dir, "validators"));
  for (const [i, [, schema, applyDefaults]] of CASES.entries()) {
    writeFileSync(join(dir, `validators/v${i}.js`), standaloneModule([{ exportName: "validate", schema, applyDefaults }]));
    generated.push((await import(pathToFileURL(join(dir, `validators/v${i}.js`)).href)).validate);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strip = (errors: Fn["errors"]) => (errors ?? []).map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params }));

describe("validator post-processing", () => {
  it.each(CASES.map((c, i) => [c[0], i] as const))("%s: same verdicts, errors and issues as in-process Ajv", (_, i) => {
    const [, schema, applyDefaults, values] = CASES[i];
    // In process, as toolc compiles a schema everywhere: tagged unions decided by their tag (generator/discriminators.ts).
    const reference = createAjv({ applyDefaults }).compile(withDiscriminators(structuredClone(schema)) as object);
    const validate = generated[i];
    for (const value of values) {
      const ours = structuredClone(value);
      const theirs = structuredClone(value);
      const verdict = validate(ours);
      expect(verdict, JSON.stringify(value)).toBe(reference(theirs));
      expect(ours, "defaults applied the same").toEqual(theirs);
      if (verdict) {
        expect(validate.errors).toBeNull();
        continue;
      }
      expect(strip(validate.errors), JSON.stringify(value)).toEqual(strip(reference.errors as Fn["errors"]));
      expect(toIssues(validate.errors as ValidationError[] | null, ours), JSON.stringify(value)).toEqual(toIssues(reference.errors, theirs));
    }
  });

  it("resets errors to null after a valid call that follows an invalid one", () => {
    const validate = generated[0];
    expect(validate({ items: 1 })).toBe(false);
    expect(validate.errors).not.toBeNull();
    expect(validate({ items: [] })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});
