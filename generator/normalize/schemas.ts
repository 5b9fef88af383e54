/**
 * Normalizes one schema as written in YAML into the schema toolc serves:
 * references rewritten and checked, objects closed by default, and a few
 * mistakes the validator would silently accept caught with a location.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema, JsonValue } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { checkFormats } from "../load/formats.js";
import { didYouMean } from "../load/suggest.js";
import { checkPatterns } from "./patterns.js";
import { checkSatisfiable } from "./satisfiable.js";
import { namedRef, parseRef } from "./refs.js";
import { forEachSchema, isObjectSchema, mapSchema, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS, UNION_KEYWORDS } from "../schema/walk.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName } from "../schema/refs.js";

/** Where every named type lives: type name → the types file that declares it. */
export type TypeRegistry = ReadonlyMap<string, { readonly file: string; readonly module: string; readonly schema?: JsonSchema }>;

export interface SchemaContext {
  readonly file: YamlSource;
  readonly registry: TypeRegistry;
  /** Names in the schema root's own `$defs`; `#/$defs/X` must be one of them. */
  readonly localDefs: ReadonlySet<string>;
  /** Whether the root may state its dialect (`$schema`): a tool's input and output may, named types may not. */
  readonly rootStatesDialect?: boolean;
}

export interface NormalizedSchema {
  readonly schema: JsonSchema;
  /** Named types referenced directly. */
  readonly namedDeps: ReadonlySet<string>;
  readonly diagnostics: readonly Diagnostic[];
}

function rewriteRef(node: JsonObject, path: JsonPath, ctx: SchemaContext, deps: Set<string>, out: Diagnostic[]): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const at = ctx.file.locate([...path, "$ref"]);
  const target = parseRef(ref, ctx.file.source);
  if (target.kind === "invalid") {
    out.push(error(at, Codes.danglingRef, `cannot resolve $ref ${JSON.stringify(ref)}: ${target.reason}`));
    return node;
  }
  if (target.kind === "local") {
    if (!ctx.localDefs.has(target.name)) {
      out.push(
        error(at, Codes.danglingRef, `$ref ${JSON.stringify(ref)}: no \`$defs\` entry named \`${target.name}\`${didYouMean(target.name, [...ctx.localDefs])}`),
      );
    }
    return node;
  }
  const entry = ctx.registry.get(target.name);
  if (!entry || entry.file !== target.file) {
    const inFile = [...ctx.registry].filter(([, v]) => v.file === target.file).map(([k]) => k);
    const why =
      inFile.length === 0 && ![...ctx.registry.values()].some((v) => v.file === target.file)
        ? `no types file ${JSON.stringify(target.file)}`
        : `no type \`${target.name}\` in ${target.file}${didYouMean(target.name, inFile)}`;
    out.push(error(at, Codes.danglingRef, `cannot resolve $ref ${JSON.stringify(ref)}: ${why}`));
    return node;
  }
  deps.add(target.name);
  return { ...node, $ref: namedRef(target.name) };
}

/** A `required` name that `properties` does not declare can never be satisfied by a closed object. */
function checkRequired(node: JsonObject, path: JsonPath, ctx: SchemaContext, out: Diagnostic[]): void {
  if (!Array.isArray(node.required) || node.additionalProperties !== false || !isJsonObject(node.properties)) return;
  const declared = Object.keys(node.properties);
  node.required.forEach((name, i) => {
    if (typeof name === "string" && !declared.includes(name)) {
      out.push(
        error(
          ctx.file.locate([...path, "required", i]),
          Codes.invalidValue,
          `required property \`${name}\` is not declared in \`properties\`${didYouMean(name, declared)}`,
        ),
      );
    }
  });
}

function branchesOf(node: JsonObject, keywords: readonly string[]): JsonValue[] {
  return keywords.flatMap((k) => (Array.isArray(node[k]) ? (node[k] as JsonValue[]) : []));
}

/** Sets its own closing keyword, so toolc adds none. */
const closesItself = (node: JsonObject): boolean => "additionalProperties" in node || "unevaluatedProperties" in node;

/**
 * Whether an allOf branch is an object: a `$ref` branch counts as one unless
 * what it names is known to be something else (`allOf: [{ $ref: Status }]`
 * on a string).
 */
function objectBranchIn(schema: JsonSchema, registry: TypeRegistry): (branch: JsonObject) => boolean {
  const rootDefs = isJsonObject(schema) && isJsonObject(schema.$defs) ? schema.$defs : {};
  const isObjectValue = (v: JsonValue): boolean => isJsonObject(v);
  return (branch) => {
    if (typeof branch.$ref !== "string") return isObjectSchema(branch);
    const name = defsEntryName(branch.$ref);
    const target = name === undefined ? undefined : Object.hasOwn(rootDefs, name) ? rootDefs[name] : registry.get(name)?.schema;
    if (!isJsonObject(target)) return true;
    if (target.type !== undefined) return target.type === "object" || (Array.isArray(target.type) && target.type.includes("object"));
    if (Array.isArray(target.enum)) return target.enum.every(isObjectValue);
    return "const" in target ? isObjectValue(target.const as JsonValue) : true;
  };
}

/** An allOf whose branches are all objects (or references to objects): closed over all of them. */
function closesOverAllOf(node: JsonObject, objectBranch: (branch: JsonObject) => boolean): boolean {
  return Array.isArray(node.allOf) && node.allOf.length > 0 && node.allOf.every((b) => isJsonObject(b) && objectBranch(b));
}

/**
 * An object schema holding anyOf/oneOf: closed over the branch it takes.
 * (A bare union of objects, with no object schema around it, has nothing
 * to close it from above, so each branch closes itself.)
 */
function closesOverUnion(node: JsonObject): boolean {
  return branchesOf(node, UNION_KEYWORDS).length > 0 && isObjectSchema(node);
}

/**
 * The composition branches to leave open: every allOf branch, and the
 * object branches of a union that is closed from above (by its own node or
 * an enclosing one at the same instance). Walked top-down, since whether a
 * union is closed from above depends on its ancestors.
 */
function openBranchesOf(schema: JsonSchema, objectBranch: (branch: JsonObject) => boolean): WeakSet<object> {
  const open = new WeakSet<object>();
  const walk = (node: JsonValue, covered: boolean): void => {
    if (!isJsonObject(node)) return;
    const closes = !open.has(node) && !closesItself(node);
    const coversAllOf = covered || (closes && closesOverAllOf(node, objectBranch));
    const coversUnion = covered || (closes && (closesOverAllOf(node, objectBranch) || closesOverUnion(node)));
    for (const branch of branchesOf(node, ["allOf"])) if (isJsonObject(branch)) open.add(branch);
    for (const branch of branchesOf(node, UNION_KEYWORDS)) if (coversUnion && isJsonObject(branch) && isObjectSchema(branch)) open.add(branch);
    for (const [key, value] of Object.entries(node)) {
      if (key === "allOf") branchesOf(node, [key]).forEach((b) => walk(b, coversAllOf));
      else if ((UNION_KEYWORDS as readonly string[]).includes(key)) branchesOf(node, [key]).forEach((b) => walk(b, coversUnion));
      else if ((SCHEMA_KEYWORDS as readonly string[]).includes(key)) walk(value, false);
      else if (key === "prefixItems") branchesOf(node, [key]).forEach((b) => walk(b, false));
      else if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isJsonObject(value)) Object.values(value).forEach((v) => walk(v, false));
    }
  };
  walk(schema, false);
  return open;
}

/**
 * Objects are closed unless they say otherwise. Inside `allOf`, closing each
 * branch would reject the other branches' properties; inside `anyOf` and
 * `oneOf` of an object, closing the object would reject every branch's
 * properties. So those branches stay open, and the object holding them is
 * closed with `unevaluatedProperties: false` (Core §11.3), which sees the
 * properties of the branches that matched.
 */
function closeObjects(schema: JsonSchema, registry: TypeRegistry): JsonSchema {
  const objectBranch = objectBranchIn(schema, registry);
  const openBranches = openBranchesOf(schema, objectBranch);
  const close = (node: JsonObject, _path: JsonPath, original: JsonObject): JsonObject => {
    if (closesItself(node) || openBranches.has(original)) return node;
    // Every branch (or the node itself) is an object, so stating `type: object` on the whole changes nothing but lets strict mode accept the closing keyword.
    if (closesOverAllOf(node, objectBranch) || closesOverUnion(node))
      return { ...node, ...(node.type === undefined ? { type: "object" } : {}), unevaluatedProperties: false };
    return isObjectSchema(node) ? { ...node, additionalProperties: false } : node;
  };
  return mapSchema(schema, [], close);
}

/**
 * `$schema` belongs to a schema resource's root (Core §8.1.1): the root of
 * input or output, which tool.ts checks names 2020-12. Anywhere else it
 * would start a resource of another dialect inside this one.
 */
function checkDialectPlacement(schema: JsonSchema, root: JsonPath, ctx: SchemaContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSchema(schema, root, (node, path) => {
    if (!("$schema" in node) || (ctx.rootStatesDialect === true && path.length === root.length)) return;
    const where =
      ctx.rootStatesDialect === true ? "only at the root of `input` or `output`" : "only at the root of a tool's `input` or `output`, not in a named type";
    out.push(error(ctx.file.locate([...path, "$schema"], { key: true }), Codes.unsupportedKeyword, `\`$schema\` is read ${where}; remove it here`));
  });
  return out;
}

export function normalizeSchema(schema: JsonSchema, path: JsonPath, ctx: SchemaContext): NormalizedSchema {
  const deps = new Set<string>();
  const diagnostics: Diagnostic[] = [
    ...checkPatterns(schema, path, ctx.file),
    ...checkFormats(schema, path, ctx.file),
    ...checkDialectPlacement(schema, path, ctx),
  ];
  const rewritten = mapSchema(schema, path, (node, at) => rewriteRef(node, at, ctx, deps, diagnostics));
  const closed = closeObjects(rewritten, ctx.registry);
  mapSchema(closed, path, (node, at) => {
    checkRequired(node, at, ctx, diagnostics);
    return node;
  });
  diagnostics.push(...checkSatisfiable(closed, path, ctx.file));
  return { schema: closed, namedDeps: deps, diagnostics };
}
