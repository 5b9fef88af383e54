/**
 * The `type` keyword: JSON Schema 2020-12 Validation §6.1.1. Its value is one
 * of the seven primitive type names, or an array of them meaning "any of".
 */
import type { JsonObject } from "../../ir.js";
import { keyword, type KeywordType } from "../../printer/types/node.js";

/** The primitive type names of JSON Schema 2020-12 Core §4.2.1, plus "integer". */
export const TYPE_NAMES = ["null", "boolean", "object", "array", "number", "string", "integer"] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

/**
 * The TS type of a scalar type name. `integer` is `number`: TS has no integer
 * type, so the integer check stays with the validator. `object` and `array`
 * are structural and handled by their own transforms.
 */
export function primitiveType(name: Exclude<TypeName, "object" | "array">): KeywordType {
  return keyword(name === "integer" ? "number" : name);
}

/**
 * The type names a schema declares, as a list. A single name becomes a
 * one-element list; no `type` gives an empty one. Unknown names throw, because
 * a silently ignored type would make the TS type wider than the validator.
 */
export function declaredTypes(schema: JsonObject): TypeName[] {
  const t = schema.type;
  if (t === undefined) return [];
  const names = Array.isArray(t) ? t : [t];
  return names.map((n) => {
    if (typeof n !== "string" || !(TYPE_NAMES as readonly string[]).includes(n)) {
      throw new Error(`unsupported type ${JSON.stringify(n)}`);
    }
    return n as TypeName;
  });
}

/** Whether a JSON value is an instance of a JSON Schema type name (Core §4.2.1). */
export function isOfType(value: unknown, name: TypeName): boolean {
  switch (name) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    default:
      return typeof value === name;
  }
}
