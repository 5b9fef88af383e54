/**
 * The keyword-level comparisons of two resolved schema nodes: type, enum and
 * const, bounds, pattern, format, default. Each returns what changed and how
 * it moves the set of accepted values; schema-compare.ts places and recurses.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonObject, JsonValue } from "../ir.js";
import { CHANGES, NARROWS, UNDECIDED, WIDENS, type Levels, type SchemaRule } from "./rules.js";

/** One change found at a node: its rule, what it does per direction, and the keyword it sits at. */
export interface KeywordChange {
  readonly rule: SchemaRule;
  readonly levels: Levels;
  readonly message: string;
  /** The keyword (and index) to point at; in the base file when `atBase`. */
  readonly keyword: readonly (string | number)[];
  readonly atBase?: boolean;
}

const show = (v: unknown): string => JSON.stringify(v);

/** The JSON types a node allows, or undefined when it does not say (any type). */
export function typeSet(node: JsonObject): string[] | undefined {
  const t = node.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return undefined;
}

/** Every integer is a number, so `number` covers `integer`. */
function covered(type: string, by: readonly string[]): boolean {
  return by.includes(type) || (type === "integer" && by.includes("number"));
}

export function compareType(base: JsonObject, head: JsonObject): KeywordChange[] {
  const b = typeSet(base);
  const h = typeSet(head);
  if (b === undefined && h === undefined) return [];
  const lost = b === undefined ? ["(any)"] : b.filter((t) => h !== undefined && !covered(t, h));
  const gained = h === undefined ? ["(any)"] : h.filter((t) => b !== undefined && !covered(t, b));
  if (lost.length === 0 && gained.length === 0) return [];
  const message = `type ${show(base.type ?? "any")} → ${show(head.type ?? "any")}`;
  const keyword = ["type"];
  if (lost.length > 0 && gained.length > 0) return [{ rule: "type-changed", levels: CHANGES, message, keyword }];
  if (lost.length > 0) return [{ rule: "type-narrowed", levels: NARROWS, message, keyword }];
  return [{ rule: "type-widened", levels: WIDENS, message, keyword }];
}

/** The values an `enum` or `const` allows, or undefined when the node has neither. */
export function allowedValues(node: JsonObject): readonly JsonValue[] | undefined {
  if ("const" in node) return [node.const as JsonValue];
  return Array.isArray(node.enum) ? node.enum : undefined;
}

function valueKeyword(node: JsonObject, value: JsonValue): (string | number)[] {
  if ("const" in node) return ["const"];
  const index = (node.enum as JsonValue[]).findIndex((v) => isDeepStrictEqual(v, value));
  return index < 0 ? ["enum"] : ["enum", index];
}

export function compareValues(base: JsonObject, head: JsonObject): KeywordChange[] {
  const b = allowedValues(base);
  const h = allowedValues(head);
  if (b === undefined && h === undefined) return [];
  if (b === undefined) return [{ rule: "enum-value-removed", levels: NARROWS, message: `now restricted to ${show(h)}`, keyword: "const" in head ? ["const"] : ["enum"] }];
  if (h === undefined) return [{ rule: "enum-value-added", levels: WIDENS, message: `no longer restricted to ${show(b)}`, keyword: [] }];
  const out: KeywordChange[] = [];
  for (const value of b.filter((v) => !h.some((w) => isDeepStrictEqual(v, w)))) {
    out.push({ rule: "enum-value-removed", levels: NARROWS, message: `value ${show(value)} removed`, keyword: valueKeyword(base, value), atBase: true });
  }
  for (const value of h.filter((v) => !b.some((w) => isDeepStrictEqual(v, w)))) {
    out.push({ rule: "enum-value-added", levels: WIDENS, message: `value ${show(value)} added`, keyword: valueKeyword(head, value) });
  }
  return out;
}

/** Lower bounds: a larger value accepts less. */
const LOWER_BOUNDS = ["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum"] as const;
/** Upper bounds: a smaller value accepts less. */
const UPPER_BOUNDS = ["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum"] as const;

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

function boundChange(key: string, b: number | undefined, h: number | undefined, tighter: (x: number, y: number) => boolean): KeywordChange[] {
  if (b === h) return [];
  const message = `${key} ${b ?? "(none)"} → ${h ?? "(none)"}`;
  if (h !== undefined && (b === undefined || tighter(h, b))) return [{ rule: "bound-tightened", levels: NARROWS, message, keyword: [key] }];
  return [{ rule: "bound-loosened", levels: WIDENS, message, keyword: [key] }];
}

/** multipleOf m2 accepts a subset of multipleOf m1 exactly when m2 is a multiple of m1; only integers are decided. */
function compareMultipleOf(b: number | undefined, h: number | undefined): KeywordChange[] {
  if (b === h) return [];
  const message = `multipleOf ${b ?? "(none)"} → ${h ?? "(none)"}`;
  const keyword = ["multipleOf"];
  if (b === undefined) return [{ rule: "bound-tightened", levels: NARROWS, message, keyword }];
  if (h === undefined) return [{ rule: "bound-loosened", levels: WIDENS, message, keyword }];
  if (!Number.isInteger(b) || !Number.isInteger(h)) return [{ rule: "schema-change-undecided", levels: UNDECIDED, message, keyword }];
  if (h % b === 0) return [{ rule: "bound-tightened", levels: NARROWS, message, keyword }];
  if (b % h === 0) return [{ rule: "bound-loosened", levels: WIDENS, message, keyword }];
  return [{ rule: "bound-tightened", levels: CHANGES, message, keyword }];
}

/** pattern and format: adding one narrows, removing one widens, changing one is not decided here. */
function compareAssertion(key: "pattern" | "format", b: unknown, h: unknown): KeywordChange[] {
  if (b === h) return [];
  const message = `${key} ${b === undefined ? "(none)" : show(b)} → ${h === undefined ? "(none)" : show(h)}`;
  if (b === undefined) return [{ rule: key === "pattern" ? "bound-tightened" : "format-changed", levels: NARROWS, message, keyword: [key] }];
  if (h === undefined) return [{ rule: key === "pattern" ? "bound-loosened" : "format-changed", levels: WIDENS, message, keyword: [key] }];
  return [{ rule: key === "pattern" ? "pattern-changed" : "format-changed", levels: UNDECIDED, message, keyword: [key] }];
}

export function compareBounds(base: JsonObject, head: JsonObject): KeywordChange[] {
  const out: KeywordChange[] = [];
  for (const key of LOWER_BOUNDS) out.push(...boundChange(key, num(base[key]), num(head[key]), (x, y) => x > y));
  for (const key of UPPER_BOUNDS) out.push(...boundChange(key, num(base[key]), num(head[key]), (x, y) => x < y));
  const bUnique = base.uniqueItems === true;
  const hUnique = head.uniqueItems === true;
  if (bUnique !== hUnique) {
    const message = `uniqueItems ${bUnique} → ${hUnique}`;
    out.push(hUnique ? { rule: "bound-tightened", levels: NARROWS, message, keyword: ["uniqueItems"] } : { rule: "bound-loosened", levels: WIDENS, message, keyword: ["uniqueItems"] });
  }
  out.push(...compareMultipleOf(num(base.multipleOf), num(head.multipleOf)));
  out.push(...compareAssertion("pattern", base.pattern, head.pattern));
  out.push(...compareAssertion("format", base.format, head.format));
  return out;
}

/**
 * A default is what the handler sees for a field the caller left out, so
 * changing it changes behaviour without breaking any schema. Output defaults
 * are never applied, so they are not reported.
 */
export function compareDefault(base: JsonObject, head: JsonObject): KeywordChange[] {
  const b = "default" in base;
  const h = "default" in head;
  if (!b && !h) return [];
  if (b && h) {
    if (isDeepStrictEqual(base.default, head.default)) return [];
    return [{ rule: "default-changed", levels: { input: "warning", output: null }, message: `default ${show(base.default)} → ${show(head.default)}`, keyword: ["default"] }];
  }
  if (h) return [{ rule: "default-added", levels: { input: "info", output: null }, message: `default ${show(head.default)} added`, keyword: ["default"] }];
  return [{ rule: "default-removed", levels: { input: "warning", output: null }, message: `default ${show(base.default)} removed: the handler no longer gets a value when the caller leaves it out`, keyword: ["default"], atBase: true }];
}

/**
 * Keywords that describe but never constrain: edits to them are not changes.
 * `$schema` is among them because toolc compiles one dialect, stated or not;
 * stating it is the policy rule `dialect-changed`.
 */
export const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "x-sensitive", "$schema"]);

/** Keywords the comparisons in this module and schema-compare.ts understand; any other difference is reported as undecided. */
export const UNDERSTOOD: ReadonlySet<string> = new Set([
  ...ANNOTATIONS, "$ref", "$defs", "type", "enum", "const", "default", ...LOWER_BOUNDS, ...UPPER_BOUNDS, "uniqueItems", "multipleOf", "pattern", "format",
  "properties", "required", "additionalProperties", "items", "prefixItems", "propertyNames", "anyOf", "oneOf", "allOf",
]);
