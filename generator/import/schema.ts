/**
 * Rewrites one MCP tool schema into toolc's subset without changing what it
 * accepts. JSON Schema leaves an object open unless it says otherwise, and
 * toolc closes it, so every object schema that does not set
 * `additionalProperties` gets `additionalProperties: true` written out.
 * What the subset cannot express is reported at its JSON pointer: an
 * assertion outside the subset is an error (dropping it could widen or, as
 * with `patternProperties` next to a closed object, narrow what is accepted);
 * a keyword with no validation meaning is dropped with a warning.
 */
import { SUPPORTED_FORMATS } from "../ajv.js";
import { patternMessage, patternProblem } from "../normalize/patterns.js";
import { ASSERTIONS_OUTSIDE_SUBSET, isObjectSchema, SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../schema/walk.js";
import { pointerJoin, type Reporter } from "./problems.js";
import { fragmentTokens } from "../schema/pointer.js";
import type { JsonObject, JsonValue as Json } from "../ir.js";
import { isJsonObject } from "../schema/json.js";

/** Keywords of toolc's subset whose value is not a subschema: kept as they are. */
const PLAIN_KEYWORDS = new Set([
  "type",
  "required",
  "enum",
  "const",
  "default",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "title",
  "description",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "x-sensitive",
  "x-mcp-header",
]);
// The subset's subschema keywords are normalize's (schema/walk.ts); an imported schema may also use draft-07's `definitions`.
const SUBSCHEMA: ReadonlySet<string> = new Set(SCHEMA_KEYWORDS);
const SUBSCHEMA_LIST: ReadonlySet<string> = new Set(SCHEMA_LIST_KEYWORDS);
const SUBSCHEMA_MAP: ReadonlySet<string> = new Set([...SCHEMA_MAP_KEYWORDS, "definitions"]);

/** Assertions toolc cannot express: the tool is skipped rather than served with a different meaning. */
const UNSUPPORTED_ASSERTIONS = new Set<string>(ASSERTIONS_OUTSIDE_SUBSET);
/** Keywords without validation meaning for a 2020-12 validator (annotations, identifiers): dropping them changes no verdict. */
const DROPPABLE = new Set(["contentEncoding", "contentMediaType", "contentSchema", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$schema"]);
/** Annotations that may stand next to `$ref` in draft-07, where every other sibling is ignored. */
const REF_SIBLING_ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);

export interface SchemaContext {
  readonly report: Reporter;
  /** Names declared in the root's `$defs` or `definitions`; local refs must name one. */
  readonly defs: ReadonlySet<string>;
  /** The source declared draft-07 or older: `$ref` siblings are ignored there, `items` may be an array. */
  readonly legacy: boolean;
}

/** Draft-04 to -07 `$schema` URIs; 2019-09, 2020-12 and none are read as 2020-12. */
export function isLegacyDraft(uri: unknown): boolean {
  return typeof uri === "string" && /json-schema\.org\/(draft-0[3-7]|schema)#?$/.test(uri);
}

function convertRef(ref: Json, at: string, ctx: SchemaContext): Json {
  if (typeof ref !== "string") return ref;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (match) {
    let name: string;
    try {
      const tokens = fragmentTokens(ref.slice(1));
      // Percent-decoding comes first (RFC 6901), so `%2F` in the name is a separator, and the pointer goes deeper than one entry.
      name = tokens.length === 2 ? (tokens[1] as string) : "";
    } catch (e) {
      ctx.report.error(at, `$ref ${JSON.stringify(ref)}: ${e instanceof Error ? e.message : String(e)}`);
      return ref;
    }
    if (ctx.defs.has(name)) return `#/$defs/${match[2]}`;
    ctx.report.error(at, `$ref ${JSON.stringify(ref)} names no entry of the root's $defs/definitions`);
    return ref;
  }
  ctx.report.error(
    at,
    `$ref ${JSON.stringify(ref)} is not supported: toolc resolves only "#/$defs/Name" (and "#/definitions/Name") at the schema root; remote, root and other pointer references cannot be expressed`,
  );
  return ref;
}

function convertMap(value: Json, at: string, ctx: SchemaContext): Json {
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertSchema(v, pointerJoin(at, k), ctx)]));
}

function convertList(value: Json, at: string, ctx: SchemaContext): Json {
  return Array.isArray(value) ? value.map((v, i) => convertSchema(v, pointerJoin(at, i), ctx)) : value;
}

/** OpenAPI's `nullable: true` is `null` added to `type` (and to `enum`, which would otherwise still reject it). */
function applyNullable(node: JsonObject, at: string, ctx: SchemaContext): void {
  const nullable = node.nullable;
  delete node.nullable;
  if (nullable !== true) return;
  if (node.type === undefined) {
    ctx.report.warn(pointerJoin(at, "nullable"), "`nullable` without `type` has no effect (OpenAPI); dropped");
    return;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes("null")) node.type = [...types, "null"];
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
}

/** Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` modify `minimum`/`maximum`; 2020-12 wants the bound itself. */
function applyBooleanExclusive(node: JsonObject): void {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof node[flag] !== "boolean") continue;
    if (node[flag] === true && typeof node[bound] === "number") {
      node[flag] = node[bound];
      delete node[bound];
    } else delete node[flag];
  }
}

/** Draft-07 tuples: `items: [..]` is `prefixItems`, and `additionalItems` is then `items`. */
function applyLegacyItems(node: JsonObject, at: string, ctx: SchemaContext): void {
  if (Array.isArray(node.items)) {
    const rest = node.additionalItems;
    node.prefixItems = node.items;
    delete node.items;
    delete node.additionalItems;
    if (rest !== undefined) node.items = rest;
  } else if ("additionalItems" in node) {
    ctx.report.warn(pointerJoin(at, "additionalItems"), "`additionalItems` without an `items` array is ignored by JSON Schema; dropped");
    delete node.additionalItems;
  }
}

/** In draft-07 a `$ref` makes its assertion siblings inert; keeping them would make them apply. */
function dropInertRefSiblings(node: JsonObject, at: string, ctx: SchemaContext): void {
  if (!ctx.legacy || !("$ref" in node)) return;
  for (const key of Object.keys(node)) {
    if (key === "$ref" || REF_SIBLING_ANNOTATIONS.has(key)) continue;
    ctx.report.warn(pointerJoin(at, key), `\`${key}\` next to \`$ref\` is ignored in draft-07 but would apply in 2020-12; dropped`);
    delete node[key];
  }
}

function convertKeyword(key: string, value: Json, at: string, ctx: SchemaContext): Json | undefined {
  const here = pointerJoin(at, key);
  if (key === "$ref") return convertRef(value, here, ctx);
  if (SUBSCHEMA.has(key)) return convertSchema(value, here, ctx);
  if (SUBSCHEMA_LIST.has(key)) return convertList(value, here, ctx);
  if (SUBSCHEMA_MAP.has(key)) return convertMap(value, here, ctx);
  if (key === "format" && typeof value === "string" && !SUPPORTED_FORMATS.includes(value)) {
    ctx.report.warn(
      here,
      `format ${JSON.stringify(value)} is not one toolc checks (it would be an error); dropped, so the value is not checked, as most validators already treat unknown formats`,
    );
    return undefined;
  }
  if (key === "pattern" && typeof value === "string") {
    // The same check `generate` makes (TC035): a pattern that could stall the server is not served, and dropping it would widen what is accepted.
    const problem = patternProblem(value);
    if (problem !== undefined) ctx.report.error(here, patternMessage(value, problem));
    return value;
  }
  if (PLAIN_KEYWORDS.has(key)) return value;
  if (UNSUPPORTED_ASSERTIONS.has(key)) {
    ctx.report.error(here, `\`${key}\` is outside toolc's schema subset and constrains values; dropping it would change what the tool accepts`);
    return value;
  }
  if (key === "$id") {
    ctx.report.error(here, "a nested `$id` changes how references resolve; toolc cannot express it");
    return value;
  }
  const why = DROPPABLE.has(key) ? "has no validation meaning here" : "is not a JSON Schema keyword, so validators ignore it";
  ctx.report.warn(here, `\`${key}\` ${why}; dropped`);
  return undefined;
}

/**
 * Converts one (sub)schema. Boolean schemas stay as they are. `at` is the
 * pointer of `schema` in the source file.
 */
export function convertSchema(schema: Json, at: string, ctx: SchemaContext): Json {
  if (!isJsonObject(schema)) return schema;
  const node: JsonObject = { ...schema };
  applyNullable(node, at, ctx);
  applyBooleanExclusive(node);
  if (ctx.legacy || Array.isArray(node.items)) applyLegacyItems(node, at, ctx);
  dropInertRefSiblings(node, at, ctx);
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    const converted = convertKeyword(key, value, at, ctx);
    if (converted !== undefined) out[key === "definitions" ? "$defs" : key] = converted;
  }
  // JSON Schema objects are open unless they say otherwise; toolc's are closed. Say it.
  if (isObjectSchema(out) && !("additionalProperties" in out)) out.additionalProperties = true;
  return out;
}

/**
 * Converts a tool's root schema: `$schema` and `$id` go (toolc serves
 * 2020-12, self-contained), `definitions` and `$defs` merge into `$defs`.
 */
export function convertRootSchema(schema: JsonObject, at: string, report: Reporter): JsonObject {
  const { $schema, $id, ...rest } = schema;
  if ($id !== undefined) report.warn(pointerJoin(at, "$id"), "the root `$id` is dropped: toolc serves self-contained schemas with local references only");
  const defs = new Set([...Object.keys(isJsonObject(rest.$defs) ? rest.$defs : {}), ...Object.keys(isJsonObject(rest.definitions) ? rest.definitions : {})]);
  if (isJsonObject(rest.$defs) && isJsonObject(rest.definitions)) {
    for (const name of Object.keys(rest.definitions)) {
      if (name in rest.$defs) report.error(pointerJoin(at, "definitions", name), `\`${name}\` is declared in both \`$defs\` and \`definitions\``);
    }
    rest.$defs = { ...rest.$defs, ...rest.definitions };
    delete rest.definitions;
  }
  const ctx: SchemaContext = { report, defs, legacy: isLegacyDraft($schema) };
  return convertSchema(rest, at, ctx) as JsonObject;
}
