/**
 * Compares one served schema of a tool, base against head, on semantics: both
 * are walked together with every `$ref` followed, so moving an inline schema
 * into a named type (or back) is no change, and docs-only edits are ignored.
 * Each side keeps a cursor into the YAML it was written in, so a change is
 * located in the head file and a removal in the base file; a change found
 * inside a named type is located in the types file and tagged with the type.
 */
import { isDeepStrictEqual } from "node:util";
import type { DefOrigin, JsonObject, JsonSchema, SourceLocation } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { isObjectSchema, mapSchema } from "../normalize/schema-walk.js";
import { defsEntryName } from "../runtime/pointer.js";
import { allowedValues, ANNOTATIONS, compareBounds, compareDefault, compareType, compareValues, typeSet, UNDERSTOOD, type KeywordChange } from "./keywords.js";
import { NARROWS, UNDECIDED, WIDENS, type Level, type Levels, type SchemaRule } from "./rules.js";

/** One side of the comparison: the served root schema and where its parts were written. */
export interface SchemaSide {
  readonly root: JsonObject;
  readonly defs: Readonly<Record<string, DefOrigin>>;
  readonly toolFile: YamlSource;
  /** "input" or "output": the key the schema sits under in the tool file. */
  readonly key: string;
  /** The YAML file that declares each named type. */
  readonly typeFiles: ReadonlyMap<string, YamlSource>;
}

/** Where a node of one side was written; `type` is set inside a named type. */
interface Cursor {
  readonly file: YamlSource;
  readonly path: JsonPath;
  readonly type?: string;
  /** The field path, from the tool's root or from the named type's. */
  readonly field: string;
}

export interface SchemaFinding {
  readonly rule: SchemaRule;
  readonly levels: Levels;
  readonly message: string;
  readonly at: SourceLocation;
  /** The field, as a caller would name it: `orders[].status`. Inside a named type, relative to it. */
  readonly field: string;
  /** The named type the change is in, if any. */
  readonly type?: string;
}

interface Walk {
  readonly base: SchemaSide;
  readonly head: SchemaSide;
  readonly out: SchemaFinding[];
  /** Pairs of definitions being compared, so recursive types terminate. */
  readonly active: Set<string>;
}

/** Inside anyOf/oneOf or allOf, the client cannot tell which branch an unknown property belongs to. */
interface Scope {
  readonly composed: boolean;
}

const child = (c: Cursor, path: JsonPath, field: string): Cursor => ({ ...c, path: [...c.path, ...path], field: c.field + field });

function asObject(schema: JsonSchema | undefined): JsonObject | false {
  if (schema === undefined || schema === true) return {};
  return schema === false ? false : schema;
}

/** Follows `$ref`s to their definition, moving the cursor to where that definition was written. */
function resolve(schema: JsonSchema, cursor: Cursor, side: SchemaSide, seen: string[]): { node: JsonObject | false; cursor: Cursor } {
  let node = asObject(schema);
  let at = cursor;
  while (node !== false) {
    const name = defsEntryName(node.$ref);
    if (name === undefined) break;
    const { $ref: _ref, ...siblings } = node;
    const target = (side.root.$defs as JsonObject | undefined)?.[name];
    if (target === undefined || seen.includes(name)) break;
    seen.push(name);
    at = cursorForDef(name, side.defs[name], side, at);
    const resolved = asObject(target as JsonSchema);
    node = resolved === false ? false : { ...resolved, ...siblings };
  }
  return { node, cursor: at };
}

function cursorForDef(name: string, origin: DefOrigin | undefined, side: SchemaSide, from: Cursor): Cursor {
  const typeFile = side.typeFiles.get(name);
  if (origin?.kind === "named" && typeFile) return { file: typeFile, path: ["types", name], type: name, field: "" };
  return { file: side.toolFile, path: [side.key, "$defs", name], field: from.field, ...(from.type === undefined ? {} : { type: from.type }) };
}

function record(walk: Walk, cursor: Cursor, change: Omit<SchemaFinding, "at" | "field" | "type">, keyword: readonly (string | number)[], key = false): void {
  const at = cursor.file.locate([...cursor.path, ...keyword], key ? { key: true } : undefined);
  walk.out.push({ ...change, at, field: cursor.field, ...(cursor.type === undefined ? {} : { type: cursor.type }) });
}

function recordKeyword(walk: Walk, b: Cursor, h: Cursor, change: KeywordChange): void {
  record(walk, change.atBase ? b : h, { rule: change.rule, levels: change.levels, message: change.message }, change.keyword);
}

export function compareSchemas(base: SchemaSide, head: SchemaSide): SchemaFinding[] {
  const walk: Walk = { base, head, out: [], active: new Set() };
  const start = (side: SchemaSide): Cursor => ({ file: side.toolFile, path: [side.key], field: "" });
  compareNode(walk, base.root, head.root, start(base), start(head), { composed: false });
  return walk.out;
}

function compareNode(walk: Walk, baseSchema: JsonSchema, headSchema: JsonSchema, baseAt: Cursor, headAt: Cursor, scope: Scope): void {
  const baseRefs: string[] = [];
  const headRefs: string[] = [];
  const b = resolve(baseSchema, baseAt, walk.base, baseRefs);
  const h = resolve(headSchema, headAt, walk.head, headRefs);
  const pair = `${baseRefs.join(">")}|${headRefs.join(">")}`;
  if (baseRefs.length + headRefs.length > 0) {
    if (walk.active.has(pair)) return;
    walk.active.add(pair);
  }
  try {
    compareResolved(walk, b.node, h.node, b.cursor, h.cursor, scope);
  } finally {
    if (baseRefs.length + headRefs.length > 0) walk.active.delete(pair);
  }
}

function compareResolved(walk: Walk, b: JsonObject | false, h: JsonObject | false, bAt: Cursor, hAt: Cursor, scope: Scope): void {
  if (b === false || h === false) {
    if (b === false && h !== false) record(walk, hAt, { rule: "schema-accepted-nothing", levels: WIDENS, message: "accepted no value before; now accepts some" }, []);
    if (h === false && b !== false) record(walk, hAt, { rule: "schema-accepts-nothing", levels: NARROWS, message: "accepts no value any more" }, []);
    return;
  }
  // One side may write a nullable union as `anyOf`, the other as a type list: compare them as the same thing.
  const oneSidedUnion = Array.isArray(b.anyOf) !== Array.isArray(h.anyOf);
  compareKeywords(walk, oneSidedUnion ? nullableAsTypeList(b) : b, oneSidedUnion ? nullableAsTypeList(h) : h, bAt, hAt, scope);
}

/** A composition on one side only: what that side accepts is not in its own `type` or `enum`. */
function oneSidedComposition(b: JsonObject, h: JsonObject): boolean {
  return ["anyOf", "oneOf", "allOf"].some((key) => Array.isArray(b[key]) !== Array.isArray(h[key]));
}

function compareKeywords(walk: Walk, b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor, scope: Scope): void {
  const bothEnumerated = "enum" in b || "const" in b ? "enum" in h || "const" in h : false;
  // Against a composition, type and enum are decided by its branches; compareBranches reports it as undecided.
  const typed = oneSidedComposition(b, h) ? [] : [...(bothEnumerated ? [] : compareType(b, h)), ...compareValues(b, h)];
  const changes = [...typed, ...compareBounds(b, h), ...compareDefault(b, h)];
  for (const change of changes) recordKeyword(walk, bAt, hAt, change);
  compareObject(walk, b, h, bAt, hAt, scope);
  compareArray(walk, b, h, bAt, hAt, scope);
  compareBranches(walk, "anyOf", b, h, bAt, hAt);
  compareBranches(walk, "oneOf", b, h, bAt, hAt);
  compareAllOf(walk, b, h, bAt, hAt);
  compareOthers(walk, b, h, hAt);
}

/** Keywords that only constrain one JSON type, so they let `null` through. */
const TYPE_SPECIFIC = new Set(["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties", "propertyNames", "minProperties", "maxProperties"]);

/**
 * `anyOf: [{ type: T, …constraints of T }, { type: "null" }]` accepts exactly
 * what `{ type: [T, "null"], …constraints of T }` accepts, since those
 * constraints do not apply to null. Anything else is returned as it is.
 */
function nullableAsTypeList(node: JsonObject): JsonObject {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const nullAt = branches.findIndex((b) => isDeepStrictEqual(b, { type: "null" }));
  const other = branches[1 - nullAt];
  if (nullAt < 0 || other === null || typeof other !== "object" || Array.isArray(other) || typeof other.type !== "string" || other.type === "null") return node;
  const { anyOf: _anyOf, ...siblings } = node;
  const constraints = Object.keys(other).filter((k) => k !== "type" && !ANNOTATIONS.has(k));
  if (!constraints.every((k) => TYPE_SPECIFIC.has(k) && !(k in siblings))) return node;
  if (Object.keys(siblings).some((k) => !ANNOTATIONS.has(k) && k !== "default")) return node;
  return { ...siblings, ...other, type: [other.type, "null"] };
}

/** Any keyword this module does not model: a difference is reported as undecided, never passed. */
function compareOthers(walk: Walk, b: JsonObject, h: JsonObject, hAt: Cursor): void {
  const keys = new Set([...Object.keys(b), ...Object.keys(h)].filter((k) => !UNDERSTOOD.has(k) && !k.startsWith("x-")));
  for (const key of [...keys].sort()) {
    if (isDeepStrictEqual(b[key], h[key])) continue;
    record(walk, hAt, { rule: "schema-change-undecided", levels: UNDECIDED, message: `\`${key}\` changed; toolc cannot decide whether that is compatible` }, [key]);
  }
}

const propertiesOf = (node: JsonObject): JsonObject => (typeof node.properties === "object" && node.properties !== null && !Array.isArray(node.properties) ? (node.properties as JsonObject) : {});
const requiredOf = (node: JsonObject): Set<string> => new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === "string") : []);
const field = (name: string): string => `.${name}`;

function compareObject(walk: Walk, b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor, scope: Scope): void {
  const bProps = propertiesOf(b);
  const hProps = propertiesOf(h);
  const bReq = requiredOf(b);
  const hReq = requiredOf(h);
  // The client drops unknown output properties only where it can tell an object's own properties: not under unevaluatedProperties.
  const inner: Scope = { composed: scope.composed || "unevaluatedProperties" in h };
  for (const name of Object.keys(bProps)) {
    if (!Object.hasOwn(hProps, name)) propertyRemoved(walk, name, bReq.has(name), h, child(bAt, ["properties", name], field(name)));
  }
  for (const name of Object.keys(hProps)) {
    const hChild = child(hAt, ["properties", name], field(name));
    if (!Object.hasOwn(bProps, name)) {
      propertyAdded(walk, name, hReq.has(name), b, hChild, inner);
      continue;
    }
    requiredChange(walk, name, bReq.has(name), hReq.has(name), hChild);
    compareNode(walk, bProps[name] as JsonSchema, hProps[name] as JsonSchema, child(bAt, ["properties", name], field(name)), hChild, inner);
  }
  compareAdditional(walk, b, h, bAt, hAt, inner);
  if (b.propertyNames !== undefined || h.propertyNames !== undefined) {
    compareNode(walk, (b.propertyNames as JsonSchema | undefined) ?? true, (h.propertyNames as JsonSchema | undefined) ?? true, child(bAt, ["propertyNames"], "{key}"), child(hAt, ["propertyNames"], "{key}"), scope);
  }
}

function propertyRemoved(walk: Walk, name: string, wasRequired: boolean, head: JsonObject, at: Cursor): void {
  const closed = head.additionalProperties === false || head.unevaluatedProperties === false;
  const open = head.additionalProperties === undefined || head.additionalProperties === true;
  const input = closed ? "breaking" : open ? "info" : "warning";
  const output = wasRequired ? "breaking" : "warning";
  const why = closed ? "callers that send it are refused (objects are closed)" : "callers may rely on it";
  record(walk, at, { rule: "property-removed", levels: { input, output }, message: `property \`${name}\` removed; ${why}` }, [], true);
}

function propertyAdded(walk: Walk, name: string, required: boolean, base: JsonObject, at: Cursor, scope: Scope): void {
  const outputLevel = scope.composed ? "warning" : "info";
  const outputNote = scope.composed ? " (inside a composition, where clients cannot drop unknown properties)" : "";
  if (required) {
    record(walk, at, { rule: "property-added-required", levels: { input: "breaking", output: outputLevel }, message: `required property \`${name}\` added${outputNote}` }, [], true);
  } else if (base.additionalProperties === false || base.unevaluatedProperties === false) {
    record(walk, at, { rule: "property-added-optional", levels: { input: "info", output: outputLevel }, message: `optional property \`${name}\` added${outputNote}` }, [], true);
  } else {
    const message = `property \`${name}\` declared on an object that accepted any property; values callers sent for it may now be refused`;
    record(walk, at, { rule: "property-added-open-object", levels: { input: "warning", output: outputLevel }, message }, [], true);
  }
}

function requiredChange(walk: Walk, name: string, was: boolean, is: boolean, at: Cursor): void {
  if (was === is) return;
  if (is) record(walk, at, { rule: "property-became-required", levels: { input: "breaking", output: "info" }, message: `property \`${name}\` is now required` }, [], true);
  else record(walk, at, { rule: "property-became-optional", levels: { input: "info", output: "breaking" }, message: `property \`${name}\` is now optional` }, [], true);
}

/** additionalProperties: false → anything is opening; anything → false is closing; two schemas compare as a map's values. */
function compareAdditional(walk: Walk, b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor, scope: Scope): void {
  const bAp = b.additionalProperties as JsonSchema | undefined;
  const hAp = h.additionalProperties as JsonSchema | undefined;
  if (bAp === undefined && hAp === undefined) return;
  // Only objects are closed by default; a node that became (or stopped being) an object is already a type change.
  if ((bAp === undefined && !isObjectSchema(b)) || (hAp === undefined && !isObjectSchema(h))) return;
  const keyword = ["additionalProperties"];
  if (bAp === false && hAp !== false) {
    // An old client drops the properties it does not know, so output that gained some still validates.
    record(walk, hAt, { rule: "additional-properties-opened", levels: { input: "info", output: "warning" }, message: "object now accepts properties it does not declare" }, keyword);
  } else if (hAp === false && bAp !== false) {
    record(walk, hAt, { rule: "additional-properties-closed", levels: NARROWS, message: "object no longer accepts undeclared properties" }, keyword);
  } else if (bAp !== false && hAp !== false) {
    compareNode(walk, bAp ?? true, hAp ?? true, child(bAt, keyword, ".*"), child(hAt, keyword, ".*"), scope);
  }
}

function compareArray(walk: Walk, b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor, scope: Scope): void {
  if (b.items !== undefined || h.items !== undefined) {
    compareNode(walk, (b.items as JsonSchema | undefined) ?? true, (h.items as JsonSchema | undefined) ?? true, child(bAt, ["items"], "[]"), child(hAt, ["items"], "[]"), scope);
  }
  const bPrefix = Array.isArray(b.prefixItems) ? b.prefixItems : undefined;
  const hPrefix = Array.isArray(h.prefixItems) ? h.prefixItems : undefined;
  if (bPrefix === undefined && hPrefix === undefined) return;
  if (bPrefix === undefined || hPrefix === undefined || bPrefix.length !== hPrefix.length) {
    record(walk, hAt, { rule: "schema-change-undecided", levels: UNDECIDED, message: "`prefixItems` changed length; toolc cannot decide whether that is compatible" }, ["prefixItems"]);
    return;
  }
  bPrefix.forEach((item, i) => compareNode(walk, item as JsonSchema, hPrefix[i] as JsonSchema, child(bAt, ["prefixItems", i], `[${i}]`), child(hAt, ["prefixItems", i], `[${i}]`), scope));
}

/** JSON with object keys sorted, so key order in the YAML does not matter. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  const entries = Object.entries(value as JsonObject).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(",")}}`;
}

/**
 * A branch's meaning, for matching branches across sides: its schema with
 * annotations left out, keys sorted, and every `$ref` replaced by what it
 * refers to (a recursive one by its name), so a branch whose named type
 * changed does not match its old self.
 */
function canonical(schema: JsonSchema, side: SchemaSide, expanding: readonly string[] = []): string {
  const defs = (side.root.$defs ?? {}) as JsonObject;
  const meaning = mapSchema(schema, [], (node) => {
    const out: JsonObject = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)));
    const ref = out.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return out;
    const name = ref.slice("#/$defs/".length);
    if (expanding.includes(name) || defs[name] === undefined) return out;
    return { ...out, $ref: JSON.parse(canonical(defs[name] as JsonSchema, side, [...expanding, name])) as JsonObject };
  });
  return sortedJson(meaning);
}

/** The JSON types a resolved node admits; undefined when it does not say (any type). */
function typesAdmitted(node: JsonObject | false): string[] | undefined {
  if (node === false) return [];
  const values = allowedValues(node);
  if (values !== undefined) return [...new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v === "number" ? "number" : typeof v)))];
  const types = typeSet(node);
  if (types !== undefined) return types;
  if ("properties" in node || "required" in node || "additionalProperties" in node) return ["object"];
  return undefined;
}

const overlaps = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a === undefined || b === undefined || a.some((t) => b.includes(t) || (t === "integer" && b.includes("number")) || (t === "number" && b.includes("integer")));

/** A closed object requiring a property the other closed object does not declare: no value is both. */
function exclusiveRequired(a: JsonObject, b: JsonObject): boolean {
  if (a.additionalProperties !== false || b.additionalProperties !== false) return false;
  const declared = new Set(Object.keys(propertiesOf(b)));
  return [...requiredOf(a)].some((name) => !declared.has(name));
}

/** Both require a property whose allowed values (a discriminator) have nothing in common. */
function discriminated(a: JsonObject, b: JsonObject, side: SchemaSide): boolean {
  const valuesOf = (node: JsonObject, name: string) => {
    const { node: resolved } = resolve(propertiesOf(node)[name] as JsonSchema, { file: side.toolFile, path: [], field: "" }, side, []);
    return resolved === false ? [] : allowedValues(resolved);
  };
  return [...requiredOf(a)].some((name) => {
    if (!requiredOf(b).has(name)) return false;
    const x = valuesOf(a, name);
    const y = valuesOf(b, name);
    return x !== undefined && y !== undefined && !x.some((v) => y.some((w) => isDeepStrictEqual(v, w)));
  });
}

/**
 * Whether no value can match two of the branches: their JSON types differ,
 * or they are closed objects told apart by a required property or by a
 * discriminator's values. Then a change to one branch is a change to the
 * union, and oneOf behaves as anyOf. Otherwise another branch may cover what
 * one branch gained or lost, and the diff does not decide.
 */
function disjointBranches(list: readonly JsonSchema[], side: SchemaSide): boolean {
  const nodes = list.map((branch) => resolve(branch, { file: side.toolFile, path: [], field: "" }, side, []).node);
  return nodes.every((a, i) =>
    nodes.every((b, j) => {
      if (i === j || a === false || b === false) return true;
      return !overlaps(typesAdmitted(a), typesAdmitted(b)) || exclusiveRequired(a, b) || exclusiveRequired(b, a) || discriminated(a, b, side);
    }),
  );
}

/** Outside disjoint branches: nothing breaking is claimed, and in oneOf nothing compatible either. */
function undecidedInUnion(levels: Levels, key: "anyOf" | "oneOf"): Levels {
  const demote = (level: Level | null): Level | null => (level === "breaking" || (key === "oneOf" && level === "info") ? "warning" : level);
  return { input: demote(levels.input), output: demote(levels.output) };
}

/**
 * anyOf/oneOf: branches that are the same on both sides match; a base branch
 * left over was removed, a head branch left over was added, and as many
 * leftovers on each side are compared as edits of each other, in order.
 */
function compareBranches(walk: Walk, key: "anyOf" | "oneOf", b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor): void {
  const bList = Array.isArray(b[key]) ? (b[key] as JsonSchema[]) : [];
  const hList = Array.isArray(h[key]) ? (h[key] as JsonSchema[]) : [];
  if (bList.length === 0 && hList.length === 0) return;
  if (bList.length === 0 || hList.length === 0) {
    record(walk, hAt, { rule: "schema-change-undecided", levels: UNDECIDED, message: `\`${key}\` ${bList.length === 0 ? "added" : "removed"}; toolc cannot decide whether that is compatible` }, [key]);
    return;
  }
  const hLeft = hList.map((_, i) => i);
  const bLeft: number[] = [];
  bList.forEach((branch, i) => {
    const match = hLeft.findIndex((j) => canonical(hList[j] as JsonSchema, walk.head) === canonical(branch, walk.base));
    if (match >= 0) hLeft.splice(match, 1);
    else bLeft.push(i);
  });
  const first = walk.out.length;
  const paired = Math.min(bLeft.length, hLeft.length);
  for (let n = 0; n < paired; n++) {
    const i = bLeft[n] as number;
    const j = hLeft[n] as number;
    compareNode(walk, bList[i] as JsonSchema, hList[j] as JsonSchema, child(bAt, [key, i], ""), child(hAt, [key, j], ""), { composed: true });
  }
  for (const i of bLeft.slice(paired)) {
    record(walk, bAt, { rule: "branch-removed", levels: NARROWS, message: `\`${key}\` branch ${i + 1} of ${bList.length} removed` }, [key, i]);
  }
  for (const j of hLeft.slice(paired)) {
    record(walk, hAt, { rule: "branch-added", levels: WIDENS, message: `\`${key}\` branch ${j + 1} added` }, [key, j]);
  }
  if (disjointBranches(bList, walk.base) && disjointBranches(hList, walk.head)) return;
  for (let k = first; k < walk.out.length; k++) {
    const finding = walk.out[k] as SchemaFinding;
    const rule = finding.rule === "branch-added" && key === "oneOf" ? "branch-added-may-overlap" : finding.rule;
    walk.out[k] = { ...finding, rule, levels: undecidedInUnion(finding.levels, key), message: `${finding.message} (in \`${key}\` branches that may overlap, so not decided)` };
  }
}

/** allOf: compared branch by branch when both sides have as many; otherwise undecided. */
function compareAllOf(walk: Walk, b: JsonObject, h: JsonObject, bAt: Cursor, hAt: Cursor): void {
  const bList = Array.isArray(b.allOf) ? (b.allOf as JsonSchema[]) : [];
  const hList = Array.isArray(h.allOf) ? (h.allOf as JsonSchema[]) : [];
  if (bList.length === 0 && hList.length === 0) return;
  if (bList.length !== hList.length) {
    record(walk, hAt, { rule: "schema-change-undecided", levels: UNDECIDED, message: "`allOf` changed its branches; toolc cannot decide whether that is compatible" }, ["allOf"]);
    return;
  }
  bList.forEach((branch, i) => compareNode(walk, branch, hList[i] as JsonSchema, child(bAt, ["allOf", i], ""), child(hAt, ["allOf", i], ""), { composed: true }));
}
