/** JSON values as the generator reads them: from YAML, from an API description, or from the IR. */
import type { JsonObject } from "../ir.js";

/** A JSON object: not null, not an array. A schema node, a `properties` map, a document. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether any object anywhere in `value` has one of `keys` as a key: property names and data in enum/const count too (an over-approximation, for "never when"). */
export function usesAnyKey(value: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => usesAnyKey(v, keys));
  if (!isJsonObject(value)) return false;
  return Object.entries(value).some(([k, v]) => keys.has(k) || usesAnyKey(v, keys));
}
