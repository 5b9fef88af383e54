/**
 * Named types compiled once into validators/types/<module>.ts and called from
 * each tool's validator (generator/emit/validators/named-types.ts) must
 * validate exactly as the same schema compiled in place: the same verdicts,
 * defaults, errors (instancePath, keyword, params, in order) and issues. Each
 * case also checks that the call is really made, so the comparison cannot
 * pass by both sides compiling in place.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitSharedValidators, emitValidators, standaloneModule } from "../../generator/emit/validators.js";
import type { ContractIR, DefOrigin, JsonObject, ToolIR } from "../../generator/ir.js";
import { toIssues } from "../../generator/runtime/issues.js";
import { copyJson } from "../../generator/runtime/json.js";
import type { ValidationError } from "../../generator/runtime/contract.js";
import { toJs, writeValidatorRuntime } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;

const TYPES: JsonObject = {
  Status: { enum: ["pending", "active", "suspended", "closed"] },
  Item: {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^it_[A-Za-z0-9]+$" },
      status: { $ref: "#/$defs/Status" },
      quantity: { type: "integer", minimum: 0, default: 1 },
      updatedAt: { type: "string", format: "date-time" },
    },
    required: ["id", "status"],
    additionalProperties: false,
  },
  Shape: {
    type: "object",
    properties: {
      kind: { anyOf: [{ const: "circle" }, { type: "object", properties: { sides: { type: "integer", minimum: 3 } }, required: ["sides"], additionalProperties: false }] },
      label: { type: "string", maxLength: 5 },
    },
    required: ["kind"],
    additionalProperties: false,
  },
  Tree: {
    type: "object",
    properties: { name: { type: "string", minLength: 1 }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
    required: ["name"],
    additionalProperties: false,
  },
};
const ORIGINS: Record<string, DefOrigin> = Object.fromEntries(Object.keys(TYPES).map((name) => [name, { kind: "named", name, module: "types" }]));

/** A tool using every type: in arrays, as a property, in maps (keys that need escaping in a pointer), below its own union (compiled in place there), recursively. */
const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    items: { type: "array", items: { $ref: "#/$defs/Item" }, maxItems: 4 },
    main: { $ref: "#/$defs/Item", description: "the main item" },
    shape: { $ref: "#/$defs/Shape" },
    either: { anyOf: [{ $ref: "#/$defs/Shape" }, { type: "null" }] },
    tree: { $ref: "#/$defs/Tree" },
    kind: { anyOf: [{ type: "integer" }, { type: "boolean" }] },
    byKey: { type: "object", additionalProperties: { $ref: "#/$defs/Item" }, patternProperties: { "^x-": { $ref: "#/$defs/Shape" } } },
  },
  required: ["items"],
  additionalProperties: false,
  $defs: TYPES,
};

const item = (id: string, extra: JsonObject = {}): JsonObject => ({ id, status: "active", ...extra });
const VALUES: unknown[] = [
  {},
  { items: [] },
  { items: [item("it_1"), item("it_2", { quantity: 3 })] },
  { items: [item("it_1"), item("bad", { status: "lost", quantity: -1, extra: 1 }), {}, 7] },
  { items: [item("it_1", { updatedAt: "2026-02-30T10:00:00Z" })], main: item("x") },
  { items: [], main: { status: "active" }, shape: { kind: "circle", label: "toolong" } },
  { items: [], shape: { kind: { sides: 2 } }, either: { kind: "square" } },
  { items: [], either: { kind: { sides: 3, extra: true } }, kind: "x" },
  { items: [], shape: { kind: "square" }, kind: "y" },
  { items: [], tree: { name: "a", children: [{ name: "" }, { name: "b", children: [{ nope: 1 }] }] } },
  { items: "no", main: 1, shape: null, tree: [] },
  { items: [], byKey: { "a/b~c": item("bad"), ok: item("it_9"), "x-1": { kind: "square" }, "": {} } },
];

function tool(name: string): ToolIR {
  return { name, fileName: name, source: `${name}.yaml`, inputSchema: SCHEMA, outputSchema: SCHEMA, inputDefs: ORIGINS, outputDefs: ORIGINS } as unknown as ToolIR;
}

type Fn = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };
interface Pair {
  readonly validateInput: Fn;
  readonly validateOutput: Fn;
}
let dir: string;
let shared: Pair;
let inPlace: Pair;
let sharedText: string;

function write(path: string, ts: string): void {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, toJs(ts, path.replace(/\.js$/, ".ts")));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolc-named-types-"));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeValidatorRuntime(dir);
  const t = tool("uses_types");
  const ir = { tools: [t], typeFiles: [{ source: "types.yaml", module: "types", types: Object.entries(TYPES).map(([name, schema]) => ({ name, schema })) }] } as unknown as ContractIR;
  const [toolFile] = emitValidators(t, "// test");
  sharedText = toolFile?.text ?? "";
  write("validators/uses_types.js", sharedText);
  for (const file of emitSharedValidators(ir, () => "// test")) write(file.path.replace(/\.ts$/, ".js"), file.text);
  const entries = [
    { exportName: "validateInput", schema: SCHEMA, applyDefaults: true, validateSchema: false },
    { exportName: "validateOutput", schema: SCHEMA, applyDefaults: false, validateSchema: false },
  ];
  write("validators/in_place.js", standaloneModule(entries, "ts"));
  shared = (await import(pathToFileURL(join(dir, "validators/uses_types.js")).href)) as Pair;
  inPlace = (await import(pathToFileURL(join(dir, "validators/in_place.js")).href)) as Pair;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strip = (errors: Fn["errors"]) => (errors ?? []).map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params }));

describe("named types compiled once and called", () => {
  it("are called: Item (with and without defaults), Shape and Tree; a ref below a union stays in place", () => {
    expect(sharedText).toContain("types$types.validateItem_withDefaults");
    expect(sharedText).toContain("types$types.validateItem;");
    expect(sharedText).toContain("types$types.validateShape");
    expect(sharedText).toContain("types$types.validateTree");
    // Status is too small to pay for a call; inside Item it is compiled in the shared module.
    expect(sharedText).not.toContain("validateStatus");
    expect(sharedText).toContain('"/either"');
    // Item is used at two places in each validator: one constant names its function.
    expect(sharedText.match(/= types\$types\.validateItem;/g)).toHaveLength(1);
    expect(sharedText.match(/= types\$types\.validateItem_withDefaults;/g)).toHaveLength(1);
  });

  for (const kind of ["validateInput", "validateOutput"] as const) {
    it(`${kind}: same verdicts, defaults, errors and issues as the schema compiled in place`, () => {
      for (const value of VALUES) {
        const ours = (copyJson(value) as { value: unknown }).value;
        const theirs = (copyJson(value) as { value: unknown }).value;
        const verdict = shared[kind](ours);
        const label = JSON.stringify(value);
        expect(verdict, label).toBe(inPlace[kind](theirs));
        expect(ours, label).toEqual(theirs);
        if (verdict) continue;
        expect(strip(shared[kind].errors), label).toEqual(strip(inPlace[kind].errors));
        expect(toIssues(shared[kind].errors, ours), label).toEqual(toIssues(inPlace[kind].errors ?? null, theirs));
      }
    });
  }

  it("apply an item's default in inputs only", () => {
    const input = (copyJson({ items: [item("it_1")] }) as { value: { items: JsonObject[] } }).value;
    const output = (copyJson({ items: [item("it_1")] }) as { value: { items: JsonObject[] } }).value;
    expect(shared.validateInput(input) && shared.validateOutput(output)).toBe(true);
    expect(input.items[0]?.["quantity"]).toBe(1);
    expect(output.items[0]?.["quantity"]).toBeUndefined();
  });
});
