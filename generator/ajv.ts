/**
 * The one Ajv configuration toolc compiles with. Normalize uses it to check
 * schemas and examples; the validator emitter uses it to produce standalone
 * code. Sharing it is what keeps the compile-time checks and the shipped
 * validators in agreement.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Options } from "ajv";
import addFormats from "ajv-formats";

/** Annotation keywords toolc accepts beyond JSON Schema. */
export const TOOLC_ANNOTATIONS = ["x-sensitive"] as const;

export interface AjvPurpose {
  /** Input validators apply `default` values; output validators never do. */
  readonly applyDefaults: boolean;
  /** Emit standalone source (slower to compile; only the validator emitter needs it). */
  readonly standalone?: boolean;
}

export function ajvOptions(purpose: AjvPurpose): Options {
  return {
    strict: true,
    strictRequired: false,
    allErrors: true,
    useDefaults: purpose.applyDefaults,
    messages: false,
    allowUnionTypes: true,
    code: purpose.standalone ? { source: true, esm: true, lines: false, optimize: true } : { optimize: false },
  };
}

export function createAjv(purpose: AjvPurpose): Ajv2020 {
  const ajv = new Ajv2020(ajvOptions(purpose));
  addFormats.default(ajv);
  for (const keyword of TOOLC_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: "boolean" });
  return ajv;
}
