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
 * Ajv.
 *
 * The validators are compiled for copies without prototypes (`copiedData`
 * in generator/ajv.ts): the runtime validates nothing else.
 */
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { createAjv, needsDraft2020, VALIDATOR_ERRORS_MODULE, VALIDATOR_RUNTIME_IMPORTS } from "../ajv.js";
import { sharedAjv } from "../ajv-shared.js";
import { withDiscriminators } from "../discriminators.js";
import type { ContractIR, DefOrigin, EmittedFile, JsonSchema, ToolIR } from "../ir.js";
import { FileBuilder, namespaceSymbol, typeSymbol, valueSymbol, type ImportSymbol } from "./file-builder.js";
import { inlineRefs } from "./validators/inline.js";
import { NESTED_ERRORS, namedTypeKeyword, sharedBinding, sharedCallsOf, withSharedCalls, type SharedValidator } from "./validators/named-types.js";
import { compactErrorSites, dropUnusedSchemas, ERROR_HELPER, ERROR_HELPER_CALL, PARAM_ERROR_HELPER, PARAM_ERROR_HELPER_CALL, simplifyRootSignature } from "./validators/rewrite.js";

// ajv/dist/standalone is CommonJS with `exports.default`; under NodeNext the
// default import is module.exports.
const standaloneCode = standaloneCodeModule.default;

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
}

/**
 * The rewrites of Ajv's output text that the emitter applies, in order. Each
 * is kept because it is measured to pay (docs/performance.md), and
 * test/emit/rewrites.test.ts fails if one stops finding its pattern.
 */
export const REWRITES = { compactErrorSites, dropUnusedSchemas, simplifyRootSignature } as const;
export type RewriteName = keyof typeof REWRITES;
const ALL_REWRITES = Object.keys(REWRITES) as RewriteName[];

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Checks `schema` against the 2020-12 meta-schema, as Ajv2020 does on compile (a draft-07 instance cannot). */
function checkAgainstMetaSchema(schema: JsonSchema): void {
  const checker = sharedAjv({ applyDefaults: false });
  if (!checker.validateSchema(schema as object)) throw new Error(`schema is invalid: ${checker.errorsText()}`);
}

/**
 * Ajv standalone source (CommonJS form: `exports.<name> = validateN;` then
 * the code) for one schema. A fresh instance per schema: Ajv names functions
 * and constants from counters in the instance, so a fresh one gives the same
 * code whatever was compiled before.
 */
function ajvStandalone(entry: StandaloneEntry): { code: string; calls: SharedValidator[] } {
  const draft07 = !needsDraft2020(entry.schema);
  if (draft07 && entry.validateSchema !== false) checkAgainstMetaSchema(entry.schema);
  const ajv = createAjv({ applyDefaults: entry.applyDefaults, standalone: true, strictTypes: entry.strictTypes, validateSchema: entry.validateSchema, draft07, copiedData: true });
  const { schema, calls } = entry.defOrigins === undefined ? { schema: entry.schema, calls: [] } : withSharedCalls(entry.schema, entry.defOrigins, entry.applyDefaults);
  if (calls.length > 0) ajv.addKeyword(namedTypeKeyword(calls));
  // A key, not an $id, identifies the schema.
  // Tagged unions are decided by their tag (generator/discriminators.ts), as everywhere toolc compiles a schema.
  ajv.addSchema(withDiscriminators(inlineRefs(schema)) as object, "schema");
  return { code: standaloneCode(ajv, { [entry.exportName]: "schema" }), calls };
}

/** A standalone body as one exported constant: Ajv's code runs in its own function scope, so two bodies never share a name. */
function exportedBody(code: string, exportName: string, exportType: string | undefined): string {
  if (!IDENTIFIER.test(exportName)) throw new Error(`invalid export name ${exportName}`);
  const annotation = exportType === undefined ? "" : `: ${exportType}`;
  return `export const ${exportName}${annotation} = ((exports) => {${code}return exports.${exportName};})({});`;
}

/**
 * The runtime imports `code` uses. Ajv's code is foreign text: what of
 * toolc's it refers to (the namespaces its code snippets name, the error-list
 * functions the rewrites call) is found in it by name. Ajv writes a
 * `require("…")` only for a value given no code snippet of toolc's; an
 * unescaped `require("` can only be code (inside a string literal the quote
 * is escaped), so it is refused.
 */
function runtimeImports(code: string, up: string): ImportSymbol[] {
  const call = /\brequire\("/.exec(code);
  if (call !== null) throw new Error(`generated validator would load a module: ${code.slice(call.index, call.index + 60)}`);
  const namespaces = VALIDATOR_RUNTIME_IMPORTS.filter(({ binding }) => code.includes(`${binding}.`)).map(({ binding, module }) => namespaceSymbol(binding, up + module));
  // The error-list functions are imported by name: every error site calls one.
  const used = [...(code.includes(ERROR_HELPER_CALL) ? [ERROR_HELPER] : []), ...(code.includes(PARAM_ERROR_HELPER_CALL) ? [PARAM_ERROR_HELPER] : []), ...(code.includes(`= ${NESTED_ERRORS.name};`) ? [NESTED_ERRORS] : [])];
  return [...namespaces, ...used.map((f) => valueSymbol(f.member, up + VALIDATOR_ERRORS_MODULE, f.name))];
}

/** The shared named-type modules (validators/types/<module>.ts) the calls need, one namespace each. */
function sharedImports(calls: readonly SharedValidator[]): ImportSymbol[] {
  return [...new Set(calls.map((c) => c.module))].map((module) => namespaceSymbol(sharedBinding(module), `./types/${module}.js`));
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
const TS_PRELUDE = "// @ts-nocheck";

/** Where a validators module sits: `validators/<tool>.ts`, or a shared named-type module in `validators/types/`. */
export type ModulePlace = "validators" | "validators/types";

/**
 * A complete module exporting one validate function per entry: ES module
 * JavaScript, or TypeScript with each export typed as the runtime's
 * ValidateFunction. Pure and deterministic: the same entries always give the
 * same text. `rewrites` selects the output rewrites (all by default; the
 * bench compares subsets).
 */
export function standaloneModule(entries: readonly StandaloneEntry[], language: ModuleLanguage = "js", rewrites: readonly RewriteName[] = ALL_REWRITES, place: ModulePlace = "validators", header = ""): string {
  const up = place === "validators" ? "" : "../";
  const validateFunction = typeSymbol(VALIDATE_FUNCTION, `${up}../runtime/contract.js`);
  // An ES module is strict code already: no "use strict" of its own. Machine-made: one line per import, no blank lines.
  const prelude = language === "ts" ? [TS_PRELUDE] : [];
  const head = [header.endsWith("\n") ? header.slice(0, -1) : header, ...prelude].filter((line) => line !== "");
  const file = new FileBuilder(`${place}/<module>.${language}`, head.join("\n"), { wrap: false, blockSeparator: "\n" });
  const exportType = language === "ts" ? file.use(validateFunction) : undefined;
  const calls: SharedValidator[] = [];
  const bodies = entries.map((entry) => {
    const standalone = ajvStandalone(entry);
    calls.push(...standalone.calls);
    let code = standalone.code;
    for (const name of ALL_REWRITES) if (rewrites.includes(name)) code = REWRITES[name](code);
    return exportedBody(code, entry.exportName, exportType);
  });
  const code = bodies.join("\n");
  for (const symbol of [...runtimeImports(code, up), ...sharedImports(calls)]) file.use(symbol);
  file.add(code);
  return file.toText();
}

/**
 * `validators/<fileName>.ts`: Ajv's code, never prettier-formatted (it is
 * large, machine-made and slow to format).
 */
export function emitValidators(tool: ToolIR, header: string): EmittedFile[] {
  const ts = standaloneModule(
    [
      { exportName: "validateInput", schema: tool.inputSchema, applyDefaults: true, validateSchema: false, defOrigins: tool.inputDefs },
      { exportName: "validateOutput", schema: tool.outputSchema, applyDefaults: false, validateSchema: false, defOrigins: tool.outputDefs },
    ],
    "ts",
    ALL_REWRITES,
    "validators",
    header,
  );
  return [{ path: `validators/${tool.fileName}.ts`, text: ts, format: false }];
}

/**
 * `validators/types/<module>.ts`: for each types file, the named types the
 * tools' validators call (validators/named-types.ts), each compiled once, in
 * the flavours called (with defaults applied, for inputs, where the type has
 * any). A tool's validators module imports the ones it calls, so they load
 * with the first tool that needs them.
 */
export function emitSharedValidators(ir: ContractIR, headerFor: (source: string) => string): EmittedFile[] {
  const calls = new Map<string, SharedValidator>();
  for (const tool of ir.tools) for (const call of sharedCallsOf(tool)) calls.set(`${call.module}\u0000${call.exportName}`, call);
  return ir.typeFiles.flatMap((file) => {
    const used = [...calls.values()].filter((c) => c.module === file.module).sort((a, b) => (a.exportName < b.exportName ? -1 : 1));
    if (used.length === 0) return [];
    // Compiled from the calling tool's own `$defs`, exactly what it would have compiled in place.
    const entries = used.map((c) => ({ exportName: c.exportName, schema: c.root, applyDefaults: c.applyDefaults, validateSchema: false }));
    const text = standaloneModule(entries, "ts", ALL_REWRITES, "validators/types", headerFor(file.source));
    return [{ path: `validators/types/${file.module}.ts`, text, format: false }];
  });
}
