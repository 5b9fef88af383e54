/**
 * Rewrites of Ajv's standalone output that make it smaller or faster without
 * changing what it accepts or the errors it reports. Each is kept only
 * because bench/validator-rewrites.ts measures it worth at least 10% on the
 * bench's contracts (figures in docs/performance.md): compactErrorSites and
 * dropUnusedSchemas in code size, simplifyRootSignature in time per call.
 * Each matches code positions only, never text inside a string or regex literal, and
 * leaves the code as it was when its pattern is not found exactly;
 * test/emit/rewrites.test.ts fails when one stops finding its pattern (say,
 * after an Ajv upgrade changes its output), and test/emit/postprocess.test.ts
 * checks the result against in-process Ajv, verdict by verdict.
 */

import { PARAM_NAMES } from "../../runtime/validator-errors.js";

/** Ajv's scope constants holding (sub)schemas, e.g. `const schema31 = {...};`. */
const SCHEMA_CONST = /const (schema\d+) = /g;

/** Index just past the JSON literal starting at `start` (Ajv writes schemas with JSON.stringify), or -1 when it does not end: the caller then leaves the code as it is. */
function jsonLiteralEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    if (depth === 0 && (c === "}" || c === "]" || c === '"')) return i + 1;
    if (depth === 0 && c === ";") return i;
  }
  return -1;
}

/**
 * Drops schema constants nothing refers to. Ajv keeps the root schema in
 * scope for error reporting options we do not use; it is often the largest
 * part of the file. A name also found inside a string is kept (harmless).
 */
export function dropUnusedSchemas(code: string): string {
  let out = code;
  for (const match of [...code.matchAll(SCHEMA_CONST)].reverse()) {
    const name = match[1];
    const start = match.index;
    const valueStart = start + match[0].length;
    const end = jsonLiteralEnd(out, valueStart);
    if (end < 0 || out[end] !== ";") continue;
    const without = out.slice(0, start) + out.slice(end + 1);
    if (!new RegExp(`\\b${name}\\b`).test(without)) out = without;
  }
  return out;
}

/** Ajv's error sites: `const errN = {...};` then an append to `vErrors` (Ajv's addError). */
const ERROR_CONST = /const (err\d+) = \{/y;
const appendSuffix = (name: string) => `;if(vErrors === null){vErrors = [${name}];}else {vErrors.push(${name});}`;

/** Index of the character after the double-quoted string opening at `open` (the code's end when it never closes). */
function stringEnd(code: string, open: number): number {
  let i = open + 1;
  for (; i < code.length && code[i] !== '"'; i++) if (code[i] === "\\") i++;
  return Math.min(i + 1, code.length);
}

/** Characters after which a `/` opens a regex literal rather than divides (Ajv writes `.replace(/~/g, "~0")`). */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);

/** Index after the regex literal (and its flags) opening at `open`, or -1 when the `/` there divides or opens no literal on its line. */
function regexEnd(code: string, open: number): number {
  let before = open - 1;
  while (before >= 0 && /\s/.test(code[before] as string)) before--;
  if (before >= 0 && !BEFORE_REGEX.has(code[before] as string)) return -1;
  let inClass = false;
  for (let i = open + 1; i < code.length; i++) {
    const c = code[i];
    if (c === "\n") return -1;
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) {
      let end = i + 1;
      while (end < code.length && /[a-z]/.test(code[end] as string)) end++;
      return end;
    }
  }
  return -1;
}

/** Index after the string or regex literal opening at `at`, or -1 when none opens there: the scanners skip literals whole. */
function literalEnd(code: string, at: number): number {
  const c = code[at];
  if (c === '"') return stringEnd(code, at);
  return c === "/" ? regexEnd(code, at) : -1;
}

/** Index after the object literal opening at `open`, skipping braces inside string and regex literals. */
function objectEnd(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length;) {
    const c = code[i];
    const literal = literalEnd(code, i);
    if (literal >= 0) {
      i = literal;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
    i++;
  }
  return -1;
}

/**
 * Index of the first `token` at a code position of code[from, to) outside any
 * bracket opened in that range, or -1. String and regex literals are skipped whole.
 */
function findTopLevel(code: string, from: number, to: number, token: string): number {
  let depth = 0;
  for (let i = from; i < to;) {
    const c = code[i];
    const literal = literalEnd(code, i);
    if (literal >= 0) {
      i = literal;
      continue;
    }
    if (depth === 0 && code.startsWith(token, i)) return i;
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    i++;
  }
  return -1;
}

/** A function of runtime/validator-errors.ts that generated code calls (`member`), and the name a validators module imports it as. */
export interface ErrorListFunction {
  readonly name: string;
  readonly member: string;
}

/**
 * The function every compacted error site calls: runtime/validator-errors.ts
 * `addError`, which appends one error object to the list (null until the
 * first) and returns the list. The object has Ajv's fields; `schemaPath`
 * only where issues.ts reads it (see keepsSchemaPath). A validators module
 * imports it under this name.
 */
export const ERROR_HELPER: ErrorListFunction = { name: "err$", member: "addError" };
/** The same for an error whose params are the one parameter PARAM_NAMES gives its keyword: the call passes the value alone. */
export const PARAM_ERROR_HELPER: ErrorListFunction = { name: "err1$", member: "addParamError" };

/** `vErrors = <helper>(vErrors,` then the arguments. */
const callHead = (helper: ErrorListFunction): string => `vErrors = ${helper.name}(vErrors,`;

/** Ajv's params `{name: value}` with one field: the value, when `name` is the one PARAM_NAMES gives `keyword`. */
function paramValue(params: string, keyword: string): string | undefined {
  const name = PARAM_NAMES.get(keyword);
  if (name === undefined || !params.startsWith(`{${name}: `) || !params.endsWith("}")) return undefined;
  const from = name.length + 3;
  if (findTopLevel(params, from, params.length - 1, ",") >= 0) return undefined;
  return params.slice(from, -1);
}

/**
 * issues.ts reads `schemaPath` for one thing: dropping the errors raised
 * inside a failed anyOf/oneOf branch, found by the union error's schemaPath
 * being a prefix of theirs. Only union errors and errors under a union
 * (a path through `/anyOf/` or `/oneOf/`) can take part in that; every other
 * error keeps the same issues without it.
 */
function keepsSchemaPath(schemaPath: string, keyword: string): boolean {
  return keyword === "anyOf" || keyword === "oneOf" || schemaPath.includes("/anyOf/") || schemaPath.includes("/oneOf/");
}

const SCHEMA_MEMBER = /^(schema\d+)((?:\.[A-Za-z_$][\w$]*)+)/;

/**
 * `params` with each read of a schema constant (`schema0.properties.x.type`,
 * written by Ajv for type unions and enums) replaced by the JSON value it
 * reads, so the constant, often the whole schema, can be dropped. Only in
 * error params, which run once per error; never in checks, where a literal
 * would allocate on every call. Undefined when a read cannot be resolved.
 */
function inlineSchemaReads(params: string, schemas: ReadonlyMap<string, unknown>): string | undefined {
  let out = "";
  for (let i = 0; i < params.length;) {
    const c = params[i];
    if (c === '"') {
      const end = stringEnd(params, i);
      out += params.slice(i, end);
      i = end;
      continue;
    }
    const match = c === "s" && !/[\w$.]/.test(params[i - 1] ?? "") ? SCHEMA_MEMBER.exec(params.slice(i)) : null;
    if (!match) {
      out += c;
      i++;
      continue;
    }
    let value = schemas.get(match[1]);
    for (const key of match[2].slice(1).split(".")) {
      if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    if (value === undefined || /[\w$]/.test(params[i + match[0].length] ?? "")) return undefined;
    out += JSON.stringify(value);
    i += match[0].length;
  }
  return out;
}

/**
 * One error object `{instancePath…,schemaPath:"…",keyword:"…",params:…}` as
 * a call of ERROR_HELPER or PARAM_ERROR_HELPER, and which one; undefined when
 * it is not exactly that shape.
 */
function errorHelperCall(object: string, schemas: ReadonlyMap<string, unknown>): { text: string; helper: ErrorListFunction } | undefined {
  const head = "{instancePath";
  if (!object.startsWith(head) || !object.endsWith("}")) return undefined;
  let instancePath = "instancePath";
  let at = head.length;
  if (object[at] === ":") {
    const end = findTopLevel(object, at + 1, object.length - 1, ",schemaPath:");
    if (end < 0) return undefined;
    instancePath = object.slice(at + 1, end);
    at = end;
  }
  const field = (name: string): string | undefined => {
    const prefix = `,${name}:"`;
    if (!object.startsWith(prefix, at)) return undefined;
    const end = stringEnd(object, at + prefix.length - 1);
    const literal = object.slice(at + prefix.length - 1, end);
    at = end;
    return literal;
  };
  const schemaPath = field("schemaPath");
  const keyword = field("keyword");
  if (schemaPath === undefined || keyword === undefined || !object.startsWith(",params:", at)) return undefined;
  const paramsStart = at + ",params:".length;
  if (findTopLevel(object, paramsStart, object.length - 1, ",") >= 0) return undefined;
  const params = inlineSchemaReads(object.slice(paramsStart, -1), schemas);
  if (params === undefined) return undefined;
  const keep = keepsSchemaPath(JSON.parse(schemaPath) as string, JSON.parse(keyword) as string);
  const value = keep ? undefined : paramValue(params, JSON.parse(keyword) as string);
  if (value !== undefined) return { text: `${callHead(PARAM_ERROR_HELPER)}${instancePath},${keyword},${value});`, helper: PARAM_ERROR_HELPER };
  return { text: `${callHead(ERROR_HELPER)}${instancePath},${keyword},${params}${keep ? `,${schemaPath}` : ""});`, helper: ERROR_HELPER };
}

/** Ajv's schema constants in `code`, parsed (Ajv writes them with JSON.stringify). */
function schemaConstants(code: string): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  for (const match of code.matchAll(SCHEMA_CONST)) {
    const start = match.index + match[0].length;
    const end = jsonLiteralEnd(code, start);
    if (end < 0) continue;
    try {
      schemas.set(match[1], JSON.parse(code.slice(start, end)));
    } catch {
      // Not a plain JSON literal: reads of it stay as they are.
    }
  }
  return schemas;
}

/**
 * Rewrites each error site `const errN = {...};if(vErrors === null){vErrors =
 * [errN];}else {vErrors.push(errN);}` to `vErrors = err$(vErrors,<instancePath>,
 * <keyword>,<params>[,<schemaPath>]);` (see ERROR_HELPER), or, when the object
 * is not exactly Ajv's four fields, to `(vErrors ??= []).push({...});`.
 * vErrors is either null or an array and errN has no other use, so either is
 * the same statement in fewer bytes, and error sites are most of a
 * validator. Only code positions are matched, never text inside a string; if
 * a quote other than `"` appears in code (Ajv writes every string with
 * JSON.stringify), nothing is changed rather than guessed. Each helper the
 * result calls is added to `calls`, so its module imports exactly those.
 */
export function compactErrorSites(code: string, calls: Set<ErrorListFunction> = new Set()): string {
  const schemas = schemaConstants(code);
  const written = new Set<ErrorListFunction>();
  const out: string[] = [];
  let copied = 0;
  for (let i = 0; i < code.length;) {
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
    const object = code.slice(open, end);
    const call = errorHelperCall(object, schemas);
    if (call !== undefined) written.add(call.helper);
    out.push(code.slice(copied, i), call?.text ?? `(vErrors ??= []).push(${object});`);
    i = copied = end + suffix.length;
  }
  out.push(code.slice(copied));
  // Only now: code returned unchanged above (a quote other than `"` in it) calls none of them.
  for (const helper of written) calls.add(helper);
  return out.join("");
}

/** Ajv's signature for every validate function (with dynamicRef off). */
const AJV_SIGNATURE = /function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{/g;

const isNameChar = (c: string | undefined): boolean => c !== undefined && /[\w$]/.test(c);

/**
 * Each occurrence of identifier `name` at a code position: its index. It
 * jumps from candidate to candidate with indexOf, skipping string and regex literals,
 * rather than stepping through every character.
 */
function identifierSites(code: string, name: string): number[] {
  const sites: number[] = [];
  let literal = nextLiteral(code, 0);
  for (let at = code.indexOf(name); at >= 0;) {
    // A string or regex literal opens before the candidate: skip past it, and look again from there.
    if (literal !== undefined && literal[0] < at) {
      const end = literal[1];
      literal = nextLiteral(code, end);
      if (end > at) at = code.indexOf(name, end);
      continue;
    }
    const before = code[at - 1];
    if (!isNameChar(before) && before !== "." && !isNameChar(code[at + name.length])) {
      sites.push(at);
      at = code.indexOf(name, at + name.length);
    } else at = code.indexOf(name, at + 1);
  }
  return sites;
}

/** Where the next string or regex literal at or after `from` starts and ends, found with indexOf. */
function nextLiteral(code: string, from: number): readonly [number, number] | undefined {
  const quote = code.indexOf('"', from);
  for (let slash = code.indexOf("/", from); slash >= 0 && (quote < 0 || slash < quote); slash = code.indexOf("/", slash + 1)) {
    const end = regexEnd(code, slash);
    if (end >= 0) return [slash, end];
  }
  return quote < 0 ? undefined : [quote, stringEnd(code, quote)];
}

/**
 * When a body has one validate function and nothing calls it with a context
 * (no $ref back to it), its context parameter is always the default: the
 * function becomes `validateN(data)`, with no object to destructure on every
 * call, and its instancePath, always "", is folded into the paths
 * (`instancePath+"/id"` becomes `"/id"`). Anything unexpected leaves the
 * body unchanged, or keeps `const instancePath = ""`.
 */
export function simplifyRootSignature(code: string): string {
  const signatures = [...code.matchAll(AJV_SIGNATURE)];
  if (signatures.length !== 1 || (code.match(/function validate\d+\(/g) ?? []).length !== 1) return code;
  const [signature, name] = signatures[0];
  const start = signatures[0].index;
  const rest = code.slice(0, start) + "\u0000".repeat(signature.length) + code.slice(start + signature.length);
  for (const other of ["parentData", "parentDataProperty", "rootData", "dynamicAnchors"]) if (identifierSites(rest, other).length > 0) return code;
  if (identifierSites(rest, name).some((i) => rest[i + name.length] === "(")) return code;
  const body = code.slice(start + signature.length);
  const sites = identifierSites(body, "instancePath");
  const foldable = sites.every((i) => body[i - 1] !== "{" && body[i + "instancePath".length] !== ":");
  let folded = body;
  if (foldable) {
    // Pieces joined once: slicing the whole body at every site was quadratic in the code's size.
    const pieces: string[] = [];
    let copied = 0;
    for (const i of sites) {
      const after = i + "instancePath".length;
      if (body.startsWith('+"', after)) {
        pieces.push(body.slice(copied, i));
        copied = after + 1;
      } else {
        pieces.push(body.slice(copied, i), '""');
        copied = after;
      }
    }
    pieces.push(body.slice(copied));
    folded = pieces.join("");
  }
  return `${code.slice(0, start)}function ${name}(data){${foldable ? "" : 'const instancePath = "";'}${folded}`;
}
