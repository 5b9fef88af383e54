/**
 * The conditions on which toolc rewrites Ajv's standalone output
 * (generator/emit/validators/rewrite.ts; docs/architecture.md): a rewrite
 * whose precondition does not match leaves the code exactly as Ajv wrote it,
 * the scanner skips regex literals as it skips strings (Ajv writes
 * `.replace(/~/g, "~0")`), and Ajv's raw output for a fixed schema set is a
 * committed snapshot, so an Ajv upgrade that changes it fails here and is
 * reviewed rather than discovered.
 */
import { describe, expect, it } from "vitest";
import { standaloneModule } from "../../generator/emit/validators.js";
import { compactErrorSites, dropUnusedSchemas, simplifyRootSignature } from "../../generator/emit/validators/rewrite.js";
import type { JsonObject } from "../../generator/ir.js";

const SIGNATURE = 'function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';

describe("a rewrite whose precondition does not match leaves Ajv's code as it is", () => {
  it.each([
    [
      "simplifyRootSignature, a signature Ajv does not write today",
      simplifyRootSignature,
      'function validate10(data, {instancePath="", parentData}={}){return instancePath+"/a";}',
    ],
    ["simplifyRootSignature, two validate functions", simplifyRootSignature, `${SIGNATURE}return validate11(data);}function validate11(data){return true;}`],
    ["simplifyRootSignature, the root called with a context", simplifyRootSignature, `${SIGNATURE}return validate10(data.a, {instancePath});}`],
    [
      "compactErrorSites, an error object not appended as Ajv appends it",
      compactErrorSites,
      'const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"};errors.push(err0);',
    ],
    [
      "dropUnusedSchemas, a schema constant still read",
      dropUnusedSchemas,
      'const schema31 = {"type":"string"};function validate10(data){return schema31.type;}',
    ],
    ["dropUnusedSchemas, a schema literal that never ends", dropUnusedSchemas, 'const schema31 = {"type":"string";'],
  ])("%s", (_, rewrite, code) => {
    expect(rewrite(code)).toBe(code);
  });
});

describe("the scanner skips regex literals", () => {
  it("folds instancePath past a regex holding a quote and a bracket, as past a string", () => {
    const body = 'const key = String(data.k).replace(/["(]/g, "~0").replace(/~/g, "~1");if(!key){return instancePath+"/k";}return true;}';
    expect(simplifyRootSignature(`${SIGNATURE}${body}`)).toBe(`function validate10(data){${body.replace('instancePath+"/k"', '"/k"')}`);
  });

  it("reads an identifier inside a regex literal as no use of it", () => {
    const code = `${SIGNATURE}if(/parentData/.test(String(data))){return instancePath+"/x";}return true;}`;
    expect(simplifyRootSignature(code)).toBe('function validate10(data){if(/parentData/.test(String(data))){return "/x";}return true;}');
  });

  it("keeps a division a division", () => {
    const code = `${SIGNATURE}const half = data.n / 2;if(half > 1 / 3){return instancePath+"/n";}return true;}`;
    expect(simplifyRootSignature(code)).toBe('function validate10(data){const half = data.n / 2;if(half > 1 / 3){return "/n";}return true;}');
  });
});

/** One schema per construct whose compiled form toolc rewrites or reads: bounds, enums, formats, patterns, $refs, property names (Ajv's /~/g escapes), unions. */
const SCHEMAS: readonly JsonObject[] = [
  {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^ord_[A-Za-z0-9]+$", minLength: 1, maxLength: 64 },
      total: { type: "number", minimum: 0, multipleOf: 0.01 },
      status: { enum: ["pending", "paid"] },
      at: { type: "string", format: "date-time" },
      items: { type: "array", items: { $ref: "#/$defs/Item" }, maxItems: 10, uniqueItems: true },
      note: { type: ["string", "null"] },
    },
    required: ["id", "total"],
    additionalProperties: false,
    $defs: { Item: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"], additionalProperties: false } },
  },
  { type: "object", additionalProperties: { type: "integer" }, propertyNames: { pattern: "^[a-z/~]+$" } },
  { oneOf: [{ type: "string" }, { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] }] },
];

describe("Ajv's raw standalone output", () => {
  it("is the committed snapshot: an Ajv upgrade that changes it is reviewed, and the rewrites re-checked, before the snapshot is updated", async () => {
    const raw = standaloneModule(
      SCHEMAS.map((schema, i) => ({ exportName: `validate${i}`, schema, applyDefaults: false, validateSchema: false })),
      "js",
      [],
    );
    await expect(raw).toMatchFileSnapshot("./__snapshots__/ajv-raw-standalone.js.snap");
  });
});
