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
 * A `$defs` entry two or more served schemas hold alike (a named type every
 * tool that uses it bundles) is written once, as a constant the schemas
 * refer to: at API scale (GitHub's 1,223 tools) the same component would
 * otherwise be written hundreds of times. The served value is the same
 * (test/emit/contracts-shared-defs.test.ts), and the runtime never changes a
 * served schema, so the tools may hold one object.
 *
 * Past `CONTRACTS_PART_BYTES` the module is split (`emitContractsFiles`):
 * the shared entries into `contracts/defs-<n>.ts`, the contracts in tools/list
 * order into `contracts/tools-<n>.ts`, each part under the budget, and
 * `contracts.ts` re-exports them. A reviewer's tool will not open a 7 MB file
 * (GitHub's 1,223 tools, #42); a server still loads every part at start-up,
 * a handful of modules at that scale, and a project under the budget keeps
 * its one file.
 */
import type { ContractIR, EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { CHUNKS_FOLDER } from "./copies.js";
import { code, FileBuilder, joinCode, typeSymbol, type Code } from "../printer/file-builder.js";
import { headerComment } from "../printer/header.js";
import { jsDoc, literal, LiteralReference } from "../printer/literal.js";
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

/** `$defs` entries held alike by two or more served schemas: the constant each is written as, by name and text. */
class SharedDefs {
  readonly #uses = new Map<string, number>();
  readonly #constants = new Map<string, { readonly name: string; readonly value: JsonObject }>();
  readonly #taken = new Set<string>();

  constructor(tools: readonly ToolIR[]) {
    for (const tool of tools) for (const [key] of this.#entries(tool)) this.#uses.set(key, (this.#uses.get(key) ?? 0) + 1);
    for (const tool of tools)
      for (const [key, name, value] of this.#entries(tool)) {
        if (this.#uses.get(key)! < 2 || this.#constants.has(key)) continue;
        const base = `def_${name.replace(/[^A-Za-z0-9_$]/g, "_")}`;
        let constant = base;
        for (let i = 2; this.#taken.has(constant); i++) constant = `${base}_${i}`;
        this.#taken.add(constant);
        this.#constants.set(key, { name: constant, value });
      }
  }

  /** The constants' names, for the file to reserve. */
  get names(): string[] {
    return [...this.#taken];
  }

  *#entries(tool: ToolIR): Generator<[string, string, JsonObject]> {
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      const defs = schema.$defs;
      if (defs === null || typeof defs !== "object" || Array.isArray(defs)) continue;
      for (const [name, value] of Object.entries(defs))
        if (value !== null && typeof value === "object" && !Array.isArray(value)) yield [`${name}\u0000${JSON.stringify(value)}`, name, value];
    }
  }

  /** `schema` with each shared `$defs` entry as a reference to its constant. */
  referring(schema: JsonObject, reference: DefReference = (constant) => constant): JsonObject {
    const defs = schema.$defs;
    if (defs === null || typeof defs !== "object" || Array.isArray(defs)) return schema;
    const entries = Object.entries(defs).map(([name, value]) => {
      const shared = this.#constants.get(`${name}\u0000${JSON.stringify(value)}`);
      return [name, shared === undefined ? value : new LiteralReference(reference(shared.name))];
    });
    return { ...schema, $defs: Object.fromEntries(entries) as JsonObject };
  }

  /** Each constant's declaration; `exported` in a part of a split module, which the tools' parts import. */
  statements(up: Up = "./", exported = false): { readonly name: string; readonly statement: Code; readonly bytes: number }[] {
    return [...this.#constants.values()].map(({ name, value }) => {
      const text = literal(value);
      return { name, statement: code`${exported ? "export " : ""}const ${name}: ${schemaObjectType(up)} = ${text};`, bytes: text.length };
    });
  }
}

/** `GetOrder` → `getOrderContract`. */
export function contractConstName(tool: ToolIR): string {
  return toolExportNames(toolTypeName(tool)).contract;
}

/** The contract's data: everything but the validators, in the field order the runtime documents. */
function contractData(tool: ToolIR, shared: SharedDefs, reference?: DefReference): JsonObject {
  const policy = policyOf(tool);
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
    errors: policy.errors ?? {},
    ...(tool.content === undefined ? {} : { content: [...tool.content] }),
    ...(tool.scopes === undefined ? {} : { scopes: [...tool.scopes] }),
    ...(tool.confirm === undefined ? {} : { confirm: true }),
    ...(tool.rateLimit === undefined ? {} : { rateLimit: { ...tool.rateLimit } }),
    inputSchema: shared.referring(tool.inputSchema, reference),
    outputSchema: shared.referring(tool.outputSchema, reference),
    annotations: tool.annotations as unknown as JsonObject,
    meta: tool.meta as JsonObject,
    sensitive: tool.sensitive as unknown as JsonObject,
    ...(tool.mcpHeaders === undefined || tool.mcpHeaders.length === 0 ? {} : { mcpHeaders: tool.mcpHeaders as unknown as JsonObject[] }),
  };
}

/**
 * One contract constant. Its validators are a loader, not an import: a server
 * then starts, and answers tools/list, without loading any validator code;
 * the runtime loads a tool's code on its first call. That code is
 * `chunks/<tool>.js` (its schema-aware copies, with the validators
 * re-exported, so a first call loads one module), or in a grouped project
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
      ? `() => import(${literal(`${up}${CHUNKS_FOLDER}/${toolFileName(tool)}.js`)})`
      : `() => import(${literal(`${up}${place.module}.js`)}).then((m) => m.${place.exportName}())`;
  const data = literal({ ...contractData(tool, shared, reference), validators: new LiteralReference(loader) });
  return code`${jsDoc([`The compiled contract of \`${tool.name}\` (version ${tool.version}).`])!}
export const ${contractConstName(tool)}: ${type} = ${data};`;
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
  file.add(...shared.statements().map((s) => s.statement), ...ir.tools.map((tool) => contractStatement(tool, shared, places.get(tool.name)!)));
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
  packed(shared.statements("../", true), (d) => d.bytes, budget).forEach((run, i) => {
    const file = new FileBuilder(`${PARTS_FOLDER}/defs-${i + 1}.ts`, header, layout);
    file.reserve(...run.map((d) => d.name));
    file.add(...run.map((d) => d.statement));
    for (const d of run) home.set(d.name, `./defs-${i + 1}.js`);
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
