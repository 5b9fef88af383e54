/**
 * `contracts.ts`: every tool's compiled contract constant, joining the served
 * schemas, the policy and the loader of its precompiled validators.
 *
 * One module rather than one per tool: a server imports all of them before
 * it can answer tools/list, and Node pays a fixed cost per module loaded
 * (about twice the cost of evaluating one large module holding the same
 * data, at 500 tools). The text is written here already formatted, the way
 * the validators are, because the file grows with the number of tools and
 * changes whenever any contract does: running prettier over it on every edit
 * would cost seconds.
 *
 * A served schema several tools serve alike, and a `$defs` entry two or
 * more distinct served schemas hold alike (a named type every tool that uses
 * it bundles), are written once, as constants the contracts and schemas
 * refer to: at API scale (GitHub's 1,223 tools) the same component would
 * otherwise be written hundreds of times. The served value is the same
 * (test/emit/contracts-shared-defs.test.ts), and the runtime never changes a
 * served schema (it reads them, and hands tools/list the contract's own
 * objects), so the tools may hold one object. An error table several tools
 * declare alike (an import's generic 404/409/422/4xx entries) is a constant
 * too, named by its text's hash (`errors_<hash>`), which the runtime only
 * reads as well. A contract's `annotations` (its title and hints, derived
 * from its title, effect, idempotence and `openWorld`) and an empty
 * `sensitive` are not written: each constant is `toolContract({...})`
 * (runtime/contract.ts), which adds them at load, in their place.
 *
 * Past `CONTRACTS_PART_BYTES` the module is split (`emitContractsFiles`):
 * the shared entries and error tables into `contracts/defs-<n>.ts`, the shared schemas (which
 * import the entries they use) into `contracts/schemas-<n>.ts`, the contracts in tools/list
 * order into `contracts/tools-<n>.ts`, each part under the budget, and
 * `contracts.ts` re-exports them. A reviewer's tool will not open a 7 MB file
 * (GitHub's 1,223 tools, #42); a server still loads every part at start-up,
 * a handful of modules at that scale, and a project under the budget keeps
 * its one file.
 */
import type { ContractIR, EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { code, FileBuilder, joinCode, typeSymbol, type Code } from "../printer/file-builder.js";
import { runtimeValue } from "./runtime-symbols.js";
import { headerComment } from "../printer/header.js";
import { jsDoc, literal, LiteralReference } from "../printer/literal.js";
import { hashText } from "../hash.js";
import { policyOf } from "./schemas-json.js";
import { toolTypeNames } from "./types.js";
import { toolExportNames, toolFileName, toolTypeName } from "./ts-names.js";
import { toolCodePlaces, type ToolCodePlace } from "./tool-code/groups.js";

/** The largest `contracts.ts` written as one file, in bytes (UTF-16 units, as printed); past it, the module is split. */
export const CONTRACTS_PART_BYTES = 900_000;

/** The parts' folder beside `contracts.ts`. */
const PARTS_FOLDER = "contracts";

/** Where the output folder's root is, seen from the file being printed: `./` from contracts.ts, `../` from a part. */
type Up = "./" | "../";

const toolContractType = (up: Up) => typeSymbol("ToolContract", `${up}runtime/contract.js`);
const schemaObjectType = (up: Up) => typeSymbol("JsonSchemaObject", `${up}runtime/contract.js`);

/** How a shared constant is written where it is used: its name in one file, an import from its part in a split. */
type DefReference = (constant: string) => string;

/** A constant written once and referred to: its name and the value it holds. */
interface SharedConstant {
  readonly name: string;
  readonly value: JsonObject;
}

/** A shared constant's declaration, and its size for packing it into a part. */
interface SharedStatement {
  readonly name: string;
  readonly statement: Code;
  readonly bytes: number;
}

/**
 * The served schemas shorter than this (as JSON) stay in place even when
 * several tools serve them: `{ type: "object", additionalProperties: false }`
 * reads better where it is than as a constant named after another tool, and
 * the name saves little. Longer, a constant saves what a reviewer reads too.
 */
const SHARED_SCHEMA_CHARS = 120;

/**
 * A tool's error table (`errors`: each rejection reason and what it means)
 * shorter than this (as JSON) stays in place even when other tools declare
 * the same one, for the reason a short schema does. An API's import gives
 * most operations the same few generic entries (404, 409, 422, other 4xx):
 * GitHub's 1,223 tools declare 190 distinct tables, 0.56 MB written per tool.
 */
const SHARED_ERRORS_CHARS = 120;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What two or more contracts hold alike, written once as constants: a served
 * schema several tools serve identically (GitHub's 1,223 tools serve 466
 * distinct output and 727 distinct input schemas) unless it is short, and a
 * `$defs` entry two or more distinct served schemas hold alike (a named type
 * every schema that uses it bundles). A shared schema's constant is named
 * after the first tool that serves it.
 */
class SharedDefs {
  readonly #defs = new Map<string, SharedConstant>();
  readonly #schemas = new Map<string, SharedConstant>();
  readonly #errors = new Map<string, { name: string; value: JsonObject }>();
  readonly #taken = new Set<string>();

  constructor(tools: readonly ToolIR[]) {
    // Each distinct served schema, with how many times the tools serve it and the first that does.
    const schemas = new Map<string, { uses: number; value: JsonObject; name: string }>();
    for (const tool of tools)
      for (const [side, schema] of [
        ["Input", tool.inputSchema],
        ["Output", tool.outputSchema],
      ] as const) {
        const key = JSON.stringify(schema);
        const known = schemas.get(key);
        if (known === undefined) schemas.set(key, { uses: 1, value: schema, name: `${toolTypeName(tool)}${side}` });
        else known.uses++;
      }
    const defUses = new Map<string, number>();
    for (const { value } of schemas.values()) for (const [key] of defEntries(value)) defUses.set(key, (defUses.get(key) ?? 0) + 1);
    for (const { value } of schemas.values())
      for (const [key, name, entry] of defEntries(value))
        if (defUses.get(key)! >= 2 && !this.#defs.has(key)) this.#defs.set(key, { name: this.#unique(`def_${name}`), value: entry });
    for (const [key, { uses, value, name }] of schemas)
      if (uses >= 2 && key.length > SHARED_SCHEMA_CHARS) this.#schemas.set(key, { name: this.#unique(`schema_${name}`), value });
    // Each error table two or more tools declare alike, named by its text's hash: a tool's edit renames no other's.
    const tables = new Map<string, { uses: number; value: JsonObject }>();
    for (const tool of tools) {
      const value = errorTable(tool);
      const key = JSON.stringify(value);
      const known = tables.get(key);
      if (known === undefined) tables.set(key, { uses: 1, value });
      else known.uses++;
    }
    for (const [key, { uses, value }] of [...tables].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      if (uses >= 2 && key.length > SHARED_ERRORS_CHARS) this.#errors.set(key, { name: this.#unique(`errors_${hashText(key).slice(0, 8)}`), value });
  }

  #unique(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9_$]/g, "_");
    let name = base;
    for (let i = 2; this.#taken.has(name); i++) name = `${base}_${i}`;
    this.#taken.add(name);
    return name;
  }

  /** The constants' names, for the file to reserve. */
  get names(): string[] {
    return [...this.#taken];
  }

  /** A served schema as a contract holds it: a reference to its constant when shared, else with each shared `$defs` entry a reference. */
  served(schema: JsonObject, reference: DefReference = (constant) => constant): JsonObject | LiteralReference {
    const shared = this.#schemas.get(JSON.stringify(schema));
    return shared === undefined ? this.#referring(schema, reference) : new LiteralReference(reference(shared.name));
  }

  /** A tool's error table as its contract holds it: a reference to its constant when shared. */
  errors(errors: JsonObject, reference: DefReference = (constant) => constant): JsonObject | LiteralReference {
    const shared = this.#errors.get(JSON.stringify(errors));
    return shared === undefined ? errors : new LiteralReference(reference(shared.name));
  }

  /**
   * Each shared error table's declaration, its type inferred (the reasons as
   * properties, which each contract's `Record<Reason, string>` checks);
   * `exported` in a part of a split module.
   */
  errorStatements(exported = false): SharedStatement[] {
    return [...this.#errors.values()].map(({ name, value }) => {
      const text = literal(value);
      return { name, statement: code`${exported ? "export " : ""}const ${name} = ${text};`, bytes: text.length };
    });
  }

  /** `schema` with each shared `$defs` entry as a reference to its constant. */
  #referring(schema: JsonObject, reference: DefReference): JsonObject {
    const defs = schema.$defs;
    if (!isObject(defs)) return schema;
    const entries = Object.entries(defs).map(([name, value]) => {
      const shared = this.#defs.get(`${name}\u0000${JSON.stringify(value)}`);
      return [name, shared === undefined ? value : new LiteralReference(reference(shared.name))];
    });
    return { ...schema, $defs: Object.fromEntries(entries) as JsonObject };
  }

  /** Each shared `$defs` entry's declaration; `exported` in a part of a split module, which the other parts import. */
  defStatements(up: Up = "./", exported = false): SharedStatement[] {
    return [...this.#defs.values()].map(({ name, value }) => declaration(name, literal(value), up, exported));
  }

  /** Each shared served schema's declaration, its shared `$defs` entries referred to; after the entries', which it uses. */
  schemaStatements(up: Up = "./", exported = false, reference: DefReference = (c) => c, only?: ReadonlySet<string>): SharedStatement[] {
    return [...this.#schemas.values()]
      .filter(({ name }) => only === undefined || only.has(name))
      .map(({ name, value }) => declaration(name, literal(this.#referring(value, reference)), up, exported));
  }
}

/** A tool's `errors` as its contract holds it: each declared reason and its description, in declared order. */
function errorTable(tool: ToolIR): JsonObject {
  return (policyOf(tool).errors ?? {}) as JsonObject;
}

/** A schema's `$defs` entries that are objects: each with its key (name and text), name and value. */
function* defEntries(schema: JsonObject): Generator<[string, string, JsonObject]> {
  const defs = schema.$defs;
  if (!isObject(defs)) return;
  for (const [name, value] of Object.entries(defs)) if (isObject(value)) yield [`${name}\u0000${JSON.stringify(value)}`, name, value];
}

function declaration(name: string, text: string, up: Up, exported: boolean): SharedStatement {
  return { name, statement: code`${exported ? "export " : ""}const ${name}: ${schemaObjectType(up)} = ${text};`, bytes: text.length };
}

/** `GetOrder` → `getOrderContract`. */
export function contractConstName(tool: ToolIR): string {
  return toolExportNames(toolTypeName(tool)).contract;
}

/** Whether the tool's annotations are what `toolContract` derives from its title, effect, idempotence and `openWorld`, key order included. */
function derivedAnnotations(tool: ToolIR): boolean {
  const derived = {
    ...(tool.title === undefined ? {} : { title: tool.title }),
    readOnlyHint: tool.effect === "read",
    destructiveHint: tool.effect === "destructive",
    idempotentHint: tool.idempotent,
    openWorldHint: tool.annotations.openWorldHint,
  };
  return JSON.stringify(derived) === JSON.stringify(tool.annotations);
}

/** The contract's data: everything but the validators, in the field order the runtime documents. */
function contractData(tool: ToolIR, shared: SharedDefs, reference?: DefReference): JsonObject {
  return {
    name: tool.name,
    version: tool.version,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.icons === undefined ? {} : { icons: tool.icons as unknown as JsonObject[] }),
    effect: tool.effect,
    idempotent: tool.idempotent,
    timeoutMs: tool.timeoutMs,
    retry: tool.retry as unknown as JsonObject,
    ...(tool.idempotencyKey === undefined ? {} : { idempotencyKey: tool.idempotencyKey }),
    errors: shared.errors(errorTable(tool), reference) as unknown as JsonObject,
    ...(tool.content === undefined ? {} : { content: [...tool.content] }),
    ...(tool.scopes === undefined ? {} : { scopes: [...tool.scopes] }),
    ...(tool.confirm === undefined ? {} : { confirm: true }),
    ...(tool.rateLimit === undefined ? {} : { rateLimit: { ...tool.rateLimit } }),
    inputSchema: shared.served(tool.inputSchema, reference) as unknown as JsonObject,
    outputSchema: shared.served(tool.outputSchema, reference) as unknown as JsonObject,
    // What runtime/contract.ts `toolContract` derives at load is left out: the same hints and empty paths in every tool (#42).
    ...(derivedAnnotations(tool) ? (tool.annotations.openWorldHint ? { openWorld: true } : {}) : { annotations: tool.annotations as unknown as JsonObject }),
    meta: tool.meta as JsonObject,
    ...(tool.sensitive.input.length === 0 && tool.sensitive.output.length === 0 ? {} : { sensitive: tool.sensitive as unknown as JsonObject }),
    ...(tool.mcpHeaders === undefined || tool.mcpHeaders.length === 0 ? {} : { mcpHeaders: tool.mcpHeaders as unknown as JsonObject[] }),
  };
}

/**
 * One contract constant. Its validators are a loader, not an import: a server
 * then starts, and answers tools/list, without loading any validator code;
 * the runtime loads a tool's code on its first call. That code is
 * `validators/<tool>.js` (its validators; the runtime plans its schema-aware
 * copies from the served schemas, runtime/copy-plan.ts), or in a grouped project
 * the tool's function in its group's module (`chunks/group-<n>.js`,
 * emit/tool-code/), which the loader calls.
 */
function contractStatement(tool: ToolIR, shared: SharedDefs, place: ToolCodePlace, up: Up = "./", reference?: DefReference): Code {
  const names = toolTypeNames(tool);
  const from = `${up}tools/${toolFileName(tool)}.js`;
  const typeArguments = [names.input, names.resolvedInput, names.output, names.reason].map((name) => typeSymbol(name, from));
  // Declared content kinds narrow ctx.attach for this tool's handler; without them, any kind type-checks.
  const kinds = tool.content === undefined ? "" : `, ${tool.content.map((k) => literal(k)).join(" | ")}`;
  const type = code`${toolContractType(up)}<${joinCode(typeArguments, ", ")}${kinds}>`;
  const loader =
    place.kind === "own"
      ? `() => import(${literal(`${up}validators/${toolFileName(tool)}.js`)})`
      : `() => import(${literal(`${up}${place.module}.js`)}).then((m) => m.${place.exportName}())`;
  const data = literal({ ...contractData(tool, shared, reference), validators: new LiteralReference(loader) });
  return code`${jsDoc([`The compiled contract of \`${tool.name}\` (version ${tool.version}).`])!}
export const ${contractConstName(tool)}: ${type} = ${runtimeValue("contract", "toolContract", up)}(${data});`;
}

/** Where each tool's code is (tool-code/join.ts gives it), for the loaders; by default by the tools' count alone. */
type Places = ReadonlyMap<string, ToolCodePlace>;

function placesOf(ir: ContractIR, places: Places | undefined): Places {
  return (
    places ??
    toolCodePlaces(
      ir.tools.map((t) => t.name),
      undefined,
    )
  );
}

export function emitContractsModule(ir: ContractIR, toolCode?: Places): EmittedFile {
  // Imports in the order the contracts use them: the runtime's type, then each tool's types.
  const file = new FileBuilder("contracts.ts", headerComment("the definitions folder"), { importOrder: "used", wrap: false });
  const shared = new SharedDefs(ir.tools);
  file.reserve(...ir.tools.map(contractConstName), ...shared.names);
  const places = placesOf(ir, toolCode);
  const constants = [...shared.defStatements(), ...shared.errorStatements(), ...shared.schemaStatements()];
  file.add(...constants.map((s) => s.statement), ...ir.tools.map((tool) => contractStatement(tool, shared, places.get(tool.name)!)));
  return { path: file.path, text: file.toText() };
}

/** Items in order, cut into runs whose sizes add up to at most `budget` (an item over it alone). */
export function packed<T>(items: readonly T[], size: (item: T) => number, budget: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const n = size(item);
    if (run.length > 0 && bytes + n > budget) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(item);
    bytes += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * `contracts.ts`, and past `budget` bytes its parts (see the top of this
 * file): the same constants with the same values, so what a server serves
 * does not depend on the split (test/emit/contracts-parts.test.ts).
 */
export function emitContractsFiles(ir: ContractIR, budget = CONTRACTS_PART_BYTES, toolCode?: Places): EmittedFile[] {
  const whole = emitContractsModule(ir, toolCode);
  if (whole.text.length <= budget) return [whole];
  const header = headerComment("the definitions folder");
  const layout = { importOrder: "used", wrap: false } as const;
  const shared = new SharedDefs(ir.tools);
  const places = placesOf(ir, toolCode);
  const files: EmittedFile[] = [];
  const home = new Map<string, string>();
  // The shared error tables are packed with the `$defs` entries: constants the contracts refer to, small beside the schemas.
  packed([...shared.defStatements("../", true), ...shared.errorStatements(true)], (d) => d.bytes, budget).forEach((run, i) => {
    const file = new FileBuilder(`${PARTS_FOLDER}/defs-${i + 1}.ts`, header, layout);
    file.reserve(...run.map((d) => d.name));
    file.add(...run.map((d) => d.statement));
    for (const d of run) home.set(d.name, `./defs-${i + 1}.js`);
    files.push({ path: file.path, text: file.toText() });
  });
  // The shared schemas refer to the entries, so they are printed (and sized) with the entries' imports, each part's own.
  const sizing = shared.schemaStatements("../", true);
  const parts = packed(sizing, (d) => d.bytes, budget);
  parts.forEach((run, i) => {
    const file = new FileBuilder(`${PARTS_FOLDER}/schemas-${i + 1}.ts`, header, layout);
    const names = new Set(run.map((d) => d.name));
    file.reserve(...names);
    const reference: DefReference = (constant) => file.importValue(constant, home.get(constant)!);
    file.add(...shared.schemaStatements("../", true, reference, names).map((d) => d.statement));
    for (const name of names) home.set(name, `./schemas-${i + 1}.js`);
    files.push({ path: file.path, text: file.toText() });
  });
  // Its data, plus its doc comment, its type, the import of its types and its loader (about 600 bytes at most).
  const sized = ir.tools.map((tool) => ({ tool, bytes: literal(contractData(tool, shared)).length + 600 }));
  const index = new FileBuilder("contracts.ts", header, layout);
  packed(sized, (t) => t.bytes, budget).forEach((run, i) => {
    const file = new FileBuilder(`${PARTS_FOLDER}/tools-${i + 1}.ts`, header, layout);
    const names = run.map(({ tool }) => contractConstName(tool));
    file.reserve(...names);
    const reference: DefReference = (constant) => file.importValue(constant, home.get(constant)!);
    file.add(...run.map(({ tool }) => contractStatement(tool, shared, places.get(tool.name)!, "../", reference)));
    files.push({ path: file.path, text: file.toText() });
    index.add({ kind: "exportFrom", names, from: `./${PARTS_FOLDER}/tools-${i + 1}.js` });
  });
  return [{ path: index.path, text: index.toText() }, ...files];
}
