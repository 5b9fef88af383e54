/** JSON values as the generator reads them: from YAML, from an API description, or from the IR. */
import type { JsonObject } from "../ir.js";

/** A JSON object: not null, not an array. A schema node, a `properties` map, a document. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
