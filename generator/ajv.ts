/**
 * The one Ajv configuration toolc compiles with. Normalize uses it to check
 * schemas and examples; the validator emitter uses it to produce standalone
 * code. Sharing it is what keeps the compile-time checks and the shipped
 * validators in agreement.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Options } from "ajv";
import { _ } from "ajv/dist/compile/codegen/index.js";
import { formats } from "./runtime/formats.js";

/** Annotation keywords toolc accepts beyond JSON Schema. */
export const TOOLC_ANNOTATIONS = ["x-sensitive"] as const;

/**
 * Where standalone code finds the format checkers, relative to a file in
 * `validators/`. Ajv writes `require(<this>).formats[...]`; the emitter turns
 * every require into an ESM import.
 */
export const FORMATS_MODULE = "../runtime/formats.js";

/** The formats toolc supports: exactly the keys of runtime/formats.js. */
export const SUPPORTED_FORMATS: readonly string[] = Object.keys(formats);

export interface AjvPurpose {
  /** Input validators apply `default` values; output validators never do. */
  readonly applyDefaults: boolean;
  /** Emit standalone source (slower to compile; only the validator emitter needs it). */
  readonly standalone?: boolean;
  /**
   * Ajv's strictTypes/strictTuples authoring checks (on unless false). They
   * only reject schemas, never change the code generated for an accepted
   * one; the conformance run turns them off for the suite's typeless schemas.
   */
  readonly strictTypes?: boolean;
}

export function ajvOptions(purpose: AjvPurpose): Options {
  return {
    strict: true,
    strictRequired: false,
    ...(purpose.strictTypes === false ? { strictTypes: false, strictTuples: false } : {}),
    allErrors: true,
    useDefaults: purpose.applyDefaults,
    messages: false,
    allowUnionTypes: true,
    code: purpose.standalone
      ? { source: true, esm: true, lines: false, optimize: true, formats: _`require(${FORMATS_MODULE}).formats` }
      : { optimize: false },
  };
}

export function createAjv(purpose: AjvPurpose): Ajv2020 {
  const ajv = new Ajv2020(ajvOptions(purpose));
  // Our own checkers, not ajv-formats: the same functions run at compile time
  // (examples) and in the shipped validators, so the two cannot disagree.
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  for (const keyword of TOOLC_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: "boolean" });
  return ajv;
}
