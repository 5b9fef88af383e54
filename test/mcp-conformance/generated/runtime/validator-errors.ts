// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The error list of a generated validator, built here rather than in every
 * validators module: each error site is one call of `addError`
 * (generator/emit/validators/rewrite.ts), and a call of a shared named-type
 * validator adds that validator's errors with `addNested`.
 */
import type { ValidationError } from "./contract.js";

/** Ajv's error object as the generated validators write it: `schemaPath` only where issues.ts reads it (a union's errors). */
export interface ValidatorError extends ValidationError {
  schemaPath?: string;
}

/** Appends one error to `errors` (null until the first) and returns the list. */
export function addError(
  errors: ValidatorError[] | null,
  instancePath: string,
  keyword: string,
  params: Record<string, unknown>,
  schemaPath?: string,
): ValidatorError[] {
  const error: ValidatorError =
    schemaPath === undefined
      ? { instancePath, keyword, params }
      : { instancePath, schemaPath, keyword, params };
  if (errors === null) return [error];
  errors.push(error);
  return errors;
}

/**
 * The one parameter Ajv gives the errors of each of these keywords. An error
 * site of one of them passes the parameter's value alone (addParamError),
 * which is most error sites, and the params object is built here.
 */
export const PARAM_NAMES: ReadonlyMap<string, string> = new Map([
  ["required", "missingProperty"],
  ["type", "type"],
  ["enum", "allowedValues"],
  ["const", "allowedValue"],
  ["format", "format"],
  ["pattern", "pattern"],
  ["minLength", "limit"],
  ["maxLength", "limit"],
  ["minItems", "limit"],
  ["maxItems", "limit"],
  ["minProperties", "limit"],
  ["maxProperties", "limit"],
  ["multipleOf", "multipleOf"],
  ["additionalProperties", "additionalProperty"],
  ["propertyNames", "propertyName"],
]);

/** `addError` for a keyword of PARAM_NAMES: params is `{<its parameter>: value}`. */
export function addParamError(
  errors: ValidatorError[] | null,
  instancePath: string,
  keyword: string,
  value: unknown,
): ValidatorError[] {
  const params: Record<string, unknown> = {};
  params[PARAM_NAMES.get(keyword) ?? "value"] = value;
  return addError(errors, instancePath, keyword, params);
}

/**
 * Appends the errors of a named-type validator that was called on the value
 * at `instancePath`: their paths are relative to that value, so each gets the
 * prefix. The objects are the callee's, made on this call alone, so they are
 * changed in place.
 */
export function addNested(
  errors: ValidatorError[] | null,
  nested: ValidatorError[],
  instancePath: string,
): ValidatorError[] {
  for (const error of nested)
    error.instancePath = instancePath + error.instancePath;
  if (errors === null) return nested;
  for (const error of nested) errors.push(error);
  return errors;
}
