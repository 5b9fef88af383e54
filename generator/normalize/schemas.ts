/**
 * Normalizes one schema as written in YAML into the schema toolc serves:
 * references rewritten and checked, objects closed by default, and a few
 * mistakes the validator would silently accept caught with a location.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema, JsonValue } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { didYouMean } from "../load/suggest.js";
import { checkPatterns } from "./patterns.js";
import { namedRef, parseRef } from "./refs.js";
import { defsEntryName } from "../runtime/pointer.js";
import { isObjectSchema, isSchemaObject, mapSchema } from "./schema-walk.js";

/** Where every named type lives: type name → the types file that declares it. */
export type TypeRegistry = ReadonlyMap<string, { readonly file: string; readonly module: string; readonly schema?: JsonSchema }>;

export interface SchemaContext {
  readonly file: YamlSource;
  readonly registry: TypeRegistry;
  /** Names in the schema root's own `$defs`; `#/$defs/X` must be one of them. */
  readonly localDefs: ReadonlySet<string>;
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
      out.push(error(at, Codes.danglingRef, `$ref ${JSON.stringify(ref)}: no \`$defs\` entry named \`${target.name}\`${didYouMean(target.name, [...ctx.localDefs])}`));
    }
    return node;
  }
  const entry = ctx.registry.get(target.name);
  if (!entry || entry.file !== target.file) {
    const inFile = [...ctx.registry].filter(([, v]) => v.file === target.file).map(([k]) => k);
    const why = inFile.length === 0 && ![...ctx.registry.values()].some((v) => v.file === target.file)
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
  if (!Array.isArray(node.required) || node.additionalProperties !== false || !isSchemaObject(node.properties)) return;
  const declared = Object.keys(node.properties);
  node.required.forEach((name, i) => {
    if (typeof name === "string" && !declared.includes(name)) {
      out.push(error(ctx.file.locate([...path, "required", i]), Codes.invalidValue, `required property \`${name}\` is not declared in \`properties\`${didYouMean(name, declared)}`));
    }
  });
}

/**
 * Objects are closed unless they say otherwise. Inside `allOf`, closing each
 * branch would reject the other branches' properties, so the branches stay
 * open and the object holding the `allOf` is closed over all of them.
 */
function closeObjects(schema: JsonSchema, registry: TypeRegistry): JsonSchema {
  const rootDefs = isSchemaObject(schema) && isSchemaObject(schema.$defs) ? schema.$defs : {};
  // A `$ref` branch counts as an object unless what it names is known to be something else (`allOf: [{ $ref: Status }]` on a string).
  const objectBranch = (branch: JsonObject): boolean => {
    if (typeof branch.$ref !== "string") return isObjectSchema(branch);
    const name = defsEntryName(branch.$ref);
    const target = name === undefined ? undefined : Object.hasOwn(rootDefs, name) ? rootDefs[name] : registry.get(name)?.schema;
    if (!isSchemaObject(target)) return true;
    if (target.type !== undefined) return target.type === "object" || (Array.isArray(target.type) && target.type.includes("object"));
    const isObjectValue = (v: JsonValue): boolean => isSchemaObject(v);
    if (Array.isArray(target.enum)) return target.enum.every(isObjectValue);
    return "const" in target ? isObjectValue(target.const as JsonValue) : true;
  };
  const openBranches = new WeakSet<object>();
  mapSchema(schema, [], (node, _path, original) => {
    if (Array.isArray(original.allOf)) for (const branch of original.allOf) if (isSchemaObject(branch)) openBranches.add(branch);
    return node;
  });
  const close = (node: JsonObject, _path: JsonPath, original: JsonObject): JsonObject => {
    if ("additionalProperties" in node || "unevaluatedProperties" in node) return node;
    if (openBranches.has(original)) return node;
    const composed = Array.isArray(node.allOf) && node.allOf.length > 0 && node.allOf.every((b) => isSchemaObject(b) && objectBranch(b));
    // Every branch is an object, so stating `type: object` on the whole changes nothing but lets strict mode accept the closing keyword.
    if (composed) return { ...node, ...(node.type === undefined ? { type: "object" } : {}), unevaluatedProperties: false };
    return isObjectSchema(node) ? { ...node, additionalProperties: false } : node;
  };
  return mapSchema(schema, [], close);
}

export function normalizeSchema(schema: JsonSchema, path: JsonPath, ctx: SchemaContext): NormalizedSchema {
  const deps = new Set<string>();
  const diagnostics: Diagnostic[] = [...checkPatterns(schema, path, ctx.file)];
  const rewritten = mapSchema(schema, path, (node, at) => rewriteRef(node, at, ctx, deps, diagnostics));
  const closed = closeObjects(rewritten, ctx.registry);
  mapSchema(closed, path, (node, at) => {
    checkRequired(node, at, ctx, diagnostics);
    return node;
  });
  return { schema: closed, namedDeps: deps, diagnostics };
}
