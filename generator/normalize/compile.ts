/**
 * Compiles every normalized schema with the exact Ajv configuration the
 * shipped validators use, and checks each example against it. A schema Ajv
 * rejects in strict mode, or an example that contradicts its schema, fails
 * the build here rather than at the first real call.
 */
import type { ValidateFunction } from "ajv";
import { sharedAjv } from "../ajv-shared.js";
import { createAjv, type ToolcAjv } from "../ajv.js";
import { withDiscriminators } from "../discriminators.js";
import { Codes, error } from "../diagnostics.js";
import type { DefOrigin, Diagnostic, ExampleIR, JsonObject, JsonValue } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { pointerSegments, toIssues } from "../runtime/issues.js";
import { copyJson } from "../runtime/json.js";
import { fragmentTokens } from "../schema/pointer.js";
import { sameValueCycle } from "./cycles.js";
import { forEachSchema } from "../schema/walk.js";
import { isJsonObject } from "../schema/json.js";

/** Ajv's strict-mode messages name the offending schema location as `at "#/..."` or `path "#/..."`. */
function schemaPathOf(message: string): JsonPath {
  const match = /(?:at|path) "#([^"]*)"/.exec(message);
  if (!match) return [];
  try {
    return fragmentTokens(match[1]).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  } catch {
    return [];
  }
}

/** Maps a path inside the served schema back to the YAML, skipping bundled `$defs` (they live in their types file). */
function yamlPathFor(schemaPath: JsonPath, root: JsonPath): JsonPath {
  return schemaPath[0] === "$defs" ? root : [...root, ...schemaPath];
}

export interface CompiledSchema {
  readonly validate?: ValidateFunction;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Default-checking validators already compiled, by schema text, for each
 * shared Ajv instance. Ajv caches by schema object, and the same small
 * subschema (a bounded `limit` with its default) comes as a new object from
 * every tool that has it. Only schemas that compiled are kept: a failure's
 * diagnostics are located in its own file. Kept per instance (weakly), so a
 * released instance (the compile releases them every so many tools) is not
 * held by the validators it made.
 */
const defaultCheckers = new WeakMap<object, Map<string, ValidateFunction>>();

export function compileSchema(schema: JsonObject, file: YamlSource, root: JsonPath, applyDefaults: boolean): CompiledSchema {
  const cycle = sameValueCycle(schema);
  if (cycle !== undefined) {
    const names = cycle.map((n) => `\`${n}\``).join(" → ");
    const message = `$ref cycle ${names}: each refers to the next for the same value, with no property or item in between, so no value could ever be checked against it`;
    return { diagnostics: [error(file.locate([...root, "$defs", cycle[0] as string], { key: true }), Codes.refCycle, message)] };
  }
  const ajv = sharedAjv({ applyDefaults });
  try {
    return { validate: ajv.compile(withDiscriminators(schema) as JsonObject), diagnostics: [] };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const unknownFormat = /unknown format/.test(message);
    const path = yamlPathFor(schemaPathOf(message), root);
    const at = unknownFormat && path !== root ? file.locate([...path, "format"], { key: true }) : file.locate(path);
    const code = unknownFormat ? Codes.unknownFormat : Codes.schemaCompile;
    return { diagnostics: [error(at, code, `schema rejected: ${message.replace(/^strict mode: /, "")}`)] };
  }
}

/**
 * Compiles a tool's input (`applyDefaults`) or output schema as the shipped
 * validators compile it, and hands back a way to the in-process function
 * (which validates copies without prototypes, as the runtime's). Throws what
 * Ajv throws. The validators target's compile (emit/validators.ts
 * compileToolValidator), given by the pipeline (core imports no target),
 * which keeps Ajv's output for the emit: each schema is compiled once.
 */
export type ToolSchemaCompiler = (schema: JsonObject, applyDefaults: boolean, defOrigins: Readonly<Record<string, DefOrigin>>) => () => ValidateFunction;

/** A tool's schema compiled: its diagnostics, and its validator when it compiled (made when asked: only examples need it). */
export interface CompiledToolSchema {
  readonly validator?: () => ExampleValidator;
  readonly diagnostics: readonly Diagnostic[];
}

/** A validator the examples are checked with, and how an example's data is made ready for it (copied as the runtime copies it). */
export interface ExampleValidator {
  readonly validate: ValidateFunction;
  readonly prepare: (value: JsonValue) => JsonValue;
}

/**
 * The instance each tool's schemas are checked against the 2020-12
 * meta-schema with, configured as the shared one (compileSchema's), but kept
 * for the process: checking a schema adds nothing to an instance (only the
 * meta-schema's validator is compiled, once), while the shared instances are
 * released every so many tools (pipeline/compile-tool.ts), and each fresh one
 * compiled the meta-schema again (0.3 s of GitHub's 1,223 tools).
 */
let metaInstance: ToolcAjv | undefined;

function metaChecker(): ToolcAjv {
  return (metaInstance ??= createAjv({ applyDefaults: false }));
}

/**
 * A tool's served schema compiled, with `compile` when the pipeline gives
 * one (else in the shared instance, as compileSchema). A schema the
 * validators' compile refuses is compiled again by compileSchema, whose
 * diagnostic locates Ajv's message in the YAML.
 */
export function compileToolSchema(
  schema: JsonObject,
  defOrigins: Readonly<Record<string, DefOrigin>>,
  file: YamlSource,
  root: JsonPath,
  applyDefaults: boolean,
  compile: ToolSchemaCompiler | undefined,
): CompiledToolSchema {
  const located = (): CompiledToolSchema => {
    const compiled = compileSchema(schema, file, root, applyDefaults);
    const validate = compiled.validate;
    return { diagnostics: compiled.diagnostics, ...(validate === undefined ? {} : { validator: () => ({ validate, prepare: clone }) }) };
  };
  // What Ajv2020's compile checks first; the validators' compile of a draft-07 schema does not.
  if (compile === undefined || sameValueCycle(schema) !== undefined || !metaChecker().validateSchema(schema)) return located();
  try {
    const validator = compile(schema, applyDefaults, defOrigins);
    return { diagnostics: [], validator: () => ({ validate: validator(), prepare: copied }) };
  } catch (e) {
    const fallback = located();
    if (fallback.diagnostics.length > 0) return fallback;
    const message = e instanceof Error ? e.message : String(e);
    return { diagnostics: [error(file.locate(root), Codes.schemaCompile, `schema rejected: ${message.replace(/^strict mode: /, "")}`)] };
  }
}

/** An example's data as the runtime validates it: copied without prototypes (runtime/json.ts). */
function copied(value: JsonValue): JsonValue {
  const copy = copyJson(value);
  if (!copy.ok) throw new Error(`example data is not JSON: ${copy.message}`);
  return copy.value as JsonValue;
}

/** The validator for a `default`'s own schema, compiled once per distinct schema. */
function defaultChecker(schema: JsonObject, file: YamlSource, path: JsonPath): CompiledSchema {
  const key = JSON.stringify(schema);
  const instance = sharedAjv({ applyDefaults: false });
  let checkers = defaultCheckers.get(instance);
  if (checkers === undefined) defaultCheckers.set(instance, (checkers = new Map()));
  const known = checkers.get(key);
  if (known !== undefined) return { validate: known, diagnostics: [] };
  const compiled = compileSchema(schema, file, path, false);
  if (compiled.validate) checkers.set(key, compiled.validate);
  return compiled;
}

function clone(value: JsonValue): JsonValue {
  return structuredClone(value);
}

function issueList(validate: ValidateFunction, data: unknown): string {
  return toIssues(validate.errors as never, data)
    .map((i) => `${i.path || "(root)"} ${i.message}`)
    .join("; ");
}

/** Where an error points in the example's YAML: the offending value, or the object missing a key. */
function errorLocation(file: YamlSource, base: JsonPath, validate: ValidateFunction, data: unknown): JsonPath {
  const first = validate.errors?.[0];
  return first ? [...base, ...pointerSegments(first.instancePath, data)] : base;
}

function checkValidExample(example: ExampleIR, index: number, file: YamlSource, input: ExampleValidator, output: ExampleValidator): Diagnostic[] {
  const out: Diagnostic[] = [];
  const data = input.prepare(example.input);
  if (!input.validate(data)) {
    const at = file.locate(errorLocation(file, ["examples", index, "input"], input.validate, data));
    out.push(error(at, Codes.exampleInvalid, `example ${JSON.stringify(example.name)}: input breaks the input schema: ${issueList(input.validate, data)}`));
  }
  if (example.output !== undefined) {
    const result = output.prepare(example.output);
    if (!output.validate(result)) {
      const at = file.locate(errorLocation(file, ["examples", index, "output"], output.validate, result));
      out.push(
        error(at, Codes.exampleInvalid, `example ${JSON.stringify(example.name)}: output breaks the output schema: ${issueList(output.validate, result)}`),
      );
    }
  }
  return out;
}

function checkInvalidExample(example: ExampleIR, index: number, file: YamlSource, input: ExampleValidator): Diagnostic[] {
  const data = input.prepare(example.input);
  if (input.validate(data)) {
    return [
      error(
        file.locate(["examples", index, "invalid"], { key: true }),
        Codes.invalidExampleIsValid,
        `example ${JSON.stringify(example.name)} is marked invalid, but its input passes the schema`,
      ),
    ];
  }
  const paths = toIssues(input.validate.errors as never, data).map((i) => i.path);
  const missing = (example.invalid ?? []).filter((p) => !paths.includes(p));
  if (missing.length === 0) return [];
  const shown = paths.map((p) => JSON.stringify(p)).join(", ");
  return [
    error(
      file.locate(["examples", index, "invalid"]),
      Codes.invalidExamplePaths,
      `example ${JSON.stringify(example.name)}: expected issues at ${missing.map((p) => JSON.stringify(p)).join(", ")}, but the issues are at ${shown}`,
    ),
  ];
}

export function checkExamples(examples: readonly ExampleIR[], file: YamlSource, input: ExampleValidator, output: ExampleValidator): Diagnostic[] {
  return examples.flatMap((example, index) =>
    example.invalid !== undefined ? checkInvalidExample(example, index, file, input) : checkValidExample(example, index, file, input, output),
  );
}

/**
 * Ajv does not check a `default` against its own schema, and input validators
 * apply defaults before validating: an invalid default would reject every
 * call that omits the field. So each default is checked here.
 */
export function checkDefaults(schema: JsonObject, file: YamlSource, root: JsonPath): Diagnostic[] {
  const out: Diagnostic[] = [];
  const defs = isJsonObject(schema.$defs) ? { $defs: schema.$defs } : {};
  forEachSchema(schema, root, (node, path) => {
    if (!("default" in node) || path.length === root.length || path[root.length] === "$defs") return;
    const { default: value, ...rest } = node;
    // The types are carried only where the schema refers to one: a smaller schema compiles faster and is more often the same as another tool's.
    const refers = JSON.stringify(rest).includes('"$ref"');
    const compiled = defaultChecker({ ...rest, ...(refers ? defs : {}) } as JsonObject, file, path);
    const data = clone(value as JsonValue);
    if (compiled.validate && !compiled.validate(data)) {
      out.push(
        error(
          file.locate([...path, "default"]),
          Codes.invalidDefault,
          `default ${JSON.stringify(value)} does not match its own schema: ${issueList(compiled.validate, data)}`,
        ),
      );
    }
  });
  return out;
}
