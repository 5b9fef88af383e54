/**
 * Validators target: Ajv standalone code for each tool's input and output
 * schema, as a TypeScript module (so a consumer's `tsc` compiles it into its
 * outDir with the rest of the output, and every bundler and loader treats it
 * like any other source file).
 *
 * Every value Ajv's code refers to outside itself (format checkers,
 * equality, code-point length, the error-list functions, the shared
 * named-type validators) is given to Ajv with a `code` snippet naming an
 * import of a generated module (generator/ajv.ts,
 * validators/named-types.ts), so the module imports those and nothing from
 * Ajv. Which ones it imports is noted while its code is made, never read
 * back from it: as Ajv is given each value, and as the rewrites write calls
 * (see ExternalNames). No value of Ajv's own runtime reaches the code: each
 * keyword that would name one (enum, const, uniqueItems, minLength,
 * maxLength) is toolc's own, patterns use `new RegExp`, and contracts cannot
 * hold `$async`; test/emit/validators.test.ts checks the output for a
 * `require`.
 *
 * The validators are compiled for copies without prototypes (`copiedData`
 * in generator/ajv.ts): the runtime validates nothing else.
 */
import { createHash } from "node:crypto";
import type { ValidateFunction } from "ajv";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { createAjv, needsDraft2020, VALIDATOR_ERRORS_MODULE, type RuntimeImport, type ToolcAjv } from "../ajv.js";
import { sharedAjv } from "../ajv-shared.js";
import { withDiscriminators } from "../discriminators.js";
import type { ContractIR, DefOrigin, EmittedFile, JsonSchema, ToolIR } from "../ir.js";
import { FileBuilder, namespaceSymbol, typeSymbol, valueSymbol, type ImportSymbol } from "../printer/file-builder.js";
import { inlineRefs } from "./validators/inline.js";
import { NESTED_ERRORS, namedTypeKeyword, sharedBinding, sharedCallsOf, withSharedCalls, type SharedValidator } from "./validators/named-types.js";
import { compactErrorSites, dropUnusedSchemas, simplifyRootSignature, type ErrorListFunction } from "./validators/rewrite.js";
import { toolFileName } from "./ts-names.js";

// ajv/dist/standalone is CommonJS with `exports.default`; under NodeNext the
// default import is module.exports.
const ajvStandaloneCode = standaloneCodeModule.default;

/** One exported validate function of a standalone module. */
export interface StandaloneEntry {
  /** The ESM export name, e.g. `validateInput`. */
  readonly exportName: string;
  /** The served schema; what Ajv compiles is this with local refs inlined (see inlineRefs), never an added `$id`. */
  readonly schema: JsonSchema;
  /** Input validators apply defaults; output validators never do. */
  readonly applyDefaults: boolean;
  /** Turns off Ajv's strictTypes/strictTuples authoring checks (the conformance run only). */
  readonly strictTypes?: boolean;
  /** False when the schema was already checked against the meta-schema (normalize does this for every tool). */
  readonly validateSchema?: boolean;
  /**
   * Where each `$defs` entry of the schema came from (a tool's inputDefs or
   * outputDefs). Named types among them are called in their shared module
   * (validators/named-types.ts) rather than compiled in place; without it,
   * everything is compiled in place.
   */
  readonly defOrigins?: Readonly<Record<string, DefOrigin>>;
  /** The schema is a shared named-type function's root: its own `$ref` is compiled, the types it uses are called. */
  readonly sharedRoot?: boolean;
}

/**
 * The rewrites of Ajv's output text that the emitter applies, in order. Each
 * is kept because it is measured to pay (docs/performance.md), and
 * test/emit/rewrites.test.ts fails if one stops finding its pattern. Each
 * adds to `calls` the error-list functions its result calls.
 */
export const REWRITES: Readonly<
  Record<"compactErrorSites" | "dropUnusedSchemas" | "simplifyRootSignature", (code: string, calls: Set<ErrorListFunction>) => string>
> = {
  compactErrorSites,
  dropUnusedSchemas,
  simplifyRootSignature,
};
export type RewriteName = keyof typeof REWRITES;
const ALL_REWRITES = Object.keys(REWRITES) as RewriteName[];

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Checks `schema` against the 2020-12 meta-schema, as Ajv2020 does on compile (a draft-07 instance cannot). */
function checkAgainstMetaSchema(schema: JsonSchema): void {
  const checker = sharedAjv({ applyDefaults: false });
  if (!checker.validateSchema(schema as object)) throw new Error(`schema is invalid: ${checker.errorsText()}`);
}

/**
 * What a module's standalone code names outside itself, noted as the code
 * is made: the runtime modules whose values Ajv was given (createAjv's
 * onRuntimeUse), the shared named-type modules whose functions it calls
 * (each call also adds its errors with NESTED_ERRORS), and the error-list
 * functions the rewrites call.
 */
interface ExternalNames {
  readonly runtime: Set<RuntimeImport>;
  readonly sharedModules: Set<string>;
  readonly errorLists: Set<ErrorListFunction>;
}

/** Ajv's standalone output for one entry, before the rewrites, and what it names outside itself: text only, nothing compiled. */
interface AjvOutput {
  readonly code: string;
  readonly runtime: readonly RuntimeImport[];
  readonly sharedModules: readonly string[];
}

/**
 * Ajv standalone source (CommonJS form: `exports.<name> = validateN;` then
 * the code) for one schema, with the instance that compiled it (its
 * `getSchema("schema")` is the compiled function). A fresh instance per
 * schema: Ajv names functions and constants from counters in the instance,
 * so a fresh one gives the same code whatever was compiled before.
 */
function compileStandalone(entry: StandaloneEntry, place: ModulePlace): { output: AjvOutput; ajv: ToolcAjv } {
  compiles++;
  const draft07 = !needsDraft2020(entry.schema);
  if (draft07 && entry.validateSchema !== false) checkAgainstMetaSchema(entry.schema);
  const runtime = new Set<RuntimeImport>();
  const sharedModules = new Set<string>();
  const ajv = createAjv({
    applyDefaults: entry.applyDefaults,
    standalone: true,
    strictTypes: entry.strictTypes,
    validateSchema: entry.validateSchema,
    draft07,
    copiedData: true,
    onRuntimeUse: (used) => runtime.add(used),
  });
  const { schema, calls } =
    entry.defOrigins === undefined
      ? { schema: entry.schema, calls: [] }
      : withSharedCalls(entry.schema, entry.defOrigins, entry.applyDefaults, entry.sharedRoot === true);
  if (calls.length > 0) ajv.addKeyword(namedTypeKeyword(calls, (call) => sharedModules.add(call.module), place === "validators/types"));
  // A key, not an $id, identifies the schema.
  // Tagged unions are decided by their tag (generator/discriminators.ts), as everywhere toolc compiles a schema.
  ajv.addSchema(withDiscriminators(inlineRefs(schema)) as object, "schema");
  // Checking the schema may have compiled the meta-schema in this instance, which is not part of the code: only what follows counts.
  runtime.clear();
  const code = ajvStandaloneCode(ajv, { [entry.exportName]: "schema" });
  return { output: { code, runtime: [...runtime], sharedModules: [...sharedModules] }, ajv };
}

/**
 * Ajv's output already made in this thread, by everything that changes it
 * (outputKey), least recently used first. normalize compiles each tool's
 * schemas with exactly the validators' configuration (compileToolValidator)
 * and the emit then prints that output; a schema several tools share is
 * compiled once. Only the text is kept, never a compiled function or an Ajv
 * instance, and at most MEMO_CHARS of it, so a long-lived process (a watch
 * loop) holds no more than that.
 */
const outputs = new Map<string, AjvOutput>();
let outputChars = 0;

/** The most characters of Ajv's output the memo keeps: GitHub's 1,193 distinct tool schemas make about 5 million. */
export const MEMO_CHARS = 16_000_000;

/** Everything that changes an entry's code: its schema's exact text (key order included: it orders the code), its settings, where named types are, and the place's laziness. */
function outputKey(entry: StandaloneEntry, place: ModulePlace): string {
  const settings = [
    entry.exportName,
    entry.applyDefaults,
    entry.strictTypes ?? true,
    entry.validateSchema ?? true,
    entry.sharedRoot === true,
    place === "validators/types",
  ];
  return createHash("sha256")
    .update(JSON.stringify(settings))
    .update("\u0000")
    .update(JSON.stringify(entry.schema))
    .update("\u0000")
    .update(JSON.stringify(entry.defOrigins ?? null))
    .digest("base64");
}

function remember(key: string, output: AjvOutput): void {
  outputs.set(key, output);
  outputChars += output.code.length;
  for (const [oldest, known] of outputs) {
    if (outputChars <= memoChars) break;
    outputs.delete(oldest);
    outputChars -= known.code.length;
  }
}

function recalled(key: string): AjvOutput | undefined {
  const known = outputs.get(key);
  if (known !== undefined) {
    // Used again: now the most recent.
    outputs.delete(key);
    outputs.set(key, known);
  }
  return known;
}

/** Ajv's output for `entry`, from the memo or compiled (and remembered). */
function ajvOutput(entry: StandaloneEntry, place: ModulePlace): AjvOutput {
  const key = outputKey(entry, place);
  const known = recalled(key);
  if (known !== undefined) return known;
  const { output } = compileStandalone(entry, place);
  remember(key, output);
  return output;
}

/** Schemas Ajv compiled into standalone code in this thread. */
let compiles = 0;

/** The bound in force: MEMO_CHARS, unless a test set a smaller one. */
let memoChars = MEMO_CHARS;

/** Forgets every output remembered, and starts the count of compiles again (tests measure a cold compile with it, and set a smaller bound). */
export function forgetStandaloneOutputs(bound = MEMO_CHARS): void {
  outputs.clear();
  outputChars = 0;
  compiles = 0;
  memoChars = bound;
}

/** How many schemas Ajv compiled into standalone code since forgetStandaloneOutputs, and how many outputs (of how many characters) the memo holds. */
export function standaloneCompiles(): { readonly compiled: number; readonly held: number; readonly chars: number } {
  return { compiled: compiles, held: outputs.size, chars: outputChars };
}

/**
 * The entry of a tool's input or output validator. The schema was checked
 * against the meta-schema by normalize, before its compile.
 */
function toolEntry(schema: JsonSchema, applyDefaults: boolean, defOrigins: Readonly<Record<string, DefOrigin>>): StandaloneEntry {
  return { exportName: applyDefaults ? "validateInput" : "validateOutput", schema, applyDefaults, validateSchema: false, defOrigins };
}

/**
 * Compiles a tool's input (`applyDefaults`) or output schema as its shipped
 * validator is compiled, and remembers Ajv's output for the emit
 * (toolValidatorsCode): normalize's compile (normalize/compile.ts
 * ToolSchemaCompiler), given to it by the pipeline. Throws what Ajv throws.
 * Hands back a way to the in-process function, for the examples: the one
 * just compiled, or, when the memo knew the schema, compiled again then.
 * The function validates copies without prototypes (copiedData).
 */
export function compileToolValidator(schema: JsonSchema, applyDefaults: boolean, defOrigins: Readonly<Record<string, DefOrigin>>): () => ValidateFunction {
  const entry = toolEntry(schema, applyDefaults, defOrigins);
  const key = outputKey(entry, "validators");
  if (recalled(key) !== undefined) return () => compileStandalone(entry, "validators").ajv.getSchema("schema")!;
  const { output, ajv } = compileStandalone(entry, "validators");
  remember(key, output);
  const validate = ajv.getSchema("schema")!;
  return () => validate;
}

/**
 * A standalone body as one constant (exported in a module of its own): Ajv's code runs in its own function scope,
 * so two bodies never share a name.
 */
function constantBody(code: string, exportName: string, exportType: string | undefined, exported: boolean): string {
  if (!IDENTIFIER.test(exportName)) throw new Error(`invalid export name ${exportName}`);
  const annotation = exportType === undefined ? "" : `: ${exportType}`;
  return `${exported ? "export " : ""}const ${exportName}${annotation} = ((exports) => {${code}return exports.${exportName};})({});`;
}

/**
 * What a module's code names outside itself, as plain data (a tool's part of
 * its code module crosses threads and sits in the build cache): the runtime
 * namespaces, the error-list functions, the shared named-type modules called.
 */
export interface ImportedNames {
  readonly runtime: readonly RuntimeImport[];
  readonly errorLists: readonly ErrorListFunction[];
  readonly sharedModules: readonly string[];
}

function importedNames(names: ExternalNames): ImportedNames {
  return {
    runtime: [...names.runtime],
    errorLists: [...names.errorLists, ...(names.sharedModules.size > 0 ? [NESTED_ERRORS] : [])],
    sharedModules: [...names.sharedModules],
  };
}

/** Where a validators module sits: `validators/<tool>.ts`, a shared named-type module in `validators/types/`, or a group of tools' code in `chunks/`. */
export type ModulePlace = "validators" | "validators/types" | "chunks";

/**
 * The imports for what the code names: a namespace per runtime module, the
 * error-list functions by name, a namespace per shared named-type module
 * (validators/types/<module>.ts), each relative to the module's place.
 */
export function importsFor(names: ImportedNames, place: ModulePlace): ImportSymbol[] {
  const up = place === "validators/types" ? "../" : "";
  const namespaces = names.runtime.map(({ binding, module }) => namespaceSymbol(binding, up + module));
  const functions = names.errorLists.map((f) => valueSymbol(f.member, up + VALIDATOR_ERRORS_MODULE, f.name));
  const folder = { validators: "./types/", "validators/types": "./", chunks: "../validators/types/" }[place];
  const shared = names.sharedModules.map((module) => namespaceSymbol(sharedBinding(module), `${folder}${module}.js`));
  return [...namespaces, ...functions, ...shared];
}

/** The runtime type every validate function of a TypeScript module has. */
export function validateFunctionType(place: ModulePlace): ImportSymbol {
  return typeSymbol(VALIDATE_FUNCTION, `${place === "validators/types" ? "../" : ""}../runtime/contract.js`);
}

/** How a standalone module is written: plain ES module JavaScript, or TypeScript with typed exports. */
export type ModuleLanguage = "js" | "ts";

/** The runtime type every export of a TypeScript validators module has. */
const VALIDATE_FUNCTION = "ValidateFunction";

/**
 * The head of a TypeScript validators module. The body is Ajv's untyped
 * JavaScript, which no strict flag would accept, so the file opts out of
 * type checking; its exports are annotated, so what other modules (and
 * `declaration` output) see is fully typed.
 */
export const TS_PRELUDE = "// @ts-nocheck";

/** One entry's validator, compiled and rewritten: its code, and what that code alone names outside itself (emit/tool-code/shared.ts writes it apart from its tool's). */
export interface StandaloneBody {
  readonly exportName: string;
  readonly code: string;
  readonly names: ImportedNames;
}

/** Validators compiled, rewritten and not yet printed: each entry's body, and what they name outside themselves (all of them). */
export interface StandaloneCode {
  readonly bodies: readonly StandaloneBody[];
  readonly names: ImportedNames;
}

/**
 * The bodies as code of their own: what the bodies name, together (in their
 * order), beside them. Names are told apart by value, not identity: a part
 * read back from JSON (the build cache, a worker's reply) has copies.
 */
export function bodiesCode(bodies: readonly StandaloneBody[]): StandaloneCode {
  const union = <T>(pick: (names: ImportedNames) => readonly T[]): T[] => [
    ...new Map(bodies.flatMap((body) => pick(body.names)).map((name) => [JSON.stringify(name), name] as const)).values(),
  ];
  return { bodies, names: { runtime: union((n) => n.runtime), errorLists: union((n) => n.errorLists), sharedModules: union((n) => n.sharedModules) } };
}

/** Compiles `entries` with Ajv and applies `rewrites`: the code a module (or a tool's part of a group module) prints. */
export function standaloneCode(
  entries: readonly StandaloneEntry[],
  rewrites: readonly RewriteName[] = ALL_REWRITES,
  place: ModulePlace = "validators",
): StandaloneCode {
  const bodies = entries.map((entry) => {
    const output = ajvOutput(entry, place);
    const names: ExternalNames = { runtime: new Set(output.runtime), sharedModules: new Set(output.sharedModules), errorLists: new Set() };
    let code = output.code;
    for (const name of ALL_REWRITES) if (rewrites.includes(name)) code = REWRITES[name](code, names.errorLists);
    return { exportName: entry.exportName, code, names: importedNames(names) };
  });
  return bodiesCode(bodies);
}

/**
 * The statements of compiled validators in `file`, which imports what they
 * name: one constant per entry, exported in a module of their own, local in
 * a tool's function of a group module. `exportType` annotates each (TypeScript).
 */
export function standaloneStatements(
  file: FileBuilder,
  compiled: StandaloneCode,
  place: ModulePlace,
  exportType: string | undefined,
  exported = true,
): string[] {
  for (const symbol of importsFor(compiled.names, place)) file.use(symbol);
  return compiled.bodies.map((body) => constantBody(body.code, body.exportName, exportType, exported));
}

/** A complete validators module of compiled code: header, `@ts-nocheck` for TypeScript, imports, one exported constant per entry. */
export function printStandaloneModule(
  compiled: StandaloneCode,
  language: ModuleLanguage,
  place: ModulePlace,
  header: string,
  path = `${place}/<module>.${language}`,
): string {
  // An ES module is strict code already: no "use strict" of its own. Machine-made: one line per import, no blank lines.
  const prelude = language === "ts" ? [TS_PRELUDE] : [];
  const head = [header.endsWith("\n") ? header.slice(0, -1) : header, ...prelude].filter((line) => line !== "");
  const file = new FileBuilder(path, head.join("\n"), { wrap: false, blockSeparator: "\n" });
  const exportType = language === "ts" ? file.use(validateFunctionType(place)) : undefined;
  file.add(standaloneStatements(file, compiled, place, exportType).join("\n"));
  return file.toText();
}

/**
 * A complete module exporting one validate function per entry: ES module
 * JavaScript, or TypeScript with each export typed as the runtime's
 * ValidateFunction. Pure and deterministic: the same entries always give the
 * same text. `rewrites` selects the output rewrites (all by default; the
 * bench compares subsets).
 */
export function standaloneModule(
  entries: readonly StandaloneEntry[],
  language: ModuleLanguage = "js",
  rewrites: readonly RewriteName[] = ALL_REWRITES,
  place: ModulePlace = "validators",
  header = "",
): string {
  return printStandaloneModule(standaloneCode(entries, rewrites, place), language, place, header);
}

/** A tool's two validators, compiled (its part of its code module: emit/tool-code/). */
export function toolValidatorsCode(tool: ToolIR): StandaloneCode {
  return standaloneCode([toolEntry(tool.inputSchema, true, tool.inputDefs), toolEntry(tool.outputSchema, false, tool.outputDefs)]);
}

/**
 * `validators/<fileName>.ts`: Ajv's code, never prettier-formatted (it is
 * large, machine-made and slow to format). A project's files hold it so when
 * each tool's code is a module of its own (emit/tool-code/).
 */
export function emitValidators(tool: ToolIR, header: string): EmittedFile[] {
  return [{ path: `validators/${toolFileName(tool)}.ts`, text: printStandaloneModule(toolValidatorsCode(tool), "ts", "validators", header) }];
}

/**
 * `validators/types/<module>.ts`: for each types file, the named types the
 * tools' validators call (validators/named-types.ts), each compiled once, in
 * the flavours called (with defaults applied, for inputs, where the type has
 * any), each calling the named types it uses in turn (so those are added
 * too). A tool's validators module imports the ones it calls, so they load
 * with the first tool that needs them.
 */
export function emitSharedValidators(ir: ContractIR, headerFor: (source: string) => string): EmittedFile[] {
  const calls = new Map<string, SharedValidator>();
  const pending: SharedValidator[] = [];
  const add = (call: SharedValidator): void => {
    const key = `${call.module}\u0000${call.exportName}`;
    if (calls.has(key)) return;
    calls.set(key, call);
    pending.push(call);
  };
  for (const tool of ir.tools) for (const call of sharedCallsOf(tool)) add(call);
  while (pending.length > 0) {
    const call = pending.pop()!;
    for (const used of withSharedCalls(call.root, call.origins, call.applyDefaults, true).calls) add(used);
  }
  return ir.typeFiles.flatMap((file) => {
    const used = [...calls.values()].filter((c) => c.module === file.module).sort((a, b) => (a.exportName < b.exportName ? -1 : 1));
    if (used.length === 0) return [];
    // Compiled from the calling tool's own `$defs`, exactly what it would have compiled in place, calling what it uses.
    const entries = used.map((c) => ({
      exportName: c.exportName,
      schema: c.root,
      applyDefaults: c.applyDefaults,
      validateSchema: false,
      defOrigins: c.origins,
      sharedRoot: true,
    }));
    const text = standaloneModule(entries, "ts", ALL_REWRITES, "validators/types", headerFor(file.source));
    return [{ path: `validators/types/${file.module}.ts`, text }];
  });
}
