/**
 * The one Ajv configuration toolc compiles with. Normalize uses it to check
 * schemas and examples; the validator emitter uses it to produce standalone
 * code. Sharing it is what keeps the compile-time checks and the shipped
 * validators in agreement.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { KeywordCxt, Options } from "ajv";
import { _, str, type Name } from "ajv/dist/compile/codegen/index.js";
import { createRequire } from "node:module";
import { duplicateItems, equal } from "./runtime/equal.js";
import { formats } from "./runtime/formats.js";
import { codePointLength } from "./runtime/length.js";

/** Annotation keywords toolc accepts beyond JSON Schema. */
export const TOOLC_ANNOTATIONS = ["x-sensitive"] as const;

/**
 * Where standalone code finds the format checkers, relative to a file in
 * `validators/`. Ajv writes `require(<this>).formats[...]`; the emitter turns
 * every require into an ESM import.
 */
export const FORMATS_MODULE = "../runtime/formats.js";

/** Where standalone code finds toolc's JSON equality (see runtime/equal.ts), relative to `validators/`. */
export const EQUAL_MODULE = "../runtime/equal.js";

/** Where standalone code finds the code-point length for minLength/maxLength (runtime/length.ts), relative to `validators/`. */
export const LENGTH_MODULE = "../runtime/length.js";

/** Every module generated validators may import: the generated runtime's, never Ajv's own. */
export const VALIDATOR_RUNTIME_MODULES: readonly string[] = [EQUAL_MODULE, FORMATS_MODULE, LENGTH_MODULE];

/**
 * A runtime function as Ajv's standalone code should refer to it: Ajv
 * writes a function's `code` property where the function is used (the
 * documented way to give standalone code a custom function).
 */
function withStandaloneCode<F extends object>(fn: F, module: string, exportName: string): F {
  (fn as { code?: string }).code = `require(${JSON.stringify(module)}).${exportName}`;
  return fn;
}

/**
 * Ajv has no option for the equality its keywords use, and its default throws
 * on JSON objects that carry `valueOf` or `toString` keys. Its keywords read
 * the helper from this module at compile time, so replacing the export makes
 * in-process validators use toolc's `equal`, and its `code` makes standalone
 * validators import it. Done once, when toolc's Ajv is first loaded.
 */
function useJsonEqual(): void {
  // require, not import: the CommonJS exports object itself, which Ajv's keywords read (an ESM default import may be its `default`).
  const holder = createRequire(import.meta.url)("ajv/dist/runtime/equal") as { default: unknown };
  if (holder.default === equal) return;
  holder.default = withStandaloneCode(equal, EQUAL_MODULE, "equal");
}
useJsonEqual();

/** toolc's code-point length, which standalone validators import from the generated runtime. */
const lengthFunction = withStandaloneCode(codePointLength, LENGTH_MODULE, "codePointLength");

/**
 * String length bounds count code points (Ajv's ucs2length, toolc's
 * codePointLength), which loops over the string. A string of n UTF-16 units
 * has between ceil(n/2) and n code points, so `.length` alone settles most strings: `minLength: L` can only fail when
 * the string has fewer than 2L units, and `maxLength: M` only when it has
 * more than M. The same keyword, params and error object as Ajv's own; only
 * the condition gains a cheap guard, and the length function is toolc's, so
 * the standalone code imports it from the generated runtime, not from Ajv.
 */
function useLengthGuards(ajv: Ajv2020): void {
  const req = createRequire(import.meta.url);
  const { useFunc } = req("ajv/dist/compile/util") as { useFunc: (gen: unknown, f: unknown) => unknown };
  for (const keyword of ["minLength", "maxLength"] as const) {
    const rule = ajv.RULES.all[keyword];
    if (!rule || typeof rule !== "object" || !("definition" in rule)) throw new Error(`Ajv has no ${keyword} rule`);
    const definition = rule.definition as { code: (cxt: KeywordCxt) => void };
    const original = definition.code;
    definition.code = (cxt: KeywordCxt) => {
      const limit = cxt.schema as unknown;
      // The meta-schema makes the limit a non-negative integer; $data (off in toolc) is the only other case.
      if (cxt.$data || typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) return original(cxt);
      const len = _`${useFunc(cxt.gen, lengthFunction) as Name}(${cxt.data})`;
      cxt.fail(keyword === "minLength" ? _`${cxt.data}.length < ${2 * limit} && ${len} < ${limit}` : _`${cxt.data}.length > ${limit} && ${len} > ${limit}`);
    };
  }
}

/**
 * `uniqueItems` in linear time. Ajv compares every pair of items unless the
 * items have one scalar type, so an array of 20,000 objects, or of enum
 * values with no `type`, held the event loop for seconds. This definition,
 * registered through Ajv's documented removeKeyword/addKeyword, hashes each
 * item's canonical form instead (runtime/equal.ts). Same keyword, same error
 * params ({i, j}: the later and the earlier of two equal items).
 */
function useLinearUniqueItems(ajv: Ajv2020): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    error: {
      message: ({ params }) => str`must NOT have duplicate items (items ## ${params["j"] as Name} and ${params["i"] as Name} are identical)`,
      params: ({ params }) => _`{i: ${params["i"] as Name}, j: ${params["j"] as Name}}`,
    },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const { gen, data } = cxt;
      const find = gen.scopeValue("func", { ref: duplicateItems, code: _`require(${EQUAL_MODULE}).duplicateItems` });
      const found = gen.const("dup", _`${find}(${data})`);
      cxt.setParams({ i: _`${found}.i`, j: _`${found}.j` });
      cxt.fail(_`${found} !== undefined`);
    },
  });
}

/** The formats toolc supports: exactly the keys of runtime/formats.ts. */
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
  /**
   * Check the schema against the 2020-12 meta-schema first (default true).
   * normalize has done that for every schema it passes on, and compiling the
   * meta-schema again in each fresh instance was half of a large generate.
   */
  readonly validateSchema?: boolean;
}

export function ajvOptions(purpose: AjvPurpose): Options {
  return {
    strict: true,
    strictRequired: false,
    ...(purpose.strictTypes === false ? { strictTypes: false, strictTuples: false } : {}),
    ...(purpose.validateSchema === false ? { validateSchema: false } : {}),
    allErrors: true,
    useDefaults: purpose.applyDefaults,
    messages: false,
    allowUnionTypes: true,
    // A key counts as present only when the data has it as its own: `constructor` or `toString` in a schema is an ordinary name.
    ownProperties: true,
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
  useLengthGuards(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}
