/**
 * `enum` and `const`: JSON Schema 2020-12 Validation §6.1.2 and §6.1.3. The
 * instance must equal one of the listed values, so the TS type is the union of
 * their literal types.
 */
import type { JsonValue } from "../../ir.js";
import { isOfType, type TypeName } from "./primitive.js";
import { propertyName, unionOf } from "./text.js";

/**
 * The literal type of one JSON value. Strings go through JSON.stringify, so
 * contract text can never escape the literal. Objects and arrays become
 * object-literal and tuple types of literals.
 */
export function literalType(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    // YAML's .inf/.nan are not JSON and have no literal type; refuse rather than emit a value name.
    if (!Number.isFinite(value)) throw new Error(`${value} is not a JSON number`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(literalType).join(", ")}]`;
  const entries = Object.entries(value);
  // `{}` would accept any non-nullish value; a const `{}` only equals an empty object.
  if (entries.length === 0) return "{ [key: string]: never }";
  return `{ ${entries.map(([k, v]) => `${propertyName(k)}: ${literalType(v)}`).join("; ")} }`;
}

/**
 * The union of the literal types of `values`. When the schema also declares
 * `type`, values of other types can never validate, so they are left out.
 */
export function enumType(values: readonly JsonValue[], types: readonly TypeName[] = []): string {
  const allowed = types.length === 0 ? values : values.filter((v) => types.some((t) => isOfType(v, t)));
  return unionOf(allowed.map(literalType));
}

/** `const` is an `enum` of one value (Validation §6.1.3). */
export function constType(value: JsonValue, types: readonly TypeName[] = []): string {
  return enumType([value], types);
}
