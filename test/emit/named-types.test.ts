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
      kind: {
        anyOf: [
          { const: "circle" },
          { type: "object", properties: { sides: { type: "integer", minimum: 3 } }, required: ["sides"], additionalProperties: false },
        ],
      },
      label: { type: "string", maxLength: 5 },
    },
    required: ["kind"],
    additionalProperties: false,
  },
  Cat: {
    type: "object",
    properties: { kind: { const: "cat" }, name: { type: "string", minLength: 1 }, lives: { type: "integer", minimum: 0, maximum: 9 } },
    required: ["kind", "name"],
    additionalProperties: false,
  },
  Dog: {
    type: "object",
    properties: { kind: { const: "dog" }, name: { type: "string", minLength: 1 }, good: { type: "boolean" } },
    required: ["kind", "name"],
    additionalProperties: false,
  },
  Node: {
    type: "object",
    properties: { weight: { type: "integer", minimum: 0, default: 1 }, label: { type: "string", maxLength: 8 }, next: { $ref: "#/$defs/Node" } },
    additionalProperties: false,
  },
  Tree: {
    type: "object",
    properties: { name: { type: "string", minLength: 1 }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
    required: ["name"],
    additionalProperties: false,
  },
};
TYPES["Basket"] = {
  type: "object",
  properties: { lines: { type: "array", items: { $ref: "#/$defs/Item" } }, shape: { anyOf: [{ $ref: "#/$defs/Shape" }, { type: "null" }] } },
  required: ["lines"],
};
TYPES["Open"] = {
  type: "object",
  properties: { a: { type: "string", minLength: 2 }, b: { type: "integer", maximum: 100 }, c: { type: "boolean" } },
  additionalProperties: true,
};
/** The tool's own `$defs`: calls are made inside one the output reaches (never an input's: see call-sites.ts), not inside one a `not` reaches. */
const LOCAL: JsonObject = {
  Local: {
    type: "object",
    properties: { inner: { $ref: "#/$defs/Shape" }, maybeTree: { anyOf: [{ $ref: "#/$defs/Tree" }, { type: "null" }] }, again: { $ref: "#/$defs/Local" } },
  },
  Blocked: { type: "object", properties: { inner2: { $ref: "#/$defs/Shape" } }, required: ["inner2"] },
};
const ORIGINS: Record<string, DefOrigin> = {
  ...Object.fromEntries(Object.keys(TYPES).map((name) => [name, { kind: "named", name, module: "types" } as const])),
  ...Object.fromEntries(Object.keys(LOCAL).map((name) => [name, { kind: "local", schema: "output", name } as const])),
};

/**
 * A tool using every type: in arrays, as a property, in maps (keys that need
 * escaping in a pointer), below a union (nullable, and a union of types), in
 * a tagged union (compiled in place there: the discriminator reads its
 * branches), recursively; below a union, the input's Item (which has a
 * default) is compiled in place and the output's is called.
 */
const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    items: { type: "array", items: { $ref: "#/$defs/Item" }, maxItems: 4 },
    main: { $ref: "#/$defs/Item", description: "the main item" },
    shape: { $ref: "#/$defs/Shape" },
    either: { anyOf: [{ $ref: "#/$defs/Shape" }, { type: "null" }] },
    shapeOrTrees: { oneOf: [{ $ref: "#/$defs/Shape" }, { type: "array", items: { $ref: "#/$defs/Tree" } }, { type: "integer" }] },
    maybeNode: { anyOf: [{ type: "null" }, { $ref: "#/$defs/Node" }] },
    pet: { oneOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
    local: { $ref: "#/$defs/Local" },
    basket: { $ref: "#/$defs/Basket" },
    notBlocked: { not: { $ref: "#/$defs/Blocked" } },
    // In place below unevaluatedProperties, Open stays in place (Ajv must see what it evaluated); a property's value is another value.
    closed: { type: "object", allOf: [{ $ref: "#/$defs/Open" }], properties: { friend: { $ref: "#/$defs/Tree" } }, unevaluatedProperties: false },
    tree: { $ref: "#/$defs/Tree" },
    kind: { anyOf: [{ type: "integer" }, { type: "boolean" }] },
    byKey: { type: "object", additionalProperties: { $ref: "#/$defs/Item" }, patternProperties: { "^x-": { $ref: "#/$defs/Shape" } } },
  },
  required: ["items"],
  additionalProperties: false,
  $defs: { ...TYPES, ...LOCAL },
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
  { items: [], shapeOrTrees: { kind: "circle", label: "toolong" }, maybeNode: { weight: 2.5, next: {} }, pet: { kind: "cat", name: "" } },
  { items: [], shapeOrTrees: [{ name: "a" }, { name: "" }], maybeNode: null, pet: { kind: "dog", name: "rex", good: "yes" } },
  { items: [], shapeOrTrees: [{ name: "a", children: [] }], maybeNode: { next: { next: { label: "x" } } }, pet: { kind: "cow", name: "x" } },
  { items: [], shapeOrTrees: 2.5, maybeNode: { label: "much too long", next: 1 }, pet: { name: "x", lives: 10 } },
  { items: [], shapeOrTrees: { kind: { sides: 4 } }, maybeNode: 7, pet: { kind: "cat", name: "tom", lives: 3 } },
  { items: [], local: { inner: { kind: "square" }, maybeTree: { name: "" }, again: { inner: { kind: "circle", label: "toolong" }, again: 3 } } },
  { items: [], local: { maybeTree: null, again: { maybeTree: { name: "x", children: [{}] } } }, notBlocked: { inner2: { kind: "circle" } } },
  { items: [], notBlocked: { inner2: { kind: 7 } }, closed: { a: "x", b: 101, friend: { name: "" }, other: 1 } },
  { items: [], notBlocked: 1, closed: { a: "xy", c: true, friend: { name: "t", children: [] } } },
  { items: [], basket: { lines: [item("it_1"), item("x", { quantity: -2 })], shape: { kind: "circle", label: "toolong" } } },
  { items: [], basket: { lines: [item("it_1")], shape: null } },
  { items: [], basket: { shape: 3 } },
];

function tool(name: string): ToolIR {
  return {
    name,
    source: `${name}.yaml`,
    inputSchema: SCHEMA,
    outputSchema: SCHEMA,
    inputDefs: ORIGINS,
    outputDefs: ORIGINS,
  } as unknown as ToolIR;
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
let typesText = "";

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
  const ir = {
    tools: [t],
    typeFiles: [{ source: "types.yaml", module: "types", types: Object.entries(TYPES).map(([name, schema]) => ({ name, schema })) }],
  } as unknown as ContractIR;
  const [toolFile] = emitValidators(t, "// test");
  sharedText = toolFile?.text ?? "";
  write("validators/uses_types.js", sharedText);
  for (const file of emitSharedValidators(ir, () => "// test")) {
    if (file.path === "validators/types/types.ts") typesText = file.text;
    write(file.path.replace(/\.ts$/, ".js"), file.text);
  }
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
  it("are called: Item (with and without defaults), Shape and Tree, also below a union; a tagged union's branches and a default below a union stay in place", () => {
    expect(sharedText).toContain("types$types.validateItem_withDefaults");
    expect(sharedText).toContain("types$types.validateItem;");
    expect(sharedText).toContain("types$types.validateShape");
    expect(sharedText).toContain("types$types.validateTree");
    // Status is too small to pay for a call; inside Item it is compiled in the shared module.
    expect(sharedText).not.toContain("validateStatus");
    // Item is used at two places in each validator: one constant names its function.
    expect(sharedText.match(/= types\$types\.validateItem;/g)).toHaveLength(1);
    expect(sharedText.match(/= types\$types\.validateItem_withDefaults;/g)).toHaveLength(1);
    const [input, output] = sharedText.split("\nexport const validateOutput");
    for (const text of [input ?? "", output ?? ""]) {
      // Shape is called in each union branch that names it, and Tree below one, as items.
      const nested = (path: string) =>
        text.match(new RegExp(`vErrors = func\\d+\\(vErrors, func\\d+\\.errors, (?:instancePath\\+)?${path}\\)`, "g"))?.length ?? 0;
      expect(nested('"/either"')).toBe(1);
      expect(nested('"/shapeOrTrees"')).toBe(1);
      expect(nested('"/shapeOrTrees/" \\+ i\\d+')).toBe(1);
      // The tagged union is decided by Ajv's discriminator, in place.
      expect(text).not.toContain("validateCat");
      expect(text).toContain('"/pet","discriminator",{error: "mapping"');
    }
    // The output's Local calls Shape and Tree (below its union); the input's is left as it is; Blocked (below not) is left in both.
    expect(output).toMatch(/vErrors = func\d+\(vErrors, func\d+\.errors, instancePath\+"\/inner"\)/);
    expect(output).toMatch(/vErrors = func\d+\(vErrors, func\d+\.errors, instancePath\+"\/maybeTree"\)/);
    expect(input).not.toMatch(/func\d+\.errors, instancePath\+"\/inner"/);
    expect(sharedText).not.toMatch(/func\d+\.errors, [^)]*"\/inner2"/);
    // Below unevaluatedProperties, Open (in place) is compiled there, and the friend's Tree called.
    expect(sharedText).not.toContain("validateOpen");
    expect(output).toMatch(/vErrors = func\d+\(vErrors, func\d+\.errors, instancePath\+"\/closed\/friend"\)/);
    // Below a union, Ajv applies a default only where it compiles a function: the input's Node there stays in place, the output's is called.
    expect(input).not.toContain("validateNode");
    expect(output).toMatch(/vErrors = func\d+\(vErrors, func\d+\.errors, (?:instancePath\+)?"\/maybeNode"\)/);
  });

  it("call the named types they use in turn, through the namespace of the module, at each call (modules may import each other in a cycle)", () => {
    expect(typesText).toContain('import * as types$types from "./types.js";');
    // Basket calls Item and Shape (below its union); Tree and Node call themselves. An input's Basket (Item has a default) is compiled in place.
    expect(typesText).toMatch(/export const validateBasket: [^\n]*= types\$types;[^\n]*if\(!func\d+\.validateItem\([^\n]*if\(!func\d+\.validateShape\(/);
    expect(typesText).toMatch(/export const validateTree: [^\n]*if\(!func\d+\.validateTree\(/);
    expect(typesText).toMatch(/export const validateNode: [^\n]*if\(!func\d+\.validateNode\(/);
    expect(typesText).toMatch(/export const validateBasket_withDefaults: (?:(?!func\d+\.validate)[^\n])*\n/);
    expect(typesText).not.toMatch(/= types\$types\.validate/);
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
