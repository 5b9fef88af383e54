/**
 * What a schema says about one value besides its type and its parts: its
 * bounds, enumeration, default, format, annotations and extensions, each as
 * a short phrase for the Details column of a schema table. One function per
 * keyword family; a keyword no function claims, and no structure rule of
 * schema-rows.ts reads, is still shown as written (the fallback), so the
 * catalog never hides what the served schema says. Keywords follow JSON
 * Schema 2020-12 (Validation, sections 6-9).
 */
import type { JsonObject, JsonValue } from "../../ir.js";
import { isWidthBound } from "../../schema/integer-widths.js";
import { isJsonObject } from "../../schema/json.js";
import { isObjectSchema } from "../../schema/walk.js";
import { badge, code, jsonCode, text, type Inline } from "./model.js";

export interface Facet {
  /** The keywords this facet reads. */
  readonly keys: readonly string[];
  readonly show: (schema: JsonObject) => Inline[] | undefined;
}

const num = (value: JsonValue | undefined): number | undefined => (typeof value === "number" ? value : undefined);

/** `min`–`max` of a counted thing: "1–64 characters", "at least 1 item", "at most 20 keys". */
function countRange(min: number | undefined, max: number | undefined, unit: string, units: string): Inline[] | undefined {
  const word = (n: number): string => `${n} ${n === 1 ? unit : units}`;
  if (min !== undefined && max !== undefined) return [text(min === max ? `exactly ${word(max)}` : `${min}–${word(max)}`)];
  if (min !== undefined) return min === 0 ? undefined : [text(`at least ${word(min)}`)];
  if (max !== undefined) return [text(`at most ${word(max)}`)];
  return undefined;
}

const constFacet: Facet = { keys: ["const"], show: (s) => (Object.hasOwn(s, "const") ? [text("= "), jsonCode(s["const"])] : undefined) };

const enumFacet: Facet = {
  keys: ["enum"],
  show: (s) => {
    const values = s["enum"];
    if (!Array.isArray(values)) return undefined;
    return [text("one of "), ...values.flatMap((v, i) => (i === 0 ? [jsonCode(v)] : [text(", "), jsonCode(v)]))];
  },
};

const defaultFacet: Facet = { keys: ["default"], show: (s) => (Object.hasOwn(s, "default") ? [text("default "), jsonCode(s["default"])] : undefined) };

const formatFacet: Facet = { keys: ["format"], show: (s) => (typeof s["format"] === "string" ? [text("format "), code(s["format"])] : undefined) };

const patternFacet: Facet = { keys: ["pattern"], show: (s) => (typeof s["pattern"] === "string" ? [text("pattern "), code(s["pattern"])] : undefined) };

const lengthFacet: Facet = { keys: ["minLength", "maxLength"], show: (s) => countRange(num(s["minLength"]), num(s["maxLength"]), "character", "characters") };

/** An integer's `minimum` or `maximum`, unless it is only its width's end (int32, int64), which says nothing to a reader. */
function integerBound(s: JsonObject, end: "minimum" | "maximum"): number | undefined {
  const bound = num(s[end]);
  const integer = s["type"] === "integer" || (Array.isArray(s["type"]) && s["type"].includes("integer"));
  return bound !== undefined && integer && isWidthBound(bound, end) ? undefined : bound;
}

/** Numeric bounds as one inequality: `1 ≤ value ≤ 100`, `value > 0`; an integer width's own ends left out. */
const rangeFacet: Facet = {
  keys: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  show: (s) => {
    const [minimum, maximum] = [integerBound(s, "minimum"), integerBound(s, "maximum")];
    const lower = num(s["exclusiveMinimum"]) !== undefined ? `${num(s["exclusiveMinimum"])} <` : minimum !== undefined ? `${minimum} ≤` : "";
    const upper = num(s["exclusiveMaximum"]) !== undefined ? `< ${num(s["exclusiveMaximum"])}` : maximum !== undefined ? `≤ ${maximum}` : "";
    if (lower === "" && upper === "") return undefined;
    return [text([lower, "value", upper].filter((part) => part !== "").join(" "))];
  },
};

const multipleOfFacet: Facet = {
  keys: ["multipleOf"],
  show: (s) => (num(s["multipleOf"]) === undefined ? undefined : [text(`multiple of ${num(s["multipleOf"])}`)]),
};

const itemCountFacet: Facet = {
  keys: ["minItems", "maxItems", "uniqueItems"],
  show: (s) => {
    const range = countRange(num(s["minItems"]), num(s["maxItems"]), "item", "items") ?? [];
    const unique = s["uniqueItems"] === true ? [text(range.length > 0 ? ", all distinct" : "items all distinct")] : [];
    return range.length + unique.length === 0 ? undefined : [...range, ...unique];
  },
};

const containsCountFacet: Facet = {
  keys: ["minContains", "maxContains"],
  show: (s) => countRange(num(s["minContains"]), num(s["maxContains"]), "matching item", "matching items"),
};

const propertyCountFacet: Facet = {
  keys: ["minProperties", "maxProperties"],
  show: (s) => countRange(num(s["minProperties"]), num(s["maxProperties"]), "key", "keys"),
};

/** An object that takes keys it does not list (JSON Schema's default, which toolc closes in input; imported outputs may stay open). */
const openObjectFacet: Facet = {
  keys: ["additionalProperties", "unevaluatedProperties"],
  show: (s) => {
    if (!isObjectSchema(s) || s["patternProperties"] !== undefined) return undefined;
    const open = (value: JsonValue | undefined): boolean => value === undefined || value === true;
    if (typeof s["additionalProperties"] === "object") return undefined;
    if (!open(s["additionalProperties"])) return undefined;
    return s["unevaluatedProperties"] === false ? [text("no keys besides those listed or matched")] : [badge("other keys allowed")];
  },
};

const dependentRequiredFacet: Facet = {
  keys: ["dependentRequired"],
  show: (s) => {
    const deps = s["dependentRequired"];
    if (!isJsonObject(deps)) return undefined;
    return Object.entries(deps).flatMap(([key, needs], i) => [
      ...(i === 0 ? [] : [text("; ")]),
      text("with "),
      code(key),
      text(", also "),
      ...(Array.isArray(needs) ? needs : []).flatMap((n, j) => (j === 0 ? [code(String(n))] : [text(", "), code(String(n))])),
    ]);
  },
};

const contentFacet: Facet = {
  keys: ["contentMediaType", "contentEncoding"],
  show: (s) => {
    const parts = [s["contentMediaType"], s["contentEncoding"]].filter((v): v is string => typeof v === "string");
    return parts.length === 0 ? undefined : [text("content "), code(parts.join(", "))];
  },
};

const annotationFacet: Facet = {
  keys: ["deprecated", "readOnly", "writeOnly"],
  show: (s) => {
    const marks = [
      s["deprecated"] === true ? badge("deprecated", "warning") : undefined,
      s["readOnly"] === true ? badge("read-only") : undefined,
      s["writeOnly"] === true ? badge("write-only") : undefined,
    ];
    const shown = marks.filter((m): m is Inline => m !== undefined);
    return shown.length === 0 ? undefined : shown.flatMap((m, i) => (i === 0 ? [m] : [text(" "), m]));
  },
};

const examplesFacet: Facet = {
  keys: ["examples"],
  show: (s) =>
    Array.isArray(s["examples"]) && s["examples"].length > 0
      ? [text("e.g. "), ...s["examples"].flatMap((v, i) => (i === 0 ? [jsonCode(v)] : [text(", "), jsonCode(v)]))]
      : undefined,
};

/** Known `x-` extensions, in words; any other is shown as its name and value. */
const EXTENSION_LABELS: Readonly<Record<string, (value: JsonValue) => string>> = {
  "x-sensitive": (v) => (v === true ? "sensitive" : `sensitive: ${typeof v === "string" ? v : JSON.stringify(v)}`),
  "x-mcp-header": (v) => `header Mcp-Param-${typeof v === "string" ? v : JSON.stringify(v)}`,
};

/** Every `x-` keyword of the schema as a badge (toolc's own extensions, and any a contract carries). */
export function extensionBadges(s: JsonObject): Inline[] {
  return Object.keys(s)
    .filter((key) => key.startsWith("x-"))
    .map((key) => {
      const value = s[key] as JsonValue;
      const label = EXTENSION_LABELS[key];
      return badge(label ? label(value) : value === true ? key : `${key}: ${JSON.stringify(value)}`, key === "x-sensitive" ? "warning" : "plain");
    });
}

export const FACETS: readonly Facet[] = [
  constFacet,
  enumFacet,
  defaultFacet,
  formatFacet,
  patternFacet,
  lengthFacet,
  rangeFacet,
  multipleOfFacet,
  itemCountFacet,
  containsCountFacet,
  propertyCountFacet,
  openObjectFacet,
  dependentRequiredFacet,
  contentFacet,
  annotationFacet,
  examplesFacet,
];

/** The details of one schema: every facet that has something to say, each an item of the Details cell. */
export function facetsOf(schema: JsonObject, structural: ReadonlySet<string>): Inline[][] {
  const shown = FACETS.map((f) => f.show(schema)).filter((parts): parts is Inline[] => parts !== undefined);
  const claimed = new Set([...structural, ...FACETS.flatMap((f) => f.keys)]);
  const rest = Object.keys(schema).filter((key) => !claimed.has(key) && !key.startsWith("x-"));
  return [...shown, ...rest.map((key) => [code(key), text(": "), jsonCode(schema[key])]), ...extensionBadges(schema).map((b) => [b])];
}
