/**
 * Defaults for the differential test's contracts: a value a property's own
 * schema accepts, picked from a short list of candidates and checked with
 * toolc's own validators, so toolc never refuses the contract for an invalid
 * default (TC034). Used for the base contracts' defaults and for the edits
 * that add or change one.
 */
import type { ValidateFunction } from "ajv";
import { sharedAjv } from "../../../generator/ajv-shared.js";
import { FORMAT_SAMPLES } from "../../soundness/schema-arbitrary.js";
import type { Obj } from "./pairs.js";

const NUMBERS = [0, 1, 2, 3, 4, 6, 10, 12, 24, -1, 0.5, 2.5];
const STRINGS = ["a", "abc", "ord_1", "123", "Ab"];

/** Validators by schema text: the same leaf recurs across pairs, and compiling is what costs. */
const compiled = new Map<string, ValidateFunction | undefined>();

function validatorOf(schema: Obj): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    if (compiled.size > 4000) compiled.clear();
    let validate: ValidateFunction | undefined;
    try {
      validate = sharedAjv({ applyDefaults: false }).compile(structuredClone(schema));
    } catch {
      validate = undefined;
    }
    compiled.set(key, validate);
  }
  return compiled.get(key);
}

function candidates(schema: Obj): unknown[] {
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const format = typeof schema.format === "string" ? (FORMAT_SAMPLES[schema.format] ?? []) : [];
  return [
    ...(Array.isArray(schema.enum) ? schema.enum : []),
    ...("const" in schema ? [schema.const] : []),
    null, false, true,
    "x".repeat(minLength), "y".repeat(Math.max(1, minLength)),
    ...format, ...STRINGS, ...NUMBERS, [], {},
  ];
}

/**
 * A default for `schema` other than `not`, or undefined when none of the
 * candidates fits; never for a schema that refers to a named type (whose
 * `$ref` only the contract resolves).
 */
export function defaultFor(schema: Obj, not?: unknown): unknown {
  if (JSON.stringify(schema).includes('"$ref"')) return undefined;
  const validate = validatorOf(schema);
  if (validate === undefined) return undefined;
  const skip = JSON.stringify(not);
  return candidates(schema).find((v) => JSON.stringify(v) !== skip && validate(structuredClone(v)) === true);
}
