/**
 * Named types (from types files) compiled once, into `validators/types/<module>.ts`,
 * instead of in place in every validator that uses them. A tool's validator
 * calls the shared function on the value and, when it fails, adds its errors
 * with their instance paths prefixed by where the value sits.
 *
 * Which uses become calls is decided from the schema alone, so each tool's
 * validator and the shared modules agree without seeing each other: a `$ref`
 * to a named type of at least SHARED_MIN characters, with nothing but
 * annotations beside it, at a place validators/call-sites.ts allows (reached
 * through properties, items, allOf and untagged unions, from the root or a
 * `$defs` entry, never in place below an unevaluated* keyword), in a schema
 * that uses no keyword that changes how refs resolve.
 *
 * Below a union a call reports what the type compiled in place reports
 * there: Ajv compiles a `$ref` below a union as a reference (inlineRefs
 * leaves refs below unions alone), whose errors carry the definition's
 * schema path, not the union's, so issues.ts keeps them as it keeps the
 * callee's; the callee's own union errors name its own unions, as they did
 * under `#/$defs/<Name>`. In an input validator a type with a default stays
 * in place below a union, where Ajv applies no default.
 */
import { _, Name, str, type KeywordCxt, type KeywordDefinition } from "ajv";
import { createAjv } from "../../ajv.js";
import { localResolver, withDiscriminators } from "../../discriminators.js";
import type { DefOrigin, JsonObject, JsonSchema, ToolIR } from "../../ir.js";
import { addNested } from "../../runtime/validator-errors.js";
import { isJsonObject, usesAnyKey } from "../../schema/json.js";
import { defsRef } from "../../schema/pointer.js";
import { defsEntryName, REF_SCOPE_KEYWORDS, refsIn } from "../../schema/refs.js";
import { annotationKeywords } from "../../schema/annotations.js";
import { withCallsAt, type CallAt } from "./call-sites.js";
import { inlineRefs } from "./inline.js";

/** The keyword a shared call stands as in the copy of the schema given to Ajv; normalize refuses it in contracts (unknown keyword). */
export const NAMED_TYPE_KEYWORD = "x-toolc-named-type";

/** runtime/validator-errors.ts `addNested`, as a validators module imports it (generator/emit/validators.ts). */
export const NESTED_ERRORS = { name: "nest$", member: "addNested" } as const;

/** Below this many characters of JSON, a named type is compiled in place: a call would cost more than it saves. */
const SHARED_MIN = 120;

/** Keywords that change how a `$ref` resolves: with any of them, nothing is shared (and a type whose closure holds one is not called). */
const UNSHAREABLE_KEYWORDS: ReadonlySet<string> = new Set(REF_SCOPE_KEYWORDS);
/** What may stand beside a shared `$ref`: annotations, and the default a parent object applies. */
const ANNOTATIONS = annotationKeywords("meta-data", "access", "default", "toolc");
/** A shared function: the module that exports it and its export name. */
export interface SharedValidator {
  readonly typeName: string;
  readonly module: string;
  readonly exportName: string;
  readonly applyDefaults: boolean;
  /** What the function is compiled from: a ref to the type, with every type it reaches (see sharedRootSchema). */
  readonly root: JsonObject;
  /** Where the root's `$defs` entries came from: the function calls the other named types it uses, as a tool does. */
  readonly origins: Readonly<Record<string, DefOrigin>>;
}

const DEFAULT_KEYWORD = new Set(["default"]);
const UNIONS: ReadonlySet<string> = new Set(["anyOf", "oneOf"]);

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
  /** The schema is a shared function's root (`{$ref: <its type>}`): the root itself is compiled, not called. */
  sharedRoot = false,
): { schema: JsonSchema; calls: SharedValidator[] } {
  if (!shareable(schema)) return { schema, calls: [] };
  const defs = (schema["$defs"] ?? {}) as JsonObject;
  const calls = new Map<string, SharedValidator>();
  // What each type's closure holds, looked at once per type rather than at every use.
  const reached = new Map<string, { readonly refScope: boolean; readonly defaults: boolean }>();
  const closureOf = (name: string) => {
    let known = reached.get(name);
    if (known === undefined) {
      const types = closure(name, defs);
      known = { refScope: usesAnyKey(types, UNSHAREABLE_KEYWORDS), defaults: usesAnyKey(types, DEFAULT_KEYWORD) };
      reached.set(name, known);
    }
    return known;
  };
  // Tagged unions are found where Ajv would find them compiling in place: in the schema with its refs inlined.
  const compiled = usesAnyKey(schema, UNIONS) ? inlineRefs(schema) : undefined;
  const callAt: CallAt = (node, place) => {
    if (sharedRoot && node === schema) return undefined;
    const name = sharedUse(node, defs, origins);
    const origin = name === undefined ? undefined : origins[name];
    if (name === undefined || origin?.kind !== "named" || place.evaluated) return undefined;
    const types = closureOf(name);
    if (types.refScope || (place.belowUnion && applyDefaults && types.defaults)) return undefined;
    // A type with no default to apply is the same function in both flavours: compiled as an output's, whose `$defs` entries call too.
    const withDefaults = applyDefaults && types.defaults;
    const call: SharedValidator = {
      typeName: name,
      module: origin.module,
      exportName: withDefaults ? `validate${name}_withDefaults` : `validate${name}`,
      applyDefaults: withDefaults,
      root: sharedRootSchema(name, defs),
      origins,
    };
    calls.set(call.exportName, call);
    const { $ref: _ref, ...siblings } = node;
    return { ...siblings, [NAMED_TYPE_KEYWORD]: call.exportName };
  };
  // An input's `$defs` entries are left as they are: whether Ajv applies their defaults depends on where it inlines them.
  const replaced = withCallsAt(schema, compiled, localResolver(compiled ?? schema), callAt, !applyDefaults);
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
 *
 * `lazy` (a shared module's own code, whose modules may import each other in
 * a cycle, or themselves for a recursive type) reads the function from the
 * module's namespace at each call rather than once as the module loads,
 * when the other module's exports may not be initialized yet.
 */
export function namedTypeKeyword(calls: readonly SharedValidator[], onCall?: (call: SharedValidator) => void, lazy = false): KeywordDefinition {
  const byExport = new Map(calls.map((c) => [c.exportName, c]));
  // One in-process stand-in per function: Ajv gives a value one name per `ref`, so every use shares one constant.
  const standIns = new Map(calls.map((c) => [c.exportName, inProcess(c.root, c.applyDefaults)]));
  // Lazily, one namespace stand-in per module, holding its functions by export name.
  const namespaces = new Map<string, Record<string, unknown>>();
  for (const c of calls) {
    const namespace = namespaces.get(c.module) ?? {};
    namespace[c.exportName] = standIns.get(c.exportName);
    namespaces.set(c.module, namespace);
  }
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
      const binding = new Name(sharedBinding(call.module));
      const fn = lazy
        ? _`${gen.scopeValue("func", { ref: namespaces.get(call.module), code: binding })}.${new Name(call.exportName)}`
        : gen.scopeValue("func", { ref: standIns.get(call.exportName), code: _`${binding}.${new Name(call.exportName)}` });
      const add = gen.scopeValue("func", { ref: addNested, code: new Name(NESTED_ERRORS.name) });
      gen.if(_`!${fn}(${data})`, () => {
        gen.assign(V_ERRORS, _`${add}(${V_ERRORS}, ${fn}.errors, ${str`${INSTANCE_PATH}${it.errorPath}`})`);
        gen.assign(ERRORS, _`${V_ERRORS}.length`);
      });
    },
  };
}
