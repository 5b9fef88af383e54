/**
 * Validators target: Ajv standalone code for each tool's input and output
 * schema, as a TypeScript module (so a consumer's `tsc` compiles it into its
 * outDir with the rest of the output, and every bundler and loader treats it
 * like any other source file).
 *
 * Ajv's `code.esm` output still calls `require(...)` for the helpers it uses
 * (equality, code-point length, formats). toolc hands Ajv its own helpers,
 * each with a `code` property naming a generated runtime module (see
 * generator/ajv.ts), and rewrites every such call into a top-level import of
 * that module. Nothing is imported from Ajv.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { ValueScope } from "ajv/dist/compile/codegen/index.js";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { createAjv, VALIDATOR_RUNTIME_MODULES } from "../ajv.js";
import type { EmittedFile, JsonSchema, ToolIR } from "../ir.js";
import { DYNAMIC_KEYWORDS, keysIn, UNEVALUATED_KEYWORDS, withInlinedRefs } from "./validators/inline.js";
import {
  compactErrorSites,
  dropUnusedSchemas,
  ERROR_HELPER,
  ERROR_HELPER_CALL,
  isolate,
  simplifyRootSignature,
  storeErrorsOnChange,
  USE_STRICT,
} from "./validators/rewrite.js";

// ajv/dist/standalone is CommonJS with `exports.default`; under NodeNext the
// default import is module.exports.
const standaloneCode = standaloneCodeModule.default;

/** One exported validate function of a standalone module. */
export interface StandaloneEntry {
  /** The ESM export name, e.g. `validateInput`. */
  readonly exportName: string;
  /** Compiled exactly as given: no `$id` is added, so the served schema is the compiled one. */
  readonly schema: JsonSchema;
  /** Input validators apply defaults; output validators never do. */
  readonly applyDefaults: boolean;
  /** Turns off Ajv's strictTypes/strictTuples authoring checks (the conformance run only). */
  readonly strictTypes?: boolean;
  /** False when the schema was already checked against the meta-schema (normalize does this for every tool). */
  readonly validateSchema?: boolean;
}

/** Ajv's runtime requires look like `require("ajv/dist/runtime/equal").default`. */
const REQUIRE_CALL = /require\("([^"\\]+)"\)(?:\.([A-Za-z_$][\w$]*))?/g;

/**
 * The standalone instances, one per configuration. Creating an instance
 * (keywords, formats, vocabularies) cost more than compiling a typical tool
 * schema, once per schema; see `ajvStandalone` for how reuse keeps the output
 * exactly what a fresh instance would write.
 */
const standaloneInstances = new Map<string, Ajv2020>();

function standaloneAjv(entry: StandaloneEntry): Ajv2020 {
  const key = JSON.stringify([entry.applyDefaults, entry.strictTypes ?? true, entry.validateSchema ?? true]);
  let ajv = standaloneInstances.get(key);
  if (ajv === undefined) {
    ajv = createAjv({ applyDefaults: entry.applyDefaults, standalone: true, strictTypes: entry.strictTypes, validateSchema: entry.validateSchema });
    standaloneInstances.set(key, ajv);
  }
  return ajv;
}

/** Ajv standalone source for one schema, exporting `exportName`. */
function ajvStandalone(entry: StandaloneEntry): string {
  const ajv = standaloneAjv(entry);
  // Ajv 2020 turns on dynamic-scope and evaluated-property tracking for every
  // schema; each generated function then allocates and reads them per call.
  // Only schemas that use those keywords need it.
  const keys = [...keysIn(entry.schema)];
  const dynamic = keys.some((k) => DYNAMIC_KEYWORDS.has(k));
  const opts = ajv.opts as { dynamicRef?: boolean; unevaluated?: boolean };
  opts.dynamicRef = dynamic;
  opts.unevaluated = dynamic || keys.some((k) => UNEVALUATED_KEYWORDS.has(k));
  // A key, not an $id, identifies the schema; it is removed again, so the next schema starts from the same state.
  ajv.addSchema(entry.schema as object, "schema");
  // Ajv names every function and constant from counters in its scope. A fresh
  // scope per schema, set after addSchema (whose meta-schema check compiles
  // into the scope the first time), gives the same code whatever was
  // compiled before.
  // The new scope takes the options Ajv built its own with, and an empty value store.
  (ajv as unknown as { scope: ValueScope }).scope = new ValueScope({ ...ajv.scope.opts, scope: {} });
  try {
    return withInlinedRefs(entry.schema, () => standaloneCode(ajv, { [entry.exportName]: "schema" }));
  } finally {
    ajv.removeSchema("schema");
  }
}

interface ImportPlan {
  /** Top-level import declarations. */
  readonly imports: string[];
  /** Replacement text for each distinct `require("m").member` expression. */
  readonly replacements: Map<string, string>;
}

/** The only modules generated validators may load: the generated runtime's helpers (see VALIDATOR_RUNTIME_MODULES). */
function checkAllowed(specifier: string): void {
  if (VALIDATOR_RUNTIME_MODULES.includes(specifier)) return;
  throw new Error(`generated validator would import "${specifier}"; only ${VALIDATOR_RUNTIME_MODULES.join(", ")} are allowed`);
}

function bindingStem(specifier: string, taken: Set<string>): string {
  const base = (specifier.split("/").pop() ?? "m").replace(/\.js$/, "").replace(/\W/g, "_");
  let stem = `${base}$`;
  for (let n = 1; taken.has(stem); n++) stem = `${base}$${n}`;
  taken.add(stem);
  return stem;
}

/**
 * One namespace import per module; each `require("m").member` becomes
 * `stem.member`. The runtime helpers are TypeScript modules with named
 * exports, so this reads the same in ESM, CommonJS and bundled builds.
 */
function planImports(code: string): ImportPlan {
  const imports: string[] = [];
  const replacements = new Map<string, string>();
  const stems = new Map<string, string>();
  const taken = new Set<string>();
  for (const [expression, specifier, member] of code.matchAll(REQUIRE_CALL)) {
    if (replacements.has(expression)) continue;
    checkAllowed(specifier);
    if (!member || member === "default") throw new Error(`unexpected ${expression} in Ajv output: runtime helpers are named exports`);
    let stem = stems.get(specifier);
    if (stem === undefined) {
      stem = bindingStem(specifier, taken);
      stems.set(specifier, stem);
      imports.push(`import * as ${stem} from ${JSON.stringify(specifier)};`);
    }
    replacements.set(expression, `${stem}.${member}`);
  }
  return { imports: imports.sort(), replacements };
}

function rewriteRequires(code: string): { code: string; imports: string[] } {
  const plan = planImports(code);
  const rewritten = code.replace(REQUIRE_CALL, (expression) => plan.replacements.get(expression) ?? expression);
  return { code: rewritten, imports: plan.imports };
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
const TS_PRELUDE = [
  "// @ts-nocheck",
  "// Ajv's standalone code is untyped JavaScript; the exports are typed, which is all a caller sees.",
];
const TS_TYPE_IMPORT = `import type { ${VALIDATE_FUNCTION} } from "../runtime/contract.js";`;

/**
 * A complete module exporting one validate function per entry: ES module
 * JavaScript, or TypeScript with each export typed as the runtime's
 * ValidateFunction. Pure and deterministic: the same entries always give the
 * same text.
 */
export function standaloneModule(entries: readonly StandaloneEntry[], language: ModuleLanguage = "js"): string {
  const exportType = language === "ts" ? VALIDATE_FUNCTION : undefined;
  const bodies = entries.map((entry) =>
    isolate(storeErrorsOnChange(simplifyRootSignature(dropUnusedSchemas(compactErrorSites(ajvStandalone(entry))))), entry.exportName, exportType),
  );
  const { code, imports } = rewriteRequires(bodies.join("\n"));
  const helper = code.includes(ERROR_HELPER_CALL) ? [ERROR_HELPER] : [];
  const head = language === "ts" ? [...TS_PRELUDE, USE_STRICT, TS_TYPE_IMPORT] : [USE_STRICT];
  return [...head, ...imports, ...helper, code].join("\n") + "\n";
}

function withHeader(header: string, text: string): string {
  return header.endsWith("\n") ? header + text : `${header}\n${text}`;
}

/**
 * `validators/<fileName>.ts`: Ajv's code, never prettier-formatted (it is
 * large, machine-made and slow to format).
 */
export function emitValidators(tool: ToolIR, header: string): EmittedFile[] {
  const ts = standaloneModule(
    [
      { exportName: "validateInput", schema: tool.inputSchema, applyDefaults: true, validateSchema: false },
      { exportName: "validateOutput", schema: tool.outputSchema, applyDefaults: false, validateSchema: false },
    ],
    "ts",
  );
  return [{ path: `validators/${tool.fileName}.ts`, text: withHeader(header, ts), format: false }];
}
