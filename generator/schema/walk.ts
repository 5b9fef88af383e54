/**
 * A structural walk over the supported JSON Schema subset: which keywords
 * hold subschemas, and how to rebuild a node with its children transformed.
 * Load, normalize (sensitivity and union analysis included), diff, import,
 * the discriminators, the provider dialects and the validators' ref
 * inlining take their subschema keywords from these tables, so a keyword
 * added to the subset reaches all of them at once. Two lists are narrower
 * on purpose, and say why where they stand: the keywords the validators'
 * shared named-type calls follow (emit/validators/named-types.ts) and the
 * object keywords Ajv wants a type beside (emit/contract-tests/checker.ts).
 * The type emitter (emit/types/) still keeps lists of its own.
 */
import type { JsonObject, JsonPath, JsonSchema, JsonValue } from "../ir.js";
import { isJsonObject } from "./json.js";

/** Keywords whose value is a single subschema. */
export const SCHEMA_KEYWORDS = ["items", "additionalProperties", "propertyNames"] as const;
/** Keywords whose value is an array of subschemas. */
export const SCHEMA_LIST_KEYWORDS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
/** Keywords whose value is a map of name → subschema. */
export const SCHEMA_MAP_KEYWORDS = ["properties", "$defs"] as const;
/** The list keywords whose subschemas are alternatives (a value passes one or more, not all): unions. */
export const UNION_KEYWORDS = ["anyOf", "oneOf"] as const satisfies readonly (typeof SCHEMA_LIST_KEYWORDS)[number][];

/**
 * The same tables for any JSON Schema 2020-12 document, beyond the subset
 * toolc compiles (Core §10.2 and §11, the applicator and unevaluated
 * vocabularies): for walks that must not miss a subschema wherever it sits,
 * such as copies of any schema or where `x-mcp-header` may be written.
 */
export const ANY_SCHEMA_KEYWORDS = [...SCHEMA_KEYWORDS, "contains", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"] as const;
export const ANY_SCHEMA_LIST_KEYWORDS = SCHEMA_LIST_KEYWORDS;
export const ANY_SCHEMA_MAP_KEYWORDS = [...SCHEMA_MAP_KEYWORDS, "patternProperties", "dependentSchemas"] as const;

/**
 * The JSON Schema 2020-12 assertions outside toolc's subset: a contract that
 * writes one gets "unsupported" (load), and an imported schema that uses one
 * is skipped rather than served with a weaker meaning (import).
 */
export const ASSERTIONS_OUTSIDE_SUBSET = [
  "if",
  "then",
  "else",
  "not",
  "contains",
  "minContains",
  "maxContains",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "patternProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
] as const;

/** Gets the node with its children already rebuilt, its path, and the node as it was before. */
export type SchemaVisitor = (node: JsonObject, path: JsonPath, original: JsonObject) => JsonObject;

/**
 * Rebuilds `schema` bottom-up: children first, then `visit` on the node with
 * its rebuilt children. Key order is preserved, so output stays stable.
 */
export function mapSchema(schema: JsonSchema, path: JsonPath, visit: SchemaVisitor): JsonSchema {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = mapKeyword(key, value, [...path, key], visit);
  }
  return visit(out, path, schema);
}

function mapKeyword(key: string, value: JsonValue, path: JsonPath, visit: SchemaVisitor): JsonValue {
  if ((SCHEMA_KEYWORDS as readonly string[]).includes(key)) return mapSchema(value as JsonSchema, path, visit);
  if ((SCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
    return value.map((item, i) => mapSchema(item as JsonSchema, [...path, i], visit));
  }
  if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isJsonObject(value)) {
    const map: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) map[name] = mapSchema(sub as JsonSchema, [...path, name], visit);
    return map;
  }
  return value;
}

/** Calls `visit` on every object node, top-down, with its path. */
export function forEachSchema(schema: JsonSchema, path: JsonPath, visit: (node: JsonObject, path: JsonPath) => void): void {
  mapSchema(schema, path, (node, at) => {
    visit(node, at);
    return node;
  });
}

/** An object schema: declares type object, or constrains properties without declaring a type. */
export function isObjectSchema(node: JsonObject): boolean {
  const type = node.type;
  if (type === "object") return true;
  if (Array.isArray(type)) return type.includes("object");
  return type === undefined && ("properties" in node || "required" in node);
}
