/**
 * Facts about a served schema that every provider dialect asks: does a
 * node allow null, which JSON types an enum's values have, does a `$defs`
 * entry refer back to itself.
 */
import type { JsonObject, JsonPath, JsonSchema, JsonValue } from "../ir.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName, refsIn } from "../schema/refs.js";
import { SCHEMA_MAP_KEYWORDS, UNION_KEYWORDS } from "../schema/walk.js";

/** Why a schema cannot take a provider's strict form, and where. */
export interface SchemaProblem {
  readonly path: JsonPath;
  readonly message: string;
}

export function typesOf(node: JsonObject): string[] {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === "string") : [];
}

function jsonType(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The JSON types of an enum's values, integers folded into number when both occur. */
export function enumTypes(values: readonly JsonValue[]): string[] {
  const types = new Set(values.map(jsonType));
  if (types.has("number")) types.delete("integer");
  return [...types].sort();
}

/** Whether `node` accepts null, following `$ref`s into `defs`. */
export function allowsNull(node: JsonSchema, defs: JsonObject, seen: Set<string> = new Set()): boolean {
  if (node === true) return true;
  if (!isJsonObject(node)) return false;
  const ref = defsEntryName(node.$ref);
  if (ref !== undefined) {
    if (seen.has(ref)) return false;
    seen.add(ref);
    const target = defs[ref];
    if (target === undefined || !allowsNull(target as JsonSchema, defs, seen)) return false;
  }
  if (node.type !== undefined && !typesOf(node).includes("null")) return false;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if (Object.hasOwn(node, "const") && node.const !== null) return false;
  for (const key of UNION_KEYWORDS) {
    const branches = node[key];
    if (Array.isArray(branches) && !branches.some((b) => allowsNull(b as JsonSchema, defs, new Set(seen)))) return false;
  }
  return true;
}

/** The `$defs` entries `node` refers to, anywhere inside it. */
function defsReferredTo(node: JsonValue): Set<string> {
  return new Set(refsIn(node).flatMap((ref) => defsEntryName(ref) ?? []));
}

/** The `$defs` entries that can reach themselves through `$ref`: a recursive type. */
export function recursiveDefs(defs: JsonObject): string[] {
  const edges = new Map(Object.entries(defs).map(([name, schema]) => [name, defsReferredTo(schema)]));
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of edges.get(from) ?? []) {
      if (next === target) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, target, seen)) return true;
      }
    }
    return false;
  };
  return [...edges.keys()].filter((name) => reaches(name, name, new Set())).sort();
}

/** Keywords whose values are data, not schemas: never walked into. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "required"]);

/** Drops `x-` annotation keywords (x-sensitive and the like) everywhere: they constrain nothing and providers do not know them. */
export function withoutAnnotations(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (!isJsonObject(node)) return node;
  const entries = Object.entries(node)
    .filter(([key]) => !key.startsWith("x-"))
    .map(([key, value]): [string, JsonValue] => {
      if (DATA_KEYWORDS.has(key)) return [key, value];
      if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isJsonObject(value))
        return [key, Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withoutAnnotations(schema)]))];
      return [key, withoutAnnotations(value)];
    });
  return Object.fromEntries(entries);
}
