// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Facts about a served input schema that every provider dialect asks (does
 * a node allow null, which JSON types an enum's values have, which `$defs`
 * entry a `$ref` names), `allOf` merged into one object, and the small
 * rewrites of one node (nullable, dropped keywords named in the
 * description). The rewriter (provider-rewrite.ts) builds each dialect from
 * them, in the compiler and in a generated project alike.
 */
import type { JsonSchemaObject } from "./contract.js";
import { pointerTokens } from "./pointer.js";

/** A place in a schema, from its root: keys and array indexes. */
export type SchemaPath = readonly (string | number)[];

/** Why a schema cannot take a provider's strict form, and where. */
export interface SchemaProblem {
  readonly path: SchemaPath;
  readonly message: string;
}

/** A JSON object: not null, not an array. A schema node, a `properties` map. */
export const isSchemaObject = (value: unknown): value is JsonSchemaObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The root `$defs` entry a local reference names (`#/$defs/<name>`, percent- then `~`-decoded), or undefined for any other reference. */
export function defsEntryName(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let tokens: string[];
  try {
    tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  return tokens.length === 2 && tokens[0] === "$defs" ? tokens[1] : undefined;
}

export function typesOf(node: JsonSchemaObject): string[] {
  const type = node["type"];
  if (typeof type === "string") return [type];
  return Array.isArray(type)
    ? type.filter((t): t is string => typeof t === "string")
    : [];
}

/** Whether a node describes an object: `type` says so, or it has `properties` or `required` and no `type`. */
export function isObjectSchema(node: JsonSchemaObject): boolean {
  const type = node["type"];
  if (type === "object") return true;
  if (Array.isArray(type)) return type.includes("object");
  return type === undefined && ("properties" in node || "required" in node);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number")
    return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The JSON types of an enum's values, integers folded into number when both occur. */
export function enumTypes(values: readonly unknown[]): string[] {
  const types = new Set(values.map(jsonType));
  if (types.has("number")) types.delete("integer");
  return [...types].sort();
}

/** Whether `node` accepts null, following `$ref`s into `defs`. */
export function allowsNull(
  node: unknown,
  defs: JsonSchemaObject,
  seen: Set<string> = new Set(),
): boolean {
  if (node === true) return true;
  if (!isSchemaObject(node)) return false;
  const ref = defsEntryName(node["$ref"]);
  if (ref !== undefined) {
    if (seen.has(ref)) return false;
    seen.add(ref);
    const target = defs[ref];
    if (target === undefined || !allowsNull(target, defs, seen)) return false;
  }
  if (node["type"] !== undefined && !typesOf(node).includes("null"))
    return false;
  const values = node["enum"];
  if (Array.isArray(values) && !values.includes(null)) return false;
  if (Object.hasOwn(node, "const") && node["const"] !== null) return false;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (
      Array.isArray(branches) &&
      !branches.some((b) => allowsNull(b, defs, new Set(seen)))
    )
      return false;
  }
  return true;
}

/** Keywords whose values are data, not schemas: never walked into. */
const DATA_KEYWORDS = new Set([
  "enum",
  "const",
  "default",
  "examples",
  "required",
]);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "$defs"]);

/** Drops `x-` annotation keywords (x-sensitive and the like) everywhere: they constrain nothing and providers do not know them. */
export function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (!isSchemaObject(node)) return node;
  const entries = Object.entries(node)
    .filter(([key]) => !key.startsWith("x-"))
    .map(([key, value]): [string, unknown] => {
      if (DATA_KEYWORDS.has(key)) return [key, value];
      if (SCHEMA_MAP_KEYWORDS.has(key) && isSchemaObject(value))
        return [
          key,
          Object.fromEntries(
            Object.entries(value).map(([name, schema]) => [
              name,
              withoutAnnotations(schema),
            ]),
          ),
        ];
      return [key, withoutAnnotations(value)];
    });
  return Object.fromEntries(entries);
}

/** A branch as an object schema: a `$ref` followed, a nested `allOf` merged; undefined when it is not an object. */
function resolveBranch(
  branch: unknown,
  defs: JsonSchemaObject,
  seen: Set<string>,
): JsonSchemaObject | undefined {
  if (!isSchemaObject(branch)) return undefined;
  const ref = defsEntryName(branch["$ref"]);
  if (ref !== undefined) {
    const target = defs[ref];
    if (
      seen.has(ref) ||
      Object.keys(branch).length !== 1 ||
      !isSchemaObject(target)
    )
      return undefined;
    return resolveBranch(target, defs, new Set([...seen, ref]));
  }
  if (Array.isArray(branch["allOf"])) return mergeAllOf(branch, defs, seen);
  return isObjectSchema(branch) ? branch : undefined;
}

/**
 * `allOf` of objects, as toolc writes a type that extends another
 * (`allOf: [{ $ref: Base }, { properties: ... }]` with
 * `unevaluatedProperties: false`), merged into one object: the union of all
 * properties and of all `required`, closed when `unevaluatedProperties:
 * false` closed it. No provider's strict mode takes `allOf`, but every one
 * takes the merged object, which offers the model exactly the properties
 * the contract declares; toolc's validator still checks the contract as
 * written. Undefined when a branch is not an object or two branches declare
 * one property differently.
 */
export function mergeAllOf(
  node: JsonSchemaObject,
  defs: JsonSchemaObject,
  seen: Set<string> = new Set(),
): JsonSchemaObject | undefined {
  const { allOf, unevaluatedProperties, ...own } = node;
  if (!Array.isArray(allOf)) return undefined;
  const parts = [own, ...allOf.map((b) => resolveBranch(b, defs, seen))];
  const properties: JsonSchemaObject = {};
  const required = new Set<string>();
  for (const part of parts) {
    if (part === undefined) return undefined;
    const declared = part["properties"];
    for (const [name, schema] of Object.entries(
      isSchemaObject(declared) ? declared : {},
    )) {
      if (
        Object.hasOwn(properties, name) &&
        JSON.stringify(properties[name]) !== JSON.stringify(schema)
      )
        return undefined;
      properties[name] = schema;
    }
    const names = part["required"];
    for (const name of Array.isArray(names) ? names : [])
      if (typeof name === "string") required.add(name);
  }
  const merged: JsonSchemaObject = {
    ...own,
    type: "object",
    properties,
    required: [...required],
  };
  if (unevaluatedProperties === false) merged["additionalProperties"] = false;
  return merged;
}

/**
 * An object closed over its `anyOf`/`oneOf` (normalize's
 * `unevaluatedProperties: false`, branches open) as a union of closed
 * objects: each branch with the object's own properties and `required`
 * merged in, as the strict forms need every object closed. Undefined when a
 * branch is not an object or declares one of the object's properties
 * differently.
 */
export function distributeUnion(
  node: JsonSchemaObject,
  defs: JsonSchemaObject,
): JsonSchemaObject | undefined {
  const key = Array.isArray(node["anyOf"])
    ? "anyOf"
    : Array.isArray(node["oneOf"])
      ? "oneOf"
      : undefined;
  if (
    key === undefined ||
    node["unevaluatedProperties"] !== false ||
    Array.isArray(node["allOf"]) ||
    (Array.isArray(node["anyOf"]) && Array.isArray(node["oneOf"]))
  )
    return undefined;
  const {
    anyOf: _anyOf,
    oneOf: _oneOf,
    unevaluatedProperties: _closed,
    title,
    description,
    ...own
  } = node;
  const branches: JsonSchemaObject[] = [];
  for (const branch of node[key] as unknown[]) {
    const resolved = resolveBranch(branch, defs, new Set());
    const merged =
      resolved === undefined
        ? undefined
        : mergeAllOf(
            { ...own, allOf: [resolved], unevaluatedProperties: false },
            defs,
          );
    if (merged === undefined) return undefined;
    branches.push(merged);
  }
  // Still an object (a tool's parameters must say so), its shape all in the branches.
  const type: JsonSchemaObject = isObjectSchema(own) ? { type: "object" } : {};
  return {
    ...type,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    [key]: branches,
  };
}

function describeDropped(dropped: [string, unknown][]): string {
  const rules = dropped
    .filter(([key]) => !["default", "examples", "deprecated"].includes(key))
    .map(([key, value]) =>
      key === "oneOf"
        ? "exactly one alternative must match"
        : `${key} ${JSON.stringify(value)}`,
    );
  const notes = dropped.flatMap(([key, value]) => {
    if (key === "default") return [`Default: ${JSON.stringify(value)}.`];
    if (key === "examples") return [`Examples: ${JSON.stringify(value)}.`];
    return key === "deprecated" && value === true ? ["Deprecated."] : [];
  });
  return [
    ...(rules.length > 0 ? [`Constraints: ${rules.join("; ")}.`] : []),
    ...notes,
  ].join(" ");
}

export function withDescription(
  schema: JsonSchemaObject,
  dropped: [string, unknown][],
): JsonSchemaObject {
  const note = describeDropped(dropped);
  if (note === "") return schema;
  const own =
    typeof schema["description"] === "string"
      ? schema["description"].trim()
      : "";
  const description =
    own === "" ? note : `${/[.!?]$/.test(own) ? own : `${own}.`} ${note}`;
  return { ...schema, description };
}

/** `schema`, accepting null as well; for optional properties under `requireAll`. */
export function nullable(schema: JsonSchemaObject): JsonSchemaObject {
  const types = typesOf(schema);
  if (
    types.length > 0 &&
    schema["anyOf"] === undefined &&
    schema["$ref"] === undefined
  ) {
    const widened: JsonSchemaObject = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema["enum"]))
      widened["enum"] = [...schema["enum"], null];
    return widened;
  }
  const { description, ...rest } = schema;
  const branches =
    Object.keys(rest).length === 1 && Array.isArray(rest["anyOf"])
      ? rest["anyOf"]
      : [rest];
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [...branches, { type: "null" }],
  };
}
