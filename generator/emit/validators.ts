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
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { createAjv, EQUAL_MODULE, FORMATS_MODULE } from "../ajv.js";
import type { EmittedFile, JsonSchema, ToolIR } from "../ir.js";

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

const USE_STRICT = '"use strict";';
/** Ajv's runtime requires look like `require("ajv/dist/runtime/equal").default`. */
const REQUIRE_CALL = /require\("([^"\\]+)"\)(?:\.([A-Za-z_$][\w$]*))?/g;
/** Ajv's scope constants holding (sub)schemas, e.g. `const schema31 = {...};`. */
const SCHEMA_CONST = /const (schema\d+) = /g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Ajv standalone source for one schema, exporting `exportName`. */
function ajvStandalone(entry: StandaloneEntry): string {
  const ajv = createAjv({ applyDefaults: entry.applyDefaults, standalone: true, strictTypes: entry.strictTypes, validateSchema: entry.validateSchema });
  // A key, not an $id, identifies the schema; both instances use the same key.
  ajv.addSchema(entry.schema as object, "schema");
  return standaloneCode(ajv, { [entry.exportName]: "schema" });
}

/**
 * Puts one Ajv module body in its own function scope. Each Ajv instance names
 * its functions and constants from the same counters (validate10, func1,
 * ...), so two bodies in one file would collide.
 */
function isolate(code: string, exportName: string): string {
  if (!IDENTIFIER.test(exportName)) throw new Error(`invalid export name ${exportName}`);
  const prefix = `${USE_STRICT}export const ${exportName} = `;
  if (!code.startsWith(prefix)) throw new Error("unexpected Ajv standalone output");
  const rest = code.slice(prefix.length);
  const semicolon = rest.indexOf(";");
  const validateName = rest.slice(0, semicolon);
  const body = rest.slice(semicolon + 1);
  return `export const ${exportName} = (() => {${body}return ${validateName};})();`;
}

/** Index just past the JSON literal starting at `start` (Ajv writes schemas with JSON.stringify). */
function jsonLiteralEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    if (depth === 0 && (c === "}" || c === "]" || c === '"')) return i + 1;
    if (depth === 0 && c === ";") return i;
  }
  throw new Error("unterminated schema literal in Ajv output");
}

/**
 * Drops schema constants nothing refers to. Ajv keeps the root schema in
 * scope for error reporting options we do not use; it is often the largest
 * part of the file. A name also found inside a string is kept (harmless).
 */
function dropUnusedSchemas(code: string): string {
  let out = code;
  for (const match of [...code.matchAll(SCHEMA_CONST)].reverse()) {
    const name = match[1];
    const start = match.index;
    const valueStart = start + match[0].length;
    const end = jsonLiteralEnd(out, valueStart);
    if (out[end] !== ";") continue;
    const without = out.slice(0, start) + out.slice(end + 1);
    if (!new RegExp(`\\b${name}\\b`).test(without)) out = without;
  }
  return out;
}

/** Ajv's error sites: `const errN = {...};` then an append to `vErrors` (Ajv's addError). */
const ERROR_CONST = /const (err\d+) = \{/y;
const appendSuffix = (name: string) => `;if(vErrors === null){vErrors = [${name}];}else {vErrors.push(${name});}`;

/** Index of the character after the double-quoted string opening at `open`. */
function stringEnd(code: string, open: number): number {
  let i = open + 1;
  for (; code[i] !== '"'; i++) if (code[i] === "\\") i++;
  return i + 1;
}

/** Index after the object literal opening at `open`, skipping braces inside strings. */
function objectEnd(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; ) {
    const c = code[i];
    if (c === '"') {
      i = stringEnd(code, i);
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
    i++;
  }
  return -1;
}

/**
 * Rewrites each error site `const errN = {...};if(vErrors === null){vErrors =
 * [errN];}else {vErrors.push(errN);}` to `(vErrors ??= []).push({...});`.
 * vErrors is either null or an array and errN has no other use, so this is the
 * same statement in about 60 fewer bytes, and error sites are most of a
 * validator. Only code positions are matched, never text inside a string; if
 * a quote other than `"` appears in code (Ajv writes every string with
 * JSON.stringify), nothing is changed rather than guessed.
 */
function compactErrorSites(code: string): string {
  const out: string[] = [];
  let copied = 0;
  for (let i = 0; i < code.length; ) {
    const c = code[i];
    if (c === "'" || c === "`") return code;
    if (c === '"') {
      i = stringEnd(code, i);
      continue;
    }
    ERROR_CONST.lastIndex = i;
    const match = c === "c" ? ERROR_CONST.exec(code) : null;
    if (!match) {
      i++;
      continue;
    }
    const open = i + match[0].length - 1;
    const end = objectEnd(code, open);
    const suffix = appendSuffix(match[1]);
    if (end < 0 || !code.startsWith(suffix, end)) {
      i = open;
      continue;
    }
    out.push(code.slice(copied, i), `(vErrors ??= []).push(${code.slice(open, end)});`);
    i = copied = end + suffix.length;
  }
  out.push(code.slice(copied));
  return out.join("");
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
  const bodies = entries.map((entry) => isolate(compactErrorSites(dropUnusedSchemas(ajvStandalone(entry))), entry.exportName));
  const { code, prelude } = rewriteRequires(bodies.join("\n"));
  return [USE_STRICT, ...prelude, code].join("\n") + "\n";
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
