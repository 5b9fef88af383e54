/**
 * The value-level mutations a derived negative makes at one place in a
 * document: a value of a type the schema does not accept, an unknown enum
 * value, out-of-bounds numbers and lengths, an impossible date-time. Each
 * names the keywords that must fail for it, so the deriver can check the
 * validator fails for the reason the test names.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { UNION_KEYWORDS } from "../../schema/walk.js";
import type { SchemaChecker } from "./checker.js";

export type NegativeKind = "missing" | "extra" | "wrong-type" | "null" | "enum" | "number-bound" | "length-bound" | "items-bound" | "date-time";

export interface Mutation {
  readonly kind: NegativeKind;
  /** What is wrong, for the test name: `wrong type (string)`. */
  readonly label: string;
  readonly value: JsonValue;
  /** The validator must fail with one of these keywords at the issue path. */
  readonly keywords: readonly string[];
}

/** An impossible date-time: well-formed, but February has no 30th. */
export const IMPOSSIBLE_DATE_TIME = "2026-02-30T10:00:00Z";

const TYPE_KEYWORDS = ["type", "enum", "const", "anyOf", "oneOf"];

function jsonType(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function intersect(sets: Set<string>[]): Set<string> | undefined {
  if (sets.length === 0) return undefined;
  return new Set([...sets[0]].filter((t) => sets.every((s) => s.has(t) || (t === "integer" && s.has("number")))));
}

/**
 * The JSON types a schema can accept ("integer" standing for whole numbers,
 * "number" for all), or undefined when it cannot tell (any value may pass).
 */
export function acceptedTypes(checker: SchemaChecker, schema: JsonSchema, seen: ReadonlySet<string> = new Set()): Set<string> | undefined {
  if (schema === true) return undefined;
  if (schema === false) return new Set();
  const sets: Set<string>[] = [];
  const declared = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (declared) sets.push(new Set(declared.flatMap((t) => (t === "number" ? ["number", "integer"] : [String(t)]))));
  // An enum of numbers rules values in or out one by one; only `type: integer` makes a fraction a type error.
  const valueType = (v: JsonValue): string => (typeof v === "number" ? "number" : jsonType(v));
  if (Object.hasOwn(schema, "const")) sets.push(new Set([valueType(schema.const)]));
  if (Array.isArray(schema.enum)) sets.push(new Set(schema.enum.map(valueType)));
  if (typeof schema.$ref === "string" && !seen.has(schema.$ref)) {
    const target = checker.resolveRef(schema.$ref);
    const types = target === undefined ? undefined : acceptedTypes(checker, target, new Set([...seen, schema.$ref]));
    if (types) sets.push(types);
  }
  for (const keyword of UNION_KEYWORDS) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const each = branches.map((b) => acceptedTypes(checker, b as JsonSchema, seen));
    if (each.every((s): s is Set<string> => s !== undefined)) sets.push(new Set(each.flatMap((s) => [...s])));
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const types = acceptedTypes(checker, branch as JsonSchema, seen);
      if (types) sets.push(types);
    }
  }
  return intersect(sets);
}

const WRONG_VALUES: readonly [string, JsonValue][] = [
  ["number", 42],
  ["string", "42"],
  ["boolean", true],
  ["array", []],
  ["object", {}],
];

/** A value of a type `accepted` rules out; for integers also a fraction, which only JSON Schema can tell apart. */
export function typeMutations(accepted: Set<string>): Mutation[] {
  const out: Mutation[] = [];
  const wrong = WRONG_VALUES.find(([, value]) => {
    const type = jsonType(value);
    return !accepted.has(type) && !(type === "integer" && accepted.has("number"));
  });
  if (wrong) out.push({ kind: "wrong-type", label: `wrong type (${wrong[0]})`, value: wrong[1], keywords: TYPE_KEYWORDS });
  if (accepted.has("integer") && !accepted.has("number")) {
    out.push({ kind: "wrong-type", label: "wrong type (a fraction, not an integer)", value: 1.5, keywords: TYPE_KEYWORDS });
  }
  if (!accepted.has("null")) out.push({ kind: "null", label: "null where not nullable", value: null, keywords: TYPE_KEYWORDS });
  return out;
}

function unknownString(taken: readonly JsonValue[]): string {
  let candidate = "unknown-value";
  while (taken.includes(candidate)) candidate += "-x";
  return candidate;
}

/** A value outside `enum`, of the same type when the enum is all numbers; the opposite of a `const`. */
export function enumMutations(schema: JsonObject): Mutation[] {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum;
    const numbers = values.filter((v): v is number => typeof v === "number");
    const value = numbers.length === values.length ? Math.max(...numbers) + 1 : unknownString(values);
    return [{ kind: "enum", label: `value not in the enum (${JSON.stringify(value)})`, value, keywords: ["enum"] }];
  }
  if (!Object.hasOwn(schema, "const")) return [];
  const c = schema.const;
  const value = typeof c === "boolean" ? !c : typeof c === "number" ? c + 1 : typeof c === "string" ? `${c}-other` : c === null ? "not-null" : undefined;
  return value === undefined ? [] : [{ kind: "enum", label: `not the constant (${JSON.stringify(value)})`, value, keywords: ["const"] }];
}

function finite(value: JsonValue | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Just past each numeric bound; whole numbers when only integers are accepted. */
export function numberMutations(schema: JsonObject, integerOnly: boolean): Mutation[] {
  const out: Mutation[] = [];
  const bound = (keyword: string, label: string, value: number): void => {
    out.push({ kind: "number-bound", label: `${label} ${String(schema[keyword])}`, value, keywords: [keyword] });
  };
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = schema;
  if (finite(minimum)) bound("minimum", "below minimum", integerOnly ? Math.ceil(minimum) - 1 : minimum - 1);
  if (finite(exclusiveMinimum)) bound("exclusiveMinimum", "at exclusiveMinimum", integerOnly ? Math.floor(exclusiveMinimum) : exclusiveMinimum);
  if (finite(maximum)) bound("maximum", "above maximum", integerOnly ? Math.floor(maximum) + 1 : maximum + 1);
  if (finite(exclusiveMaximum)) bound("exclusiveMaximum", "at exclusiveMaximum", integerOnly ? Math.ceil(exclusiveMaximum) : exclusiveMaximum);
  return out;
}

/** One character short of minLength and one past maxLength, keeping the current value's start. */
export function lengthMutations(schema: JsonObject, current: JsonValue | undefined): Mutation[] {
  const chars = typeof current === "string" ? [...current] : [];
  const out: Mutation[] = [];
  const { minLength, maxLength } = schema;
  if (finite(minLength) && minLength >= 1) {
    const short = chars.slice(0, minLength - 1);
    while (short.length < minLength - 1) short.push("a");
    out.push({ kind: "length-bound", label: `shorter than minLength ${minLength}`, value: short.join(""), keywords: ["minLength"] });
  }
  if (finite(maxLength)) {
    const long = [...chars];
    while (long.length <= maxLength) long.push("a");
    out.push({ kind: "length-bound", label: `longer than maxLength ${maxLength}`, value: long.join(""), keywords: ["maxLength"] });
  }
  return out;
}

/** One item short of minItems and one past maxItems, repeating the current last item (or `filler`). */
export function itemsMutations(schema: JsonObject, current: JsonValue | undefined, filler: JsonValue | undefined): Mutation[] {
  const items = Array.isArray(current) ? current : [];
  const out: Mutation[] = [];
  const { minItems, maxItems } = schema;
  if (finite(minItems) && minItems >= 1) {
    out.push({ kind: "items-bound", label: `fewer items than minItems ${minItems}`, value: items.slice(0, minItems - 1), keywords: ["minItems"] });
  }
  const pad = items.length > 0 ? items[items.length - 1] : filler;
  if (finite(maxItems) && pad !== undefined) {
    const long = [...items];
    while (long.length <= maxItems) long.push(pad);
    out.push({ kind: "items-bound", label: `more items than maxItems ${maxItems}`, value: long, keywords: ["maxItems"] });
  }
  return out;
}

export function dateTimeMutations(schema: JsonObject): Mutation[] {
  if (schema.format !== "date-time") return [];
  return [{ kind: "date-time", label: `impossible date-time (${IMPOSSIBLE_DATE_TIME})`, value: IMPOSSIBLE_DATE_TIME, keywords: ["format"] }];
}

/** The name for an undeclared property: one the object does not declare or already hold. */
export function undeclaredName(schema: JsonObject, current: JsonObject, stem = "undeclaredProperty"): string {
  const declared = isJsonObject(schema.properties) ? schema.properties : {};
  let name = stem;
  while (Object.hasOwn(declared, name) || Object.hasOwn(current, name)) name += "X";
  return name;
}
