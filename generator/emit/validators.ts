/**
 * Validators target: Ajv standalone code for each tool's input and output
 * schema, as a real ES module.
 *
 * Ajv's `code.esm` output still calls `require(...)` for its runtime helpers
 * (ucs2length, equal) and for formats, which throws in a real ESM module. We
 * rewrite every such call into a top-level `import`, with CommonJS interop
 * that works both in Node (default import = module.exports) and in bundlers
 * (default import = exports.default when __esModule is set).
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { ValueScope } from "ajv/dist/compile/codegen/index.js";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { createAjv, EQUAL_MODULE, FORMATS_MODULE } from "../ajv.js";
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
  /** Top-level import declarations and interop bindings. */
  readonly prelude: string[];
  /** Replacement text for each distinct `require("m").member` expression. */
  readonly replacements: Map<string, string>;
}

/** The only modules generated validators may load: Ajv's runtime, and toolc's formats. */
function checkAllowed(specifier: string): void {
  if (specifier === FORMATS_MODULE || specifier === EQUAL_MODULE || specifier.startsWith("ajv/dist/runtime/")) return;
  throw new Error(`generated validator would import "${specifier}"; only ajv runtime, ${FORMATS_MODULE} and ${EQUAL_MODULE} are allowed`);
}

/** Ajv has no exports map, so deep imports need the file extension under ESM resolution. */
function withExtension(specifier: string): string {
  return /\.[cm]?js$/.test(specifier) ? specifier : `${specifier}.js`;
}

function bindingStem(specifier: string, taken: Set<string>): string {
  const base = (specifier.split("/").pop() ?? "m").replace(/\.[cm]?js$/, "").replace(/\W/g, "_");
  let stem = `${base}$`;
  for (let n = 1; taken.has(stem); n++) stem = `${base}$${n}`;
  taken.add(stem);
  return stem;
}

/**
 * One import per module. `.default` members use a default import with
 * `m.default ?? m`: Node hands over module.exports (so `.default` is the
 * value), bundlers hand over exports.default itself. Named members use a
 * namespace import, which both resolve to the named export.
 */
function planImports(code: string): ImportPlan {
  const prelude: string[] = [];
  const replacements = new Map<string, string>();
  const stems = new Map<string, string>();
  const taken = new Set<string>();
  const declared = new Set<string>();
  for (const [expression, specifier, member] of code.matchAll(REQUIRE_CALL)) {
    if (replacements.has(expression)) continue;
    checkAllowed(specifier);
    if (!member) throw new Error(`unexpected bare ${expression} in Ajv output`);
    const stem = stems.get(specifier) ?? bindingStem(specifier, taken);
    stems.set(specifier, stem);
    const from = JSON.stringify(withExtension(specifier));
    if (member === "default") {
      const local = `${stem}default`;
      if (!declared.has(local)) prelude.push(`import ${stem}m from ${from};`, `const ${local} = ${stem}m.default ?? ${stem}m;`);
      declared.add(local);
      replacements.set(expression, local);
    } else {
      if (!declared.has(stem)) prelude.push(`import * as ${stem} from ${from};`);
      declared.add(stem);
      replacements.set(expression, `${stem}.${member}`);
    }
  }
  return { prelude: [...prelude.filter((l) => l.startsWith("import")), ...prelude.filter((l) => !l.startsWith("import"))], replacements };
}

function rewriteRequires(code: string): { code: string; prelude: string[] } {
  const plan = planImports(code);
  const rewritten = code.replace(REQUIRE_CALL, (expression) => plan.replacements.get(expression) ?? expression);
  return { code: rewritten, prelude: plan.prelude };
}

/**
 * A complete ES module exporting one validate function per entry. Pure and
 * deterministic: the same entries always give the same text.
 */
export function standaloneModule(entries: readonly StandaloneEntry[]): string {
  const bodies = entries.map((entry) => isolate(storeErrorsOnChange(simplifyRootSignature(dropUnusedSchemas(compactErrorSites(ajvStandalone(entry))))), entry.exportName));
  const { code, prelude } = rewriteRequires(bodies.join("\n"));
  const helper = code.includes(ERROR_HELPER_CALL) ? [ERROR_HELPER] : [];
  return [USE_STRICT, ...prelude, ...helper, code].join("\n") + "\n";
}

function withHeader(header: string, text: string): string {
  return header.endsWith("\n") ? header + text : `${header}\n${text}`;
}

const DECLARATIONS = `import type { ValidateFunction } from "../runtime/contract.js";

/** Validates a call's arguments against the served input schema and applies its defaults in place. */
export declare const validateInput: ValidateFunction;
/** Validates a handler's result against the served output schema; never changes it. */
export declare const validateOutput: ValidateFunction;
`;

/**
 * `validators/<fileName>.js` (Ajv's code, never prettier-formatted: it is
 * large, machine-made and slow to format) and its `.d.ts`.
 */
export function emitValidators(tool: ToolIR, header: string): EmittedFile[] {
  const js = standaloneModule([
    { exportName: "validateInput", schema: tool.inputSchema, applyDefaults: true, validateSchema: false },
    { exportName: "validateOutput", schema: tool.outputSchema, applyDefaults: false, validateSchema: false },
  ]);
  return [
    { path: `validators/${tool.fileName}.js`, text: withHeader(header, js), format: false },
    { path: `validators/${tool.fileName}.d.ts`, text: withHeader(header, DECLARATIONS), format: true },
  ];
}
