/**
 * A served JSON Schema as the rows of a readable table: one row per value a
 * caller meets (a property, the items of an array, a branch of a union),
 * nested under its parent, with its type, whether it is required, its
 * details and its description. A reference is never expanded: its type is a
 * link to the named type or definition, which has a table of its own, so a
 * recursive type is finite here too. Any schema root works, object or not.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { facetsOf } from "./facets.js";
import { code, joined, link, markdown, text, type Cell, type Inline, type Row, type Target } from "./model.js";

/** Where a `$ref` of the schema points in the catalog. */
export type RefResolver = (ref: string) => { readonly name: string; readonly to: Target } | undefined;

export const SCHEMA_COLUMNS = ["Field", "Type", "Required", "Details", "Description"] as const;

/** Keywords the rows themselves show (as the type, as child rows, or not at all); the facets show the rest. */
const STRUCTURAL: ReadonlySet<string> = new Set([
  "type",
  "$ref",
  "properties",
  "required",
  "patternProperties",
  "items",
  "prefixItems",
  "contains",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "propertyNames",
  "$defs",
  "description",
  "title",
  "$schema",
  "$id",
  "$comment",
]);

interface Child {
  readonly label: Cell;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

const schemas = (value: JsonValue | undefined): JsonSchema[] =>
  Array.isArray(value) ? value.filter((v): v is JsonSchema => isJsonObject(v) || typeof v === "boolean") : [];

/** An array's items that say nothing but a type or a reference, so the array's type says it all: `array of Order`. */
function plainItems(s: JsonObject): JsonObject | undefined {
  const items = s["items"];
  if (!isJsonObject(items) || s["prefixItems"] !== undefined) return undefined;
  const keys = Object.keys(items);
  return keys.length === 1 && (keys[0] === "$ref" || (keys[0] === "type" && typeof items["type"] === "string")) ? items : undefined;
}

function propertyChildren(s: JsonObject): Child[] {
  const required = new Set(Array.isArray(s["required"]) ? s["required"].map(String) : []);
  const out: Child[] = [];
  if (isJsonObject(s["properties"])) {
    for (const [name, sub] of Object.entries(s["properties"]))
      if (isJsonObject(sub) || typeof sub === "boolean") out.push({ label: [code(name)], schema: sub, required: required.has(name) });
  }
  if (isJsonObject(s["patternProperties"])) {
    for (const [pattern, sub] of Object.entries(s["patternProperties"]))
      if (isJsonObject(sub) || typeof sub === "boolean") out.push({ label: [text("keys matching "), code(pattern)], schema: sub });
  }
  const extra = s["additionalProperties"];
  if (isJsonObject(extra)) out.push({ label: [text("any other key")], schema: extra });
  if (isJsonObject(s["propertyNames"])) out.push({ label: [text("each key name")], schema: s["propertyNames"] });
  return out;
}

function arrayChildren(s: JsonObject): Child[] {
  const out: Child[] = schemas(s["prefixItems"]).map((sub, i) => ({ label: [text(`item ${i}`)], schema: sub }));
  const items = s["items"];
  if ((isJsonObject(items) || items === false) && plainItems(s) === undefined)
    out.push({ label: [text(out.length > 0 ? "each further item" : "each item")], schema: items });
  if (isJsonObject(s["contains"])) out.push({ label: [text("some item")], schema: s["contains"] });
  return out;
}

const BRANCH_WORDS: Readonly<Record<string, string>> = { oneOf: "option", anyOf: "option", allOf: "part" };

function branchChildren(s: JsonObject): Child[] {
  const out: Child[] = [];
  for (const keyword of ["oneOf", "anyOf", "allOf"]) {
    schemas(s[keyword]).forEach((sub, i) => out.push({ label: [text(`${BRANCH_WORDS[keyword]} ${i + 1}`)], schema: sub }));
  }
  for (const keyword of ["not", "if", "then", "else"]) {
    const sub = s[keyword];
    if (isJsonObject(sub) || typeof sub === "boolean") out.push({ label: [text(keyword)], schema: sub });
  }
  if (isJsonObject(s["dependentSchemas"])) {
    for (const [key, sub] of Object.entries(s["dependentSchemas"]))
      if (isJsonObject(sub) || typeof sub === "boolean") out.push({ label: [text("with "), code(key)], schema: sub });
  }
  return out;
}

function children(schema: JsonSchema): Child[] {
  return isJsonObject(schema) ? [...propertyChildren(schema), ...arrayChildren(schema), ...branchChildren(schema)] : [];
}

function refLabel(ref: string, resolve: RefResolver): Inline {
  const target = resolve(ref);
  return target ? link(target.name, target.to, { code: true }) : code(ref);
}

/** The Type cell: the declared type(s), a link for a reference, or what kind of combination the value is. */
export function typeCell(schema: JsonSchema, resolve: RefResolver): Cell {
  if (schema === true) return [text("any")];
  if (schema === false) return [text("nothing (never valid)")];
  const parts: Inline[][] = [];
  if (typeof schema["$ref"] === "string") parts.push([refLabel(schema["$ref"], resolve)]);
  const types = typeof schema["type"] === "string" ? [schema["type"]] : Array.isArray(schema["type"]) ? schema["type"].map(String) : [];
  const items = plainItems(schema);
  for (const type of types) {
    if (type === "array" && items)
      parts.push([text("array of "), ...(typeof items["$ref"] === "string" ? [refLabel(items["$ref"], resolve)] : [text(String(items["type"]))])]);
    else parts.push([text(type)]);
  }
  if (parts.length > 0) return joined(parts, " | ");
  if (Object.hasOwn(schema, "const")) return [text("constant")];
  if (Array.isArray(schema["enum"])) return [text("enum")];
  if (schema["oneOf"] !== undefined) return [text("one of")];
  if (schema["anyOf"] !== undefined) return [text("any of")];
  if (schema["allOf"] !== undefined) return [text("all of")];
  if (schema["not"] !== undefined) return [text("not")];
  return [text("any")];
}

/** Title and description, as the contract wrote them; the description's Markdown shown as formatting. */
function describe(schema: JsonSchema): Cell {
  if (!isJsonObject(schema)) return [];
  const title = typeof schema["title"] === "string" && schema["title"] !== "" ? schema["title"] : undefined;
  const description = typeof schema["description"] === "string" && schema["description"] !== "" ? schema["description"] : undefined;
  if (description === undefined) return title === undefined ? [] : [text(title)];
  return [...(title === undefined ? [] : [text(`${title}: `)]), markdown(description)];
}

/** The Details cell: each facet, separated. */
export function detailsCell(schema: JsonSchema): Cell {
  return isJsonObject(schema) ? joined(facetsOf(schema, STRUCTURAL), " · ") : [];
}

function requiredCell(required: boolean | undefined): Cell {
  return required === undefined ? [] : [text(required ? "yes" : "no")];
}

function addRows(child: Child, depth: number, trail: readonly Cell[], resolve: RefResolver, out: Row[]): void {
  out.push({
    cells: [child.label, typeCell(child.schema, resolve), requiredCell(child.required), detailsCell(child.schema), describe(child.schema)],
    depth,
    trail,
  });
  for (const grandchild of children(child.schema)) addRows(grandchild, depth + 1, [...trail, child.label], resolve, out);
}

/**
 * The rows of a schema: the parts of its root, or when the root has no parts
 * (a string output, say), one row for the root itself.
 */
export function schemaRows(root: JsonSchema, resolve: RefResolver): Row[] {
  const out: Row[] = [];
  const parts = children(root);
  if (parts.length === 0) addRows({ label: [text("(the value)")], schema: root }, 0, [], resolve, out);
  for (const part of parts) addRows(part, 0, [], resolve, out);
  return out;
}

/** The root's own type and details, shown above its rows. */
export function rootSummary(root: JsonSchema, resolve: RefResolver): Cell {
  const details = detailsCell(root);
  return [...typeCell(root, resolve), ...(details.length > 0 ? [text(" · "), ...details] : [])];
}
