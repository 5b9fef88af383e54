/**
 * `enum` and `const`: JSON Schema 2020-12 Validation §6.1.2 and §6.1.3. The
 * instance must equal one of the listed values, so the TS type is the union of
 * their literal types.
 */
import type { JsonValue } from "../../ir.js";
import { emptyObject, keyword, objectOf, property, requiredElement, scalarLiteral, tupleOf, unionOf, type TypeNode } from "../../printer/types/node.js";
import { isOfType, type TypeName } from "./primitive.js";

/**
 * The literal type of one JSON value. The printer quotes strings and keys
 * (literal.ts), so contract text can never escape the literal. Objects and
 * arrays become one-line object-literal and tuple types of literals.
 */
export function literalType(value: JsonValue): TypeNode {
  if (value === null) return keyword("null");
  if (typeof value === "number" && !Number.isFinite(value)) {
    // YAML's .inf/.nan are not JSON and have no literal type; refuse rather than emit a value name.
    throw new Error(`${value} is not a JSON number`);
  }
  if (typeof value !== "object") return scalarLiteral(value);
  if (Array.isArray(value)) return tupleOf(value.map((item) => requiredElement(literalType(item))));
  const entries = Object.entries(value);
  // `{}` would accept any non-nullish value; a const `{}` only equals an empty object.
  if (entries.length === 0) return emptyObject();
  return objectOf(
    entries.map(([key, item]) => property(key, literalType(item))),
    true,
  );
}

/**
 * The union of the literal types of `values`. When the schema also declares
 * `type`, values of other types can never validate, so they are left out.
 */
export function enumType(values: readonly JsonValue[], types: readonly TypeName[] = []): TypeNode {
  const allowed = types.length === 0 ? values : values.filter((v) => types.some((t) => isOfType(v, t)));
  return unionOf(allowed.map(literalType));
}

/** `const` is an `enum` of one value (Validation §6.1.3). */
export function constType(value: JsonValue, types: readonly TypeName[] = []): TypeNode {
  return enumType([value], types);
}
