/**
 * Tagged unions, decided by their tag. An `anyOf`/`oneOf` whose branches are
 * objects that each require one property with string values no other branch
 * allows (`kind: { const: circle }`) can match at most the branch its tag
 * names. Ajv, left to itself, validates every branch in full, collecting
 * every error (toolc validates with `allErrors`), so a recursive tagged union
 * (an expression tree) took time exponential in its depth. Ajv's documented
 * `discriminator` option (ajv.js.org/json-schema.html#discriminator) reads
 * the tag and validates the one branch it names, and reports that branch's
 * own errors, which tell the caller exactly what to fix.
 *
 * The keyword is OpenAPI's, not JSON Schema's, so the served schema never
 * carries it: it is added to the copy of a schema that Ajv compiles, the
 * same everywhere toolc compiles one (normalize, the contract-test checker,
 * the emitted validators), so that the issues each reports are the same. The
 * rewrite changes no verdict: a value whose tag names no branch, or that has
 * no string tag, matches no branch either way.
 */
import type { JsonObject, JsonSchema, JsonValue } from "./ir.js";
import { isJsonObject } from "./schema/json.js";
import { resolveLocalRef } from "./schema/refs.js";
import { ANY_SCHEMA_KEYWORDS, ANY_SCHEMA_LIST_KEYWORDS, ANY_SCHEMA_MAP_KEYWORDS } from "./schema/walk.js";

export type UnionKeyword = "anyOf" | "oneOf";

/** Resolves a `$ref` of the schema being compiled; undefined when it names nothing. */
export type RefResolver = (ref: string) => JsonSchema | undefined;

/** A resolver for the local `#/…` references of `root` (`#/$defs/Name`, or any pointer into it). */
export function localResolver(root: JsonSchema): RefResolver {
  return (ref) => (isJsonObject(root) && ref.startsWith("#/") ? (resolveLocalRef(root, ref) as JsonSchema | undefined) : undefined);
}

/** A branch as Ajv's discriminator reads it: a bare `{$ref}` is followed once, anything else is taken as it stands. */
function branchSchema(branch: JsonValue, resolve: RefResolver): JsonObject | undefined {
  if (!isJsonObject(branch)) return undefined;
  const keys = Object.keys(branch);
  if (keys.length === 1 && typeof branch.$ref === "string") {
    const target = resolve(branch.$ref);
    return isJsonObject(target) ? target : undefined;
  }
  return branch;
}

/**
 * The string values a branch allows for property `name`, when it requires
 * the property and gives it a `const` or an `enum` of strings; else
 * undefined. Ajv reads a `const` first and only when it is truthy, and keeps
 * the mapping in a plain object, so names Object.prototype has are left out.
 */
function tagValues(branch: JsonObject, name: string): string[] | undefined {
  const property = isJsonObject(branch.properties) ? branch.properties[name] : undefined;
  if (!isJsonObject(property) || !Array.isArray(branch.required) || !branch.required.includes(name)) return undefined;
  const values = "const" in property ? [property.const] : Array.isArray(property.enum) ? property.enum : undefined;
  if (values === undefined || values.length === 0) return undefined;
  if (!values.every((v): v is string => typeof v === "string" && v !== "" && !(v in Object.prototype))) return undefined;
  return values;
}

/**
 * The tag of `node[keyword]`, if the union is a tagged one Ajv's
 * discriminator can decide: one or more branches (a one-branch union is
 * tagged too, so a wrong tag is reported at the tag whatever the number of
 * branches, not at the union), each `type: object`, each
 * requiring the tag with string values no other branch allows, on a node
 * that is an object schema or has no type. The first such property of the
 * first branch, in order.
 */
export function discriminatorTag(node: JsonObject, keyword: UnionKeyword, resolve: RefResolver): string | undefined {
  const branches = node[keyword];
  if (!Array.isArray(branches) || branches.length === 0 || "discriminator" in node) return undefined;
  if (node.type !== undefined && node.type !== "object") return undefined;
  const schemas = branches.map((b) => branchSchema(b, resolve));
  if (!schemas.every((s): s is JsonObject => s !== undefined && s.type === "object")) return undefined;
  const first = schemas[0] as JsonObject;
  const candidates = isJsonObject(first.properties) ? Object.keys(first.properties) : [];
  for (const name of candidates) {
    const seen = new Set<string>();
    const distinct = schemas.every((s) => {
      const values = tagValues(s, name);
      if (values === undefined) return false;
      for (const v of values) {
        if (seen.has(v)) return false;
        seen.add(v);
      }
      return true;
    });
    if (distinct) return name;
  }
  return undefined;
}

/** The union at `node` decided by a tag, if any: `oneOf` first, then an `anyOf` when there is no `oneOf` beside it. */
export function taggedUnion(node: JsonObject, resolve: RefResolver): { keyword: UnionKeyword; tag: string } | undefined {
  const oneOfTag = discriminatorTag(node, "oneOf", resolve);
  if (oneOfTag !== undefined) return { keyword: "oneOf", tag: oneOfTag };
  if ("oneOf" in node) return undefined;
  const anyOfTag = discriminatorTag(node, "anyOf", resolve);
  return anyOfTag === undefined ? undefined : { keyword: "anyOf", tag: anyOfTag };
}

/**
 * The node with its tagged union handed to Ajv's discriminator, which
 * decides only `oneOf`: a tagged `anyOf` becomes one, as its branches cannot
 * both match. `type: object` is stated, as every branch requires it anyway,
 * because the discriminator (and with it the union) is skipped for other
 * values.
 */
function discriminated(node: JsonObject, union: { keyword: UnionKeyword; tag: string }): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === union.keyword) {
      out.discriminator = { propertyName: union.tag };
      out.oneOf = value;
    } else out[key] = value;
  }
  if (out.type === undefined) out.type = "object";
  return out;
}

/** Keywords whose value is a subschema, a list of them or a map of them, in the subset toolc compiles (and Ajv's own, for copies of any schema). */
const ONE: ReadonlySet<string> = new Set(ANY_SCHEMA_KEYWORDS);
const LIST: ReadonlySet<string> = new Set(ANY_SCHEMA_LIST_KEYWORDS);
const MAP: ReadonlySet<string> = new Set(ANY_SCHEMA_MAP_KEYWORDS);

/** `schema` rebuilt bottom-up with `visit` applied to every schema node; nodes `visit` leaves alone keep their identity when nothing below changed. */
function rewrite(schema: JsonValue, visit: (node: JsonObject) => JsonObject): JsonValue {
  if (!isJsonObject(schema)) return schema;
  let changed = false;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    let next = value;
    if (ONE.has(key)) next = rewrite(value, visit);
    else if (LIST.has(key) && Array.isArray(value)) {
      const items = value.map((v) => rewrite(v, visit));
      next = items.some((v, i) => v !== value[i]) ? items : value;
    } else if (MAP.has(key) && isJsonObject(value)) {
      const entries = Object.entries(value).map(([k, v]) => [k, rewrite(v, visit)] as const);
      next = entries.some(([k, v]) => v !== value[k]) ? Object.fromEntries(entries) : value;
    }
    if (next !== value) changed = true;
    out[key] = next;
  }
  return visit(changed ? out : schema);
}

const prepared = new WeakMap<object, JsonSchema>();

/**
 * The schema Ajv compiles for `schema`: every tagged union (see
 * taggedUnion) handed to Ajv's discriminator. The same object when there is
 * none; the same copy for the same object every time, so Ajv, which caches
 * compiled schemas by identity, compiles it once.
 */
export function withDiscriminators(schema: JsonSchema): JsonSchema {
  if (!isJsonObject(schema)) return schema;
  const known = prepared.get(schema);
  if (known !== undefined) return known;
  const resolve = localResolver(schema);
  const out = rewrite(schema, (node) => {
    const union = taggedUnion(node, resolve);
    return union === undefined ? node : discriminated(node, union);
  }) as JsonSchema;
  prepared.set(schema, out);
  return out;
}
