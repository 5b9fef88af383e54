/**
 * Small valid values for the schema subset: the base a derived negative
 * mutates when the contract has no example to start from, and the filler for
 * an optional property the base leaves out. Every value is checked against
 * its schema with the real Ajv; `undefined` means "could not make one".
 */
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import { decimalOf, isMultipleOf } from "../../runtime/multiple.js";
import { isJsonObject } from "../../schema/json.js";
import type { SchemaChecker } from "./checker.js";
import { samplePattern } from "./pattern.js";

/** Recursion through `$ref` stops here; a deeper value is not minimal anyway. */
const MAX_DEPTH = 12;

/** One well-formed sample per supported format. */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  date: "2026-01-01",
  time: "00:00:00Z",
  "date-time": "2026-01-01T00:00:00Z",
  duration: "P1D",
  uuid: "00000000-0000-4000-8000-000000000000",
  uri: "https://example.com",
  "uri-reference": "https://example.com",
  email: "user@example.com",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  regex: "a",
  "json-pointer": "",
  "relative-json-pointer": "0",
};

/** The JSON types `type` allows, non-null ones first, so a nullable field gets a value worth mutating. */
function typesOf(schema: JsonObject): string[] {
  const declared = schema.type;
  const list = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared.filter((t): t is string => typeof t === "string") : [];
  if (list.length === 0) {
    if (schema.properties !== undefined || schema.required !== undefined) return ["object"];
    if (schema.items !== undefined || schema.prefixItems !== undefined) return ["array"];
  }
  return [...list.filter((t) => t !== "null"), ...list.filter((t) => t === "null")];
}

function num(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function minimalString(schema: JsonObject): string | undefined {
  if (typeof schema.format === "string") return FORMAT_SAMPLES[schema.format];
  const minLength = num(schema.minLength) ?? 0;
  if (typeof schema.pattern === "string") return samplePattern(schema.pattern, minLength);
  return "a".repeat(minLength);
}

function minimalNumber(schema: JsonObject, integer: boolean): number | undefined {
  const lower = [num(schema.minimum), num(schema.exclusiveMinimum)].filter((n): n is number => n !== undefined);
  let value = 0;
  if (num(schema.minimum) !== undefined) value = Math.max(value, num(schema.minimum)!);
  if (num(schema.exclusiveMinimum) !== undefined && value <= num(schema.exclusiveMinimum)!) value = num(schema.exclusiveMinimum)! + 1;
  if (lower.length === 0 && num(schema.maximum) !== undefined) value = Math.min(value, num(schema.maximum)!);
  if (lower.length === 0 && num(schema.exclusiveMaximum) !== undefined && value >= num(schema.exclusiveMaximum)!) value = num(schema.exclusiveMaximum)! - 1;
  const step = num(schema.multipleOf);
  if (step !== undefined && step > 0) {
    const multiple = multipleAtLeast(integer ? Math.ceil(value) : value, step);
    if (multiple === undefined) return undefined;
    value = multiple;
  }
  return integer ? Math.ceil(value) : value;
}

/** `k` × `step` written in decimals (`3` × 0.1 is 0.3, where `3 * 0.1` is 0.30000000000000004): the number the validator counts as a multiple. */
function decimalMultiple(k: number, step: number): number {
  const { digits, scale } = decimalOf(step);
  return Number(`${k < 0 ? "-" : ""}${BigInt(Math.abs(k)) * BigInt(digits)}e${-scale}`);
}

/** The smallest multiple of `step` at or above `min`, as the validators decide multiples (runtime/multiple.ts). */
function multipleAtLeast(min: number, step: number): number | undefined {
  const k = Math.ceil(min / step);
  if (!Number.isSafeInteger(k)) return undefined;
  // Float division can put k one off either way; the decimal product decides.
  for (const candidate of [k - 1, k, k + 1].map((i) => decimalMultiple(i, step))) {
    if (candidate >= min && isMultipleOf(candidate, step)) return candidate;
  }
  return undefined;
}

function minimalArray(checker: SchemaChecker, schema: JsonObject, depth: number): JsonValue[] | undefined {
  const out: JsonValue[] = [];
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const count = num(schema.minItems) ?? 0;
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : schema.items;
    const item = itemSchema === undefined ? null : minimalValue(checker, itemSchema as JsonSchema, depth + 1);
    if (item === undefined) return undefined;
    out.push(item);
  }
  return out;
}

function minimalObject(checker: SchemaChecker, schema: JsonObject, depth: number): JsonObject | undefined {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  const out: JsonObject = {};
  for (const name of required) {
    const propertySchema = Object.hasOwn(properties, name)
      ? (properties[name] as JsonSchema)
      : isJsonObject(schema.additionalProperties)
        ? schema.additionalProperties
        : true;
    const value = minimalValue(checker, propertySchema, depth + 1);
    if (value === undefined) return undefined;
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function minimalOfType(checker: SchemaChecker, schema: JsonObject, type: string, depth: number): JsonValue | undefined {
  switch (type) {
    case "string":
      return minimalString(schema);
    case "integer":
      return minimalNumber(schema, true);
    case "number":
      return minimalNumber(schema, false);
    case "boolean":
      return false;
    case "null":
      return null;
    case "array":
      return minimalArray(checker, schema, depth);
    case "object":
      return minimalObject(checker, schema, depth);
    default:
      return undefined;
  }
}

/** Candidate values for `schema`, most readable first; the caller keeps the first one Ajv accepts. */
function candidates(checker: SchemaChecker, schema: JsonObject, depth: number): (JsonValue | undefined)[] {
  if (Object.hasOwn(schema, "const")) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (typeof schema.$ref === "string") {
    const target = checker.resolveRef(schema.$ref);
    return target === undefined ? [] : [minimalValue(checker, target, depth + 1)];
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.map((branch) => minimalValue(checker, branch as JsonSchema, depth + 1));
  }
  const types = typesOf(schema);
  if (types.length === 0) return [null];
  return types.map((type) => minimalOfType(checker, schema, type, depth));
}

/** A small value `schema` accepts, verified with Ajv, or undefined. */
export function minimalValue(checker: SchemaChecker, schema: JsonSchema, depth = 0): JsonValue | undefined {
  if (schema === false || depth > MAX_DEPTH) return undefined;
  if (schema === true) return null;
  for (const candidate of candidates(checker, schema, depth)) {
    if (candidate !== undefined && checker.accepts(schema, candidate)) return candidate;
  }
  return undefined;
}
