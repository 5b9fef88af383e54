/**
 * `allOf` of objects, as toolc writes a type that extends another
 * (`allOf: [{ $ref: Base }, { properties: ... }]` with
 * `unevaluatedProperties: false`), merged into one object. No provider's
 * strict mode takes `allOf`, but every one takes the merged object, which
 * offers the model exactly the properties the contract declares. toolc's
 * validator still checks the contract as written.
 */
import type { JsonObject, JsonValue } from "../ir.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName } from "../schema/refs.js";
import { isObjectSchema } from "../schema/walk.js";

/** A branch as an object schema: a `$ref` followed, a nested `allOf` merged; undefined when it is not an object. */
function resolveBranch(branch: JsonValue, defs: JsonObject, seen: Set<string>): JsonObject | undefined {
  if (!isJsonObject(branch)) return undefined;
  const ref = defsEntryName(branch.$ref);
  if (ref !== undefined) {
    const target = defs[ref];
    if (seen.has(ref) || Object.keys(branch).length !== 1 || !isJsonObject(target)) return undefined;
    return resolveBranch(target, defs, new Set([...seen, ref]));
  }
  if (Array.isArray(branch.allOf)) return mergeAllOf(branch, defs, seen);
  return isObjectSchema(branch) ? branch : undefined;
}

/**
 * `node` with its `allOf` merged in: the union of all properties and of all
 * `required`, closed when `unevaluatedProperties: false` closed it. Undefined
 * when a branch is not an object or two branches declare one property differently.
 */
export function mergeAllOf(node: JsonObject, defs: JsonObject, seen: Set<string> = new Set()): JsonObject | undefined {
  if (!Array.isArray(node.allOf)) return undefined;
  const { allOf, unevaluatedProperties, ...own } = node;
  const parts = [own, ...allOf.map((b) => resolveBranch(b, defs, seen))];
  const properties: JsonObject = {};
  const required = new Set<string>();
  for (const part of parts) {
    if (part === undefined) return undefined;
    for (const [name, schema] of Object.entries(isJsonObject(part.properties) ? part.properties : {})) {
      if (Object.hasOwn(properties, name) && JSON.stringify(properties[name]) !== JSON.stringify(schema)) return undefined;
      properties[name] = schema;
    }
    for (const name of Array.isArray(part.required) ? part.required : []) if (typeof name === "string") required.add(name);
  }
  const merged: JsonObject = { ...own, type: "object", properties, required: [...required] };
  if (unevaluatedProperties === false) merged.additionalProperties = false;
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
export function distributeUnion(node: JsonObject, defs: JsonObject): JsonObject | undefined {
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : undefined;
  if (key === undefined || node.unevaluatedProperties !== false || Array.isArray(node.allOf) || (Array.isArray(node.anyOf) && Array.isArray(node.oneOf)))
    return undefined;
  const { anyOf: _anyOf, oneOf: _oneOf, unevaluatedProperties: _closed, title, description, ...own } = node;
  const branches: JsonObject[] = [];
  for (const branch of node[key] as JsonValue[]) {
    const resolved = resolveBranch(branch, defs, new Set());
    const merged = resolved === undefined ? undefined : mergeAllOf({ ...own, allOf: [resolved], unevaluatedProperties: false }, defs);
    if (merged === undefined) return undefined;
    branches.push(merged);
  }
  // Still an object (a tool's parameters must say so), its shape all in the branches.
  const type: JsonObject = isObjectSchema(own) ? { type: "object" } : {};
  return { ...type, ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), [key]: branches };
}
