/**
 * Semantic equality of two JSON Schemas, written independently of the
 * importer so the corpus proof does not grade its own homework. Each rule
 * below is an identity of JSON Schema, not a convenience:
 * - key order never matters, and neither does the order of `required`;
 * - an absent `additionalProperties` is `true` (the spec's default), and the
 *   schema `{}` is the schema `true`; an empty `required` requires nothing;
 * - a one-element `type` array is that type;
 * - `definitions` (draft-07) and `$defs` (2020-12) are both just containers,
 *   so `#/definitions/X` and `#/$defs/X` name the same schema;
 * - the root's `$schema` is dropped: the drafts agree on every keyword the
 *   corpus uses (checked separately by `draftSensitiveKeywords`).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SUBSCHEMA = ["items", "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains", "additionalItems", "unevaluatedProperties", "unevaluatedItems"];
const SUBSCHEMA_LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMA_MAP = ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"];

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function canonicalValue(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonicalValue(value[k])]));
}

function canonicalKeyword(key: string, value: Json): [string, Json] | undefined {
  if (SUBSCHEMA.includes(key)) return [key, canonical(value)];
  if (SUBSCHEMA_LIST.includes(key) && Array.isArray(value)) return [key, value.map((v) => canonical(v))];
  if (SUBSCHEMA_MAP.includes(key) && isObject(value)) {
    const map = Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
    return [key === "definitions" ? "$defs" : key, map];
  }
  if (key === "required" && Array.isArray(value)) return value.length === 0 ? undefined : [key, [...value].sort()];
  if (key === "type" && Array.isArray(value)) return [key, value.length === 1 ? value[0] : [...value].sort()];
  if (key === "$ref" && typeof value === "string") return [key, value.replace(/^#\/definitions\//, "#/$defs/")];
  return [key, canonicalValue(value)];
}

/** The canonical form of a schema; two schemas are equal when their canonical forms are. */
export function canonical(schema: Json, root = false): Json {
  if (schema === true) return {};
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const key of Object.keys(schema).sort()) {
    if (root && (key === "$schema" || key === "$id")) continue;
    const entry = canonicalKeyword(key, schema[key]);
    if (entry) out[entry[0]] = entry[1];
  }
  if (isObject(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0) delete out.additionalProperties;
  return out;
}

export function semanticallyEqual(original: Json, served: Json): boolean {
  return JSON.stringify(canonical(original, true)) === JSON.stringify(canonical(served, true));
}

/**
 * Where a draft-07 schema would mean something else under 2020-12: `items`
 * as an array, `additionalItems`, `dependencies`, and `$ref` with siblings
 * (ignored in draft-07). The comparison above is only sound without them.
 */
export function draftSensitiveKeywords(schema: Json, at = ""): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => draftSensitiveKeywords(s, `${at}/${i}`));
  if (!isObject(schema)) return [];
  const found: string[] = [];
  if (Array.isArray(schema.items)) found.push(`${at}/items`);
  for (const key of ["additionalItems", "dependencies"]) if (key in schema) found.push(`${at}/${key}`);
  if ("$ref" in schema && Object.keys(schema).some((k) => !["$ref", "description", "title"].includes(k))) found.push(`${at}/$ref`);
  for (const [key, value] of Object.entries(schema)) if (typeof value === "object") found.push(...draftSensitiveKeywords(value, `${at}/${key}`));
  return found;
}
