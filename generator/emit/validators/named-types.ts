/**
 * Named types (from types files) compiled once, into `validators/types/<module>.ts`,
 * instead of in place in every validator that uses them. A tool's validator
 * calls the shared function on the value and, when it fails, adds its errors
 * with their instance paths prefixed by where the value sits.
 *
 * Which uses become calls is decided from the schema alone, so each tool's
 * validator and the shared modules agree without seeing each other: a `$ref`
 * to a named type of at least SHARED_MIN characters, reached from the root
 * through properties, items and allOf only (never below a union, where
 * issues.ts tells branch errors apart by schema path, nor below not, if,
 * contains or propertyNames, whose subschemas Ajv runs as composite rules),
 * with nothing but annotations beside it, in a schema that uses no keyword
 * that changes how refs resolve and no unevaluated* keyword (which would need
 * to see what the callee evaluated).
 */
import { _, Name, str, type KeywordCxt, type KeywordDefinition } from "ajv";
import { createAjv } from "../../ajv.js";
import { withDiscriminators } from "../../discriminators.js";
import type { DefOrigin, JsonObject, JsonSchema, ToolIR } from "../../ir.js";
import { addNested } from "../../runtime/validator-errors.js";
import { isJsonObject, usesAnyKey } from "../../schema/json.js";
import { defsRef } from "../../schema/pointer.js";
import { defsEntryName, REF_SCOPE_KEYWORDS, refsIn } from "../../schema/refs.js";
import { ANY_SCHEMA_KEYWORDS, ANY_SCHEMA_LIST_KEYWORDS, ANY_SCHEMA_MAP_KEYWORDS } from "../../schema/walk.js";
import { annotationKeywords } from "../../schema/annotations.js";

/** The keyword a shared call stands as in the copy of the schema given to Ajv; normalize refuses it in contracts (unknown keyword). */
export const NAMED_TYPE_KEYWORD = "x-toolc-named-type";

/** runtime/validator-errors.ts `addNested`, as a validators module imports it (generator/emit/validators.ts). */
export const NESTED_ERRORS = { name: "nest$", member: "addNested" } as const;

/** Below this many characters of JSON, a named type is compiled in place: a call would cost more than it saves. */
const SHARED_MIN = 120;

/** Keywords that change how a `$ref` resolves, or that need what a subschema evaluated; with any of them, nothing is shared. */
const UNSHAREABLE_KEYWORDS: ReadonlySet<string> = new Set([...REF_SCOPE_KEYWORDS, "unevaluatedProperties", "unevaluatedItems"]);
/** What may stand beside a shared `$ref`: annotations, and the default a parent object applies. */
const ANNOTATIONS = annotationKeywords("meta-data", "access", "default", "toolc");
/**
 * The keywords followed from the root: a value reached through them is
 * validated in allErrors mode, outside any composite rule. A subset of the
 * toolkit's tables (each set typed by the table it picks from), on purpose:
 * below the others a subschema is a union's branch or part of a composite
 * or conditional rule (see the module comment), or a `$defs` entry reached
 * only by reference. A list of what is followed, not of what is skipped, so
 * a keyword added to the toolkit is not followed until it is shown safe.
 */
const FOLLOW_ONE: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_KEYWORDS)[number]>(["additionalProperties", "items"]);
const FOLLOW_ARRAY: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_LIST_KEYWORDS)[number]>(["prefixItems", "allOf"]);
const FOLLOW_MAP: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_MAP_KEYWORDS)[number]>(["properties", "patternProperties"]);

/** A shared function: the module that exports it and its export name. */
export interface SharedValidator {
  readonly typeName: string;
  readonly module: string;
  readonly exportName: string;
  readonly applyDefaults: boolean;
  /** What the function is compiled from: a ref to the type, with every type it reaches (see sharedRootSchema). */
  readonly root: JsonObject;
}

const DEFAULT_KEYWORD = new Set(["default"]);

/** The named type's export in its module: one per flavour only when the type (or what it uses) has a default to apply. */
function exportName(typeName: string, applyDefaults: boolean, defs: JsonObject): string {
  return applyDefaults && usesAnyKey(closure(typeName, defs), DEFAULT_KEYWORD) ? `validate${typeName}_withDefaults` : `validate${typeName}`;
}

/** `name` and every `$defs` entry it reaches, as a `$defs` object (refs inside are `#/$defs/<Name>`). */
function closure(name: string, defs: JsonObject): JsonObject {
  const out: JsonObject = {};
  const visit = (n: string): void => {
    if (Object.hasOwn(out, n) || !Object.hasOwn(defs, n)) return;
    const schema = defs[n] as JsonSchema;
    out[n] = schema;
    for (const ref of refsIn(schema)) {
      const entry = defsEntryName(ref);
      if (entry !== undefined) visit(entry);
    }
  };
  visit(name);
  return out;
}

/** The named type a schema node refers to, if it is a shareable use of one (see the module comment). */
function sharedUse(node: JsonObject, defs: JsonObject, origins: Readonly<Record<string, DefOrigin>>): string | undefined {
  const ref = node["$ref"];
  if (typeof ref !== "string") return undefined;
  const name = defsEntryName(ref);
  if (name === undefined || origins[name]?.kind !== "named" || !Object.hasOwn(defs, name)) return undefined;
  if (Object.keys(node).some((k) => k !== "$ref" && !ANNOTATIONS.has(k))) return undefined;
  if (JSON.stringify(defs[name]).length < SHARED_MIN) return undefined;
  return name;
}

type Replace = (node: JsonObject) => JsonSchema;

/** A copy of `schema` with `replace` applied to every node reached through the followed keywords (the root included). */
function mapFollowed(schema: JsonSchema, replace: Replace): JsonSchema {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (FOLLOW_ONE.has(k) && isJsonObject(v)) out[k] = mapFollowed(v, replace) as JsonObject;
    else if (FOLLOW_ARRAY.has(k) && Array.isArray(v)) out[k] = v.map((s) => mapFollowed(s as JsonSchema, replace)) as JsonObject[];
    else if (FOLLOW_MAP.has(k) && isJsonObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, mapFollowed(s as JsonSchema, replace)])) as JsonObject;
    } else out[k] = v;
  }
  return replace(out);
}

/** Whether any sharing applies to `schema` at all. */
function shareable(schema: JsonSchema): schema is JsonObject {
  return isJsonObject(schema) && !usesAnyKey(schema, UNSHAREABLE_KEYWORDS);
}

/**
 * `schema` with each shareable use of a named type replaced by the
 * NAMED_TYPE_KEYWORD (naming the shared function's export), and the shared
 * functions it calls. A schema with no shareable use comes back as it is.
 */
export function withSharedCalls(
  schema: JsonSchema,
  origins: Readonly<Record<string, DefOrigin>>,
  applyDefaults: boolean,
): { schema: JsonSchema; calls: SharedValidator[] } {
  if (!shareable(schema)) return { schema, calls: [] };
  const defs = (schema["$defs"] ?? {}) as JsonObject;
  const calls = new Map<string, SharedValidator>();
  const replaced = mapFollowed(schema, (node) => {
    const name = sharedUse(node, defs, origins);
    const origin = name === undefined ? undefined : origins[name];
    if (name === undefined || origin?.kind !== "named" || usesAnyKey(closure(name, defs), UNSHAREABLE_KEYWORDS)) return node;
    const call: SharedValidator = {
      typeName: name,
      module: origin.module,
      exportName: exportName(name, applyDefaults, defs),
      applyDefaults,
      root: sharedRootSchema(name, defs),
    };
    calls.set(call.exportName, call);
    const { $ref: _ref, ...siblings } = node;
    return { ...siblings, [NAMED_TYPE_KEYWORD]: call.exportName };
  });
  return { schema: calls.size === 0 ? schema : replaced, calls: [...calls.values()] };
}

/** The shared functions a tool's two validators call. */
export function sharedCallsOf(tool: ToolIR): SharedValidator[] {
  return [...withSharedCalls(tool.inputSchema, tool.inputDefs, true).calls, ...withSharedCalls(tool.outputSchema, tool.outputDefs, false).calls];
}

/** The namespace a validators module imports a shared module as: module stems are `[A-Za-z0-9_-]+`, and `$` stands for `-`. */
export function sharedBinding(module: string): string {
  return `types$${module.replace(/-/g, "$")}`;
}

/** The schema a shared function is compiled from: a ref to the type, with every type it reaches (`defs` holds at least those). */
function sharedRootSchema(typeName: string, defs: JsonObject): JsonObject {
  return { $ref: defsRef(typeName), $defs: closure(typeName, defs) };
}

/**
 * What Ajv calls when a schema holding the keyword is compiled in process
 * (the emitter only writes standalone code, which calls the shared module
 * instead): the same type compiled on first use, with the same
 * data-only signature and `.errors`.
 */
function inProcess(root: JsonObject, applyDefaults: boolean): (data: unknown) => boolean {
  let compiled: (((data: unknown) => boolean) & { errors?: unknown }) | undefined;
  const validate = Object.assign(
    (data: unknown): boolean => {
      compiled ??= createAjv({ applyDefaults, copiedData: true }).compile(withDiscriminators(root) as JsonObject);
      const valid = compiled(data);
      validate.errors = compiled.errors ?? null;
      return valid;
    },
    { errors: null as unknown },
  );
  return validate;
}

/**
 * Ajv's validation-time variables (ajv.js.org/keywords.html, "Validation time
 * variables"): the error list, the error count, and the instance path of the
 * function being run. Merging a callee's errors needs them, as Ajv's own
 * `$ref` code does.
 */
const V_ERRORS = new Name("vErrors");
const ERRORS = new Name("errors");
const INSTANCE_PATH = new Name("instancePath");

/**
 * The code keyword that calls a shared function (see the module comment);
 * `calls` by export name. `onCall` is told of each call as Ajv compiles it:
 * standalone code then names the shared module's namespace and NESTED_ERRORS.
 */
export function namedTypeKeyword(calls: readonly SharedValidator[], onCall?: (call: SharedValidator) => void): KeywordDefinition {
  const byExport = new Map(calls.map((c) => [c.exportName, c]));
  // One in-process stand-in per function: Ajv gives a value one name per `ref`, so every use shares one constant.
  const standIns = new Map(calls.map((c) => [c.exportName, inProcess(c.root, c.applyDefaults)]));
  return {
    keyword: NAMED_TYPE_KEYWORD,
    schemaType: "string",
    code(cxt: KeywordCxt) {
      const call = byExport.get(cxt.schema as string);
      if (call === undefined) throw new Error(`no shared validator ${String(cxt.schema)}`);
      const { gen, data, it } = cxt;
      // With allErrors (toolc's only mode, and the only one reached through the followed keywords) validity is the error count.
      if (!it.allErrors) throw new Error("shared named-type calls need allErrors");
      onCall?.(call);
      const fn = gen.scopeValue("func", { ref: standIns.get(call.exportName), code: _`${new Name(sharedBinding(call.module))}.${new Name(call.exportName)}` });
      const add = gen.scopeValue("func", { ref: addNested, code: new Name(NESTED_ERRORS.name) });
      gen.if(_`!${fn}(${data})`, () => {
        gen.assign(V_ERRORS, _`${add}(${V_ERRORS}, ${fn}.errors, ${str`${INSTANCE_PATH}${it.errorPath}`})`);
        gen.assign(ERRORS, _`${V_ERRORS}.length`);
      });
    },
  };
}
