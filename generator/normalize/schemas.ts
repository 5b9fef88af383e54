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
import { namedRef, parseRef } from "./refs.js";
import { forEachSchema, isObjectSchema, isSchemaObject, mapSchema } from "./schema-walk.js";

/** Where every named type lives: type name → the types file that declares it. */
export type TypeRegistry = ReadonlyMap<string, { readonly file: string; readonly module: string }>;

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
function closeObjects(schema: JsonSchema): JsonSchema {
  const openBranches = new WeakSet<object>();
  mapSchema(schema, [], (node, _path, original) => {
    if (Array.isArray(original.allOf)) for (const branch of original.allOf) if (isSchemaObject(branch)) openBranches.add(branch);
    return node;
  });
  const close = (node: JsonObject, _path: JsonPath, original: JsonObject): JsonObject => {
    if ("additionalProperties" in node || "unevaluatedProperties" in node) return node;
    if (openBranches.has(original)) return node;
    const composed = Array.isArray(node.allOf) && node.allOf.length > 0 && node.allOf.every((b) => isSchemaObject(b) && (isObjectSchema(b) || typeof b.$ref === "string"));
    // Every branch is an object, so stating `type: object` on the whole changes nothing but lets strict mode accept the closing keyword.
    if (composed) return { ...node, ...(node.type === undefined ? { type: "object" } : {}), unevaluatedProperties: false };
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
    const where = ctx.rootStatesDialect === true ? "only at the root of `input` or `output`" : "only at the root of a tool's `input` or `output`, not in a named type";
    out.push(error(ctx.file.locate([...path, "$schema"], { key: true }), Codes.unsupportedKeyword, `\`$schema\` is read ${where}; remove it here`));
  });
  return out;
}

export function normalizeSchema(schema: JsonSchema, path: JsonPath, ctx: SchemaContext): NormalizedSchema {
  const deps = new Set<string>();
  const diagnostics: Diagnostic[] = [...checkPatterns(schema, path, ctx.file), ...checkFormats(schema, path, ctx.file), ...checkDialectPlacement(schema, path, ctx)];
  const rewritten = mapSchema(schema, path, (node, at) => rewriteRef(node, at, ctx, deps, diagnostics));
  const closed = closeObjects(rewritten);
  mapSchema(closed, path, (node, at) => {
    checkRequired(node, at, ctx, diagnostics);
    return node;
  });
  return { schema: closed, namedDeps: deps, diagnostics };
}
