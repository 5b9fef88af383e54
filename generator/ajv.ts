/**
 * The one Ajv configuration toolc compiles with. Normalize uses it to check
 * schemas and examples; the validator emitter uses it to produce standalone
 * code. Sharing it is what keeps the compile-time checks and the shipped
 * validators in agreement.
 *
 * Everything here is Ajv's documented surface: constructor options,
 * `addFormat`, `addKeyword`/`removeKeyword`/`getKeyword` with code keywords, and
 * `gen.scopeValue` with a `code` snippet for every value standalone code
 * refers to (https://ajv.js.org/standalone.html, /keywords.html).
 */
import { Ajv, _, Name, stringify, str, type Code, type JSONType, type KeywordCxt, type KeywordDefinition, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { duplicateItems, equal } from "./runtime/equal.js";
import { formats } from "./runtime/formats.js";
import { codePointLength } from "./runtime/length.js";
import { decimalOf, isDecimalMultiple, isMultipleOf } from "./runtime/multiple.js";

/** Annotation keywords toolc accepts beyond JSON Schema, with the type of their value. */
export const TOOLC_ANNOTATIONS: readonly { readonly keyword: string; readonly schemaType: JSONType | JSONType[] }[] = [
  // `true`, `false` or `"withhold"`; the meta-schema checks which.
  { keyword: "x-sensitive", schemaType: ["boolean", "string"] },
  { keyword: "x-mcp-header", schemaType: "string" },
];

/** A generated runtime module standalone code uses, and the namespace binding a validators module imports it as. */
export interface RuntimeImport {
  readonly module: string;
  readonly binding: string;
}

/** The format checkers (runtime/formats.ts), relative to a file in `validators/`. */
export const FORMATS_IMPORT: RuntimeImport = { module: "../runtime/formats.js", binding: "formats$" };
/** toolc's JSON equality (runtime/equal.ts). */
export const EQUAL_IMPORT: RuntimeImport = { module: "../runtime/equal.js", binding: "equal$" };
/** The code-point length for minLength/maxLength (runtime/length.ts). */
export const LENGTH_IMPORT: RuntimeImport = { module: "../runtime/length.js", binding: "length$" };
/** Exact multipleOf for decimal steps (runtime/multiple.ts). */
export const MULTIPLE_IMPORT: RuntimeImport = { module: "../runtime/multiple.js", binding: "multiple$" };

/** How generated validators build their error lists (runtime/validator-errors.ts); its functions are imported by name. */
export const VALIDATOR_ERRORS_MODULE = "../runtime/validator-errors.js";

/** The runtime modules generated validators import as namespaces: the generated runtime's, never Ajv's own. */
export const VALIDATOR_RUNTIME_IMPORTS: readonly RuntimeImport[] = [EQUAL_IMPORT, FORMATS_IMPORT, LENGTH_IMPORT, MULTIPLE_IMPORT];
/** Every module generated validators may import. */
export const VALIDATOR_RUNTIME_MODULES: readonly string[] = [...VALIDATOR_RUNTIME_IMPORTS.map((i) => i.module), VALIDATOR_ERRORS_MODULE];

/** Told of a runtime module each time Ajv is given a value whose `code` snippet names it: standalone code then refers to its binding. */
export type RuntimeUse = (used: RuntimeImport) => void;

/** `binding.member`: how standalone code names a runtime export (the module imports `binding`). */
function runtimeRef(from: RuntimeImport, member: string): Code {
  return _`${new Name(from.binding)}.${new Name(member)}`;
}

/**
 * A runtime function in generated code: in process Ajv calls `fn` itself;
 * standalone code names it through the validators module's import.
 */
type UseRuntime = (cxt: KeywordCxt, fn: unknown, from: RuntimeImport, member: string) => Name;

/** UseRuntime for one instance, telling `onUse` (if any) of each module it names. */
function runtimeUser(onUse: RuntimeUse | undefined): UseRuntime {
  return (cxt, fn, from, member) => {
    onUse?.(from);
    return cxt.gen.scopeValue("func", { ref: fn, code: runtimeRef(from, member) });
  };
}

/** Ajv's default `loopEnum`: from this many values, enum code no longer grows with the list. */
const ENUM_LOOP_FROM = 200;

/**
 * `enum` and `const` with toolc's equality. Ajv's own compare objects with
 * fast-deep-equal, which throws on JSON objects carrying `valueOf` or
 * `toString` keys. Same keywords, same error params as Ajv's; the allowed
 * values in a param are written as a literal, built only when the error is.
 */
function enumKeyword(useRuntime: UseRuntime): KeywordDefinition {
  return {
    keyword: "enum",
    schemaType: "array",
    // Where Ajv's own sits (after const, before the applicators), so errors keep their order.
    before: "not",
    error: {
      message: "must be equal to one of the allowed values",
      params: ({ schema }) => _`{allowedValues: ${stringify(schema)}}`,
    },
    code(cxt: KeywordCxt) {
      const { data, gen } = cxt;
      const values = cxt.schema as unknown[];
      if (values.length === 0) throw new Error("enum must have non-empty array");
      const isScalar = (value: unknown) => value === null || typeof value !== "object";
      if (values.length >= ENUM_LOOP_FROM) {
        // As Ajv's loopEnum does from 200 values, the code stays small: a Set of the scalar values (same result as ===
        // for JSON scalars), and the object values, if any, compared one by one.
        const scalars = values.filter(isScalar);
        const objects = values.filter((v) => !isScalar(v));
        const set = gen.scopeValue("obj", { ref: new Set(scalars), code: _`new Set(${stringify(scalars)})` });
        const valid = gen.let("valid", _`${set}.has(${data})`);
        if (objects.length > 0) {
          const eq = useRuntime(cxt, equal, EQUAL_IMPORT, "equal");
          const list = gen.scopeValue("schema", { ref: objects, code: stringify(objects) });
          gen.if(_`!${valid}`, () => gen.forOf("v", list, (v) => gen.if(_`${eq}(${data}, ${v})`, () => gen.assign(valid, true).break())));
        }
        cxt.pass(valid);
        return;
      }
      let eq: Name | undefined;
      let list: Name | undefined;
      const matches = values.map((value, i): Code => {
        if (isScalar(value)) return _`${data} === ${value as string | number | boolean | null}`;
        eq ??= useRuntime(cxt, equal, EQUAL_IMPORT, "equal");
        list ??= gen.scopeValue("schema", { ref: values, code: stringify(values) });
        return _`${eq}(${data}, ${list}[${i}])`;
      });
      cxt.fail(_`!(${matches.reduce((all, m) => _`${all} || ${m}`)})`);
    },
  };
}

function constKeyword(useRuntime: UseRuntime): KeywordDefinition {
  return {
    keyword: "const",
    before: "not",
    error: {
      message: "must be equal to constant",
      params: ({ schema }) => _`{allowedValue: ${stringify(schema)}}`,
    },
    code(cxt: KeywordCxt) {
      const { data } = cxt;
      const value = cxt.schema as unknown;
      if (value === null || typeof value !== "object") {
        cxt.fail(_`${value as string | number | boolean | null} !== ${data}`);
        return;
      }
      const eq = useRuntime(cxt, equal, EQUAL_IMPORT, "equal");
      const expected = cxt.gen.scopeValue("schema", { ref: value, code: stringify(value) });
      cxt.fail(_`!${eq}(${data}, ${expected})`);
    },
  };
}

/**
 * String length bounds count code points (toolc's codePointLength, as
 * Ajv's ucs2length does), which loops over the string. A string of n UTF-16
 * units has between ceil(n/2) and n code points, so `.length` alone settles
 * most strings: `minLength: L` can only fail when the string has fewer than
 * 2L units, and `maxLength: M` only when it has more than M. Same keywords,
 * params and error objects as Ajv's own.
 */
function lengthKeyword(keyword: "minLength" | "maxLength", useRuntime: UseRuntime): KeywordDefinition {
  return {
    keyword,
    type: "string",
    schemaType: "number",
    // maxLength, then minLength, then pattern: Ajv's own order, so errors keep it.
    before: "pattern",
    error: {
      message: ({ schema }) => str`must NOT have ${keyword === "maxLength" ? "more" : "fewer"} than ${schema as number} characters`,
      params: ({ schema }) => _`{limit: ${schema as number}}`,
    },
    code(cxt: KeywordCxt) {
      const limit = cxt.schema as number;
      if (!Number.isInteger(limit) || limit < 0) throw new Error(`${keyword} must be a non-negative integer`);
      const { data } = cxt;
      const len = _`${useRuntime(cxt, codePointLength, LENGTH_IMPORT, "codePointLength")}(${data})`;
      cxt.fail(keyword === "minLength" ? _`${data}.length < ${2 * limit} && ${len} < ${limit}` : _`${data}.length > ${limit} && ${len} > ${limit}`);
    },
  };
}

/**
 * `uniqueItems` in linear time. Ajv compares every pair of items unless the
 * items have one scalar type, so an array of 20,000 objects, or of enum
 * values with no `type`, held the event loop for seconds. This definition
 * hashes each item's canonical form instead (runtime/equal.ts). Same
 * keyword, same error params ({i, j}: the later and the earlier of two equal
 * items).
 */
function uniqueItemsKeyword(useRuntime: UseRuntime): KeywordDefinition {
  return {
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
      const found = gen.const("dup", _`${useRuntime(cxt, duplicateItems, EQUAL_IMPORT, "duplicateItems")}(${data})`);
      cxt.setParams({ i: _`${found}.i`, j: _`${found}.j` });
      cxt.fail(_`${found} !== undefined`);
    },
  };
}

/**
 * `multipleOf`, decided exactly (runtime/multiple.ts). Ajv divides
 * (`data / step` must be a whole number), which rejects 19.99 for a step of
 * 0.01, since neither has an exact binary form; its `multipleOfPrecision`
 * option tolerates a difference instead, which is not exact either: it also
 * accepts 0.0100000001. A whole step keeps a plain `%`, exact on doubles; a
 * decimal step is compared by decimal digits, worked out here once. Same
 * keyword, same error params as Ajv's.
 */
function multipleOfKeyword(useRuntime: UseRuntime): KeywordDefinition {
  return {
    keyword: "multipleOf",
    type: "number",
    schemaType: "number",
    // Ajv's own is the last of the number keywords, where an added one goes; errors keep their order.
    error: {
      message: ({ schema }) => str`must be multiple of ${schema as number}`,
      params: ({ schema }) => _`{multipleOf: ${schema as number}}`,
    },
    code(cxt: KeywordCxt) {
      const step = cxt.schema as number;
      if (!Number.isFinite(step) || step <= 0) throw new Error("multipleOf must be a number greater than 0");
      const { data } = cxt;
      if (Number.isInteger(step)) {
        cxt.fail(_`${data} % ${step} !== 0`);
        return;
      }
      const { digits, scale } = decimalOf(step);
      if (Number.isSafeInteger(Number(digits))) {
        cxt.fail(_`!${useRuntime(cxt, isDecimalMultiple, MULTIPLE_IMPORT, "isDecimalMultiple")}(${data}, ${step}, ${Number(digits)}, ${scale})`);
      } else cxt.fail(_`!${useRuntime(cxt, isMultipleOf, MULTIPLE_IMPORT, "isMultipleOf")}(${data}, ${step})`);
    },
  };
}

/** Ajv's keywords toolc defines itself (removeKeyword, then addKeyword, in this order), naming runtime functions through `useRuntime`. */
function toolcKeywords(useRuntime: UseRuntime): KeywordDefinition[] {
  return [
    constKeyword(useRuntime),
    enumKeyword(useRuntime),
    lengthKeyword("maxLength", useRuntime),
    lengthKeyword("minLength", useRuntime),
    multipleOfKeyword(useRuntime),
    uniqueItemsKeyword(useRuntime),
  ];
}

/**
 * Ajv's own `format` keyword, added again so that each run of it tells
 * `onUse`: every format toolc registers is a function, which Ajv names
 * through the `code.formats` snippet whenever the keyword compiles (even
 * under a type the format does not check). Done before toolc's keywords are
 * added, it keeps its place, last among the string and number keywords, so
 * code and errors keep their order.
 */
function reportFormatUse(ajv: ToolcAjv, onUse: RuntimeUse): void {
  const format = ajv.getKeyword("format");
  if (typeof format !== "object" || !("code" in format)) throw new Error("Ajv's format keyword is not a code keyword");
  const code = format.code;
  ajv.removeKeyword("format");
  ajv.addKeyword({
    ...format,
    code(cxt: KeywordCxt, ruleType?: string) {
      onUse(FORMATS_IMPORT);
      code(cxt, ruleType);
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
  /**
   * Compile with Ajv's main (draft-07) class instead of Ajv2020. Ajv's docs
   * advise it for schemas that use none of the 2019-09/2020-12 additions:
   * Ajv2020 adds dynamic-scope and evaluated-property bookkeeping to every
   * function, used or not. Only for schemas `needsDraft2020` clears, whose
   * keywords mean the same in both; such an instance never checks schemas
   * itself (the caller checks them against 2020-12 first).
   */
  readonly draft07?: boolean;
  /**
   * Told of each runtime module standalone code names, as Ajv is given the
   * value: the format checkers when a format compiles, and the modules of
   * toolc's own keywords (equality, code-point length, exact multipleOf).
   */
  readonly onRuntimeUse?: RuntimeUse;
  /**
   * The data is always a copy made by runtime/json.ts (`copyJson`), whose
   * objects have no prototype: every key found on one is its own, so the
   * own-property check Ajv's `ownProperties` adds to every property read
   * proves nothing there, and costs about half the time of an object-heavy
   * validation. The shipped validators get only such copies (the executor
   * and the client copy first; `loadValidators` hands out validators that
   * copy). Everything else (examples read from YAML, the contract-test
   * checker) compiles with `ownProperties`.
   */
  readonly copiedData?: boolean;
}

export function ajvOptions(purpose: AjvPurpose): Options {
  return {
    strict: true,
    strictRequired: false,
    ...(purpose.strictTypes === false ? { strictTypes: false, strictTuples: false } : {}),
    ...(purpose.validateSchema === false || purpose.draft07 === true ? { validateSchema: false } : {}),
    ...(purpose.draft07 === true ? { meta: false } : {}),
    allErrors: true,
    useDefaults: purpose.applyDefaults,
    messages: false,
    allowUnionTypes: true,
    // For the tagged unions generator/discriminators.ts finds: only the branch the tag names is validated.
    discriminator: true,
    // A key counts as present only when the data has it as its own: `constructor` or `toString` in a schema is an ordinary name.
    // On a copy without prototypes every key is its own (see copiedData).
    ownProperties: purpose.copiedData !== true,
    code: purpose.standalone ? { source: true, esm: false, lines: false, optimize: true, formats: runtimeRef(FORMATS_IMPORT, "formats") } : { optimize: false },
  };
}

/** An instance of either class; both have the whole documented API. */
export type ToolcAjv = Ajv2020 | Ajv;

export function createAjv(purpose: AjvPurpose): ToolcAjv {
  const options = ajvOptions(purpose);
  const ajv = purpose.draft07 === true ? new Ajv(options) : new Ajv2020(options);
  // Our own checkers, not ajv-formats: the same functions run at compile time
  // (examples) and in the shipped validators, so the two cannot disagree.
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  for (const { keyword, schemaType } of TOOLC_ANNOTATIONS) ajv.addKeyword({ keyword, schemaType });
  if (purpose.onRuntimeUse !== undefined) reportFormatUse(ajv, purpose.onRuntimeUse);
  for (const definition of toolcKeywords(runtimeUser(purpose.onRuntimeUse))) {
    ajv.removeKeyword(definition.keyword as string);
    ajv.addKeyword(definition);
  }
  return ajv;
}

/**
 * Keywords whose meaning needs Ajv2020: the 2019-09/2020-12 additions, the
 * ones that change how a `$ref` resolves, and `additionalItems`, which
 * 2020-12 dropped (Ajv2020's strict mode refuses it; draft-07 would apply it).
 */
const DRAFT_2020_KEYWORDS = new Set([
  "$id",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "dependentRequired",
  "dependentSchemas",
  "minContains",
  "maxContains",
  "additionalItems",
]);

/**
 * True unless every keyword of `schema` means the same to Ajv's draft-07
 * class as to Ajv2020. Over-approximates: any key anywhere (a property name,
 * enum data) counts, as does an `items` array (a tuple in draft-07, refused
 * in 2020-12).
 */
export function needsDraft2020(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(needsDraft2020);
  if (value === null || typeof value !== "object") return false;
  for (const [key, v] of Object.entries(value)) {
    if (DRAFT_2020_KEYWORDS.has(key) || (key === "items" && Array.isArray(v))) return true;
    if (needsDraft2020(v)) return true;
  }
  return false;
}
