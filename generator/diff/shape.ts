/**
 * A schema node in a normal form that makes equivalent spellings equal: what
 * it allows per JSON type (a "kind"), as one or more alternatives of
 * constraints, or the finite set of values it enumerates. `type: [X, null]`,
 * `anyOf: [X, null]` and `oneOf: [X, null]` all become the kinds of X plus
 * null; an `allOf` of object parts becomes one object; `integer` is a number
 * on the lattice of multiples of 1, so `multipleOf: 1` and `minimum: 1` vs
 * `exclusiveMinimum: 0` compare equal. Subschemas (properties, items) stay
 * pieces, shaped when the comparison reaches them.
 */
import type { JsonObject, JsonValue } from "../ir.js";
import { commonStep, snapToStep } from "../schema/decimal.js";
import { child, resolve, type Cursor, type Piece, type SchemaSide } from "./nodes.js";
import { isJsonObject } from "../schema/json.js";
import { UNION_KEYWORDS } from "../schema/walk.js";

export type Kind = "null" | "boolean" | "number" | "string" | "array" | "object";
export const KINDS: readonly Kind[] = ["null", "boolean", "number", "string", "array", "object"];

/** A keyword's value and where it is written. */
export interface At<T> {
  readonly value: T;
  readonly at: Cursor;
  readonly keyword: readonly (string | number)[];
}

export interface Bound extends At<number> {
  readonly exclusive: boolean;
}

export interface NullPart {
  readonly kind: "null" | "boolean";
  readonly at: Cursor;
}

export interface NumberPart {
  readonly kind: "number";
  readonly at: Cursor;
  /** The lattice: every allowed value is a multiple of it (1 for integers); undefined for all reals. */
  readonly step?: At<number>;
  /** Whether `type: integer` (or an integer step) says so. */
  readonly integer: boolean;
  readonly lower?: Bound;
  readonly upper?: Bound;
}

export interface StringPart {
  readonly kind: "string";
  readonly at: Cursor;
  readonly minLength?: At<number>;
  readonly maxLength?: At<number>;
  readonly patterns: readonly At<string>[];
  readonly formats: readonly At<string>[];
}

export interface ArrayPart {
  readonly kind: "array";
  readonly at: Cursor;
  /** Pieces per tuple position. */
  readonly prefix: readonly (readonly Piece[])[];
  /** The items after the tuple: pieces that must all hold, or false for none. */
  readonly items: readonly Piece[] | false;
  readonly itemsAt?: Cursor;
  readonly minItems?: At<number>;
  readonly maxItems?: At<number>;
  readonly unique?: At<boolean>;
}

export interface PropertyEntry {
  readonly pieces: readonly Piece[];
  /** Where the property is declared (its key), for locating. */
  readonly at: Cursor;
  /** A `default` written on the property, which the input validator applies when a caller leaves it out. */
  readonly defaulted: boolean;
  /** The HTTP header name the property is mirrored into (MCP 2026-07-28 `x-mcp-header`). */
  readonly header?: string;
}

export interface ObjectPart {
  readonly kind: "object";
  readonly at: Cursor;
  readonly properties: ReadonlyMap<string, PropertyEntry>;
  /** Required names, each with the cursor of the object that lists it. */
  readonly required: ReadonlyMap<string, Cursor>;
  /** Constraints on properties not declared: pieces that must all hold (none: any value, not evaluated), or false for none allowed. */
  readonly additional: readonly Piece[] | false;
  readonly additionalAt?: Cursor;
  readonly propertyNames: readonly Piece[];
  readonly minProperties?: At<number>;
  readonly maxProperties?: At<number>;
  /** Whether the old client drops undeclared properties of this object before validating (output). */
  readonly drop: boolean;
}

export type Part = NullPart | NumberPart | StringPart | ArrayPart | ObjectPart;

export interface ValueAt {
  readonly value: JsonValue;
  readonly at: Cursor;
  readonly keyword: readonly (string | number)[];
}

export interface Shape {
  readonly at: Cursor;
  /** Per kind, the alternatives a value of that kind may match (any one of them); a kind not here is not allowed. */
  readonly kinds: ReadonlyMap<Kind, readonly Part[]>;
  /** Kinds whose alternatives come from more than one `oneOf` branch: a value matching two of them is refused. */
  readonly exclusive: ReadonlySet<Kind>;
  /** The values the node enumerates (`enum`, `const`, or a union of them), before its other constraints filter them. */
  readonly values?: readonly ValueAt[];
  /** Why the node could not be put in this form; it is then compared as written. */
  readonly opaque?: string;
}

const MAX_ALTERNATIVES = 16;

const num = (node: JsonObject, key: string): number | undefined => (typeof node[key] === "number" ? (node[key] as number) : undefined);

function at<T>(node: JsonObject, key: string, cursor: Cursor, value: T | undefined): At<T> | undefined {
  return value === undefined || !(key in node) ? undefined : { value, at: cursor, keyword: [key] };
}

function kindsOf(node: JsonObject): { kinds: Kind[]; integer: boolean } {
  const t = node.type;
  const list = typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : undefined;
  if (list === undefined) return { kinds: [...KINDS], integer: false };
  const kinds = KINDS.filter((k) => list.includes(k) || (k === "number" && list.includes("integer")));
  return { kinds, integer: list.includes("integer") && !list.includes("number") };
}

function numberPart(node: JsonObject, cursor: Cursor, integer: boolean): NumberPart | undefined {
  const typeAt: At<number> | undefined = integer ? { value: 1, at: cursor, keyword: ["type"] } : undefined;
  const multiple = at(node, "multipleOf", cursor, num(node, "multipleOf"));
  const stepValue = commonStep([...(typeAt ? [1] : []), ...(multiple ? [multiple.value] : [])]);
  const step = stepValue === undefined ? undefined : { value: stepValue, at: cursor, keyword: multiple ? ["multipleOf"] : ["type"] };
  const lower = tighterBound(bound(node, "minimum", false, cursor), bound(node, "exclusiveMinimum", true, cursor), true);
  const upper = tighterBound(bound(node, "maximum", false, cursor), bound(node, "exclusiveMaximum", true, cursor), false);
  return snapped({
    kind: "number",
    at: cursor,
    integer: integer || (stepValue !== undefined && Number.isInteger(stepValue)),
    ...(step ? { step } : {}),
    ...(lower ? { lower } : {}),
    ...(upper ? { upper } : {}),
  });
}

function bound(node: JsonObject, key: string, exclusive: boolean, cursor: Cursor): Bound | undefined {
  const value = num(node, key);
  return value === undefined ? undefined : { value, exclusive, at: cursor, keyword: [key] };
}

/** Of two bounds on the same side, the one that allows less. */
export function tighterBound(a: Bound | undefined, b: Bound | undefined, lower: boolean): Bound | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.value !== b.value) return (lower ? a.value > b.value : a.value < b.value) ? a : b;
  return a.exclusive ? a : b;
}

/** Bounds moved onto the lattice (so `exclusiveMinimum: 0` on integers is `minimum: 1`); undefined when nothing is left. */
export function snapped(part: NumberPart): NumberPart | undefined {
  const step = part.step?.value;
  const snap = (b: Bound | undefined, lower: boolean): Bound | undefined => {
    if (b === undefined || step === undefined) return b;
    const value = snapToStep(b.value, step, lower, b.exclusive);
    return value === undefined ? b : { ...b, value, exclusive: false };
  };
  const lower = snap(part.lower, true);
  const upper = snap(part.upper, false);
  if (lower && upper && (lower.value > upper.value || (lower.value === upper.value && (lower.exclusive || upper.exclusive)))) return undefined;
  return { ...part, ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
}

function stringPart(node: JsonObject, cursor: Cursor): StringPart | undefined {
  const minLength = num(node, "minLength") === 0 ? undefined : at(node, "minLength", cursor, num(node, "minLength"));
  const maxLength = at(node, "maxLength", cursor, num(node, "maxLength"));
  if (minLength && maxLength && minLength.value > maxLength.value) return undefined;
  const pattern = typeof node.pattern === "string" ? [{ value: node.pattern, at: cursor, keyword: ["pattern"] }] : [];
  const format = typeof node.format === "string" ? [{ value: node.format, at: cursor, keyword: ["format"] }] : [];
  return { kind: "string", at: cursor, ...(minLength ? { minLength } : {}), ...(maxLength ? { maxLength } : {}), patterns: pattern, formats: format };
}

const subPiece = (schema: unknown, cursor: Cursor, path: (string | number)[], field: string, drop: boolean): Piece => ({
  schema: schema as Piece["schema"],
  at: child(cursor, path, field),
  drop,
});

function arrayPart(node: JsonObject, cursor: Cursor, drop: boolean): ArrayPart | undefined {
  const prefixList = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  const prefix = prefixList.map((s, i) => [subPiece(s, cursor, ["prefixItems", i], `[${i}]`, drop)]);
  const items = node.items === false ? false : node.items === undefined || node.items === true ? [] : [subPiece(node.items, cursor, ["items"], "[]", drop)];
  const minItems = num(node, "minItems") === 0 ? undefined : at(node, "minItems", cursor, num(node, "minItems"));
  const maxItems = at(node, "maxItems", cursor, num(node, "maxItems"));
  const unique = node.uniqueItems === true ? { value: true, at: cursor, keyword: ["uniqueItems"] } : undefined;
  return validArray({
    kind: "array",
    at: cursor,
    prefix,
    items,
    ...("items" in node ? { itemsAt: cursor } : {}),
    ...(minItems ? { minItems } : {}),
    ...(maxItems ? { maxItems } : {}),
    ...(unique ? { unique } : {}),
  });
}

/** The longest array a part allows: its maxItems, or its tuple's length when nothing may follow. */
export function longest(part: ArrayPart): number {
  const max = part.maxItems?.value ?? Infinity;
  return part.items === false ? Math.min(max, part.prefix.length) : max;
}

function validArray(part: ArrayPart): ArrayPart | undefined {
  return (part.minItems?.value ?? 0) > longest(part) ? undefined : part;
}

/**
 * An object whose required properties already fill every place maxProperties
 * allows has room for nothing else: its optional and undeclared properties
 * can never be present, and say so.
 */
function withoutRoom(part: ObjectPart): ObjectPart {
  const max = part.maxProperties?.value;
  if (max === undefined || max > part.required.size) return part;
  const properties = new Map(
    [...part.properties].map(([name, e]) => [
      name,
      part.required.has(name) ? e : { ...e, pieces: [...e.pieces, { schema: false, at: part.maxProperties?.at ?? part.at, drop: part.drop }] },
    ]),
  );
  return { ...part, properties, additional: false, additionalAt: part.maxProperties?.at ?? part.at };
}

function objectPart(node: JsonObject, cursor: Cursor, drop: boolean): ObjectPart {
  const properties = new Map<string, PropertyEntry>();
  const declared = isJsonObject(node.properties) ? node.properties : {};
  for (const [name, schema] of Object.entries(declared)) {
    const pieceAt = child(cursor, ["properties", name], `.${name}`);
    const header = isJsonObject(schema) && typeof schema["x-mcp-header"] === "string" ? schema["x-mcp-header"] : undefined;
    properties.set(name, {
      pieces: [{ schema: schema as Piece["schema"], at: pieceAt, drop }],
      at: pieceAt,
      defaulted: isJsonObject(schema) && "default" in schema,
      ...(header === undefined ? {} : { header }),
    });
  }
  const required = new Map<string, Cursor>();
  if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === "string") required.set(name, cursor);
  const ap = node.additionalProperties;
  // `true` and no keyword allow the same, but only `true` evaluates the properties, for an `unevaluatedProperties` around it.
  const additional = ap === false ? false : ap === undefined ? [] : [subPiece(ap, cursor, ["additionalProperties"], ".*", drop)];
  const propertyNames = node.propertyNames === undefined ? [] : [subPiece(node.propertyNames, cursor, ["propertyNames"], "{key}", drop)];
  const minProperties = num(node, "minProperties") === 0 ? undefined : at(node, "minProperties", cursor, num(node, "minProperties"));
  const maxProperties = at(node, "maxProperties", cursor, num(node, "maxProperties"));
  return withoutRoom({
    kind: "object",
    at: cursor,
    properties,
    required,
    additional,
    ...("additionalProperties" in node ? { additionalAt: cursor } : {}),
    propertyNames,
    ...(minProperties ? { minProperties } : {}),
    ...(maxProperties ? { maxProperties } : {}),
    drop: drop && ap === false,
  });
}

function localShape(node: JsonObject, cursor: Cursor, drop: boolean): Shape {
  const { kinds, integer } = kindsOf(node);
  const map = new Map<Kind, Part[]>();
  for (const kind of kinds) {
    const part: Part | undefined =
      kind === "number"
        ? numberPart(node, cursor, integer)
        : kind === "string"
          ? stringPart(node, cursor)
          : kind === "array"
            ? arrayPart(node, cursor, drop)
            : kind === "object"
              ? objectPart(node, cursor, drop)
              : { kind, at: cursor };
    if (part) map.set(kind, [part]);
  }
  const values =
    "const" in node
      ? [{ value: node.const as JsonValue, at: cursor, keyword: ["const"] }]
      : Array.isArray(node.enum)
        ? node.enum.map((value, i) => ({ value, at: cursor, keyword: ["enum", i] }))
        : undefined;
  return { at: cursor, kinds: map, exclusive: new Set(), ...(values ? { values } : {}) };
}

const ANY_PARTS = (cursor: Cursor): Shape => localShape({}, cursor, false);
const NOTHING = (cursor: Cursor): Shape => ({ at: cursor, kinds: new Map(), exclusive: new Set() });
const opaque = (cursor: Cursor, reason: string): Shape => ({ at: cursor, kinds: new Map(), exclusive: new Set(), opaque: reason });

/** The shape of one piece: `$ref`s followed, then its own keywords, its unions and its `allOf` intersected. */
function shapeOfPiece(piece: Piece, side: SchemaSide, depth: number): Shape {
  if (depth > 8) return opaque(piece.at, "compositions nested too deeply");
  const { node, at: cursor } = resolve(piece, side);
  if (node === false) return NOTHING(cursor);
  if (node === true) return ANY_PARTS(cursor);
  if (typeof node.$ref === "string") return opaque(cursor, "a recursive reference that refers to itself");
  let shape = localShape(node, cursor, piece.drop);
  for (const key of UNION_KEYWORDS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const branches = list.map((b, i) => shapeOfPiece({ schema: b as Piece["schema"], at: child(cursor, [key, i], ""), drop: false }, side, depth + 1));
    shape = intersect(shape, union(branches, key === "oneOf", cursor), cursor);
  }
  if (Array.isArray(node.allOf)) {
    for (const [i, b] of node.allOf.entries())
      shape = intersect(shape, shapeOfPiece({ schema: b as Piece["schema"], at: child(cursor, ["allOf", i], ""), drop: false }, side, depth + 1), cursor);
  }
  if (node.unevaluatedProperties === false) shape = closeUnevaluated(shape, node, cursor);
  if (node.allOf !== undefined || node.anyOf !== undefined || node.oneOf !== undefined) shape = undroppable(shape);
  return shape;
}

/** Objects inside a composition: the client cannot tell whose property an unknown one is, so it drops none. */
function undroppable(shape: Shape): Shape {
  const kinds = new Map([...shape.kinds].map(([k, parts]) => [k, parts.map((p) => (p.kind === "object" ? { ...p, drop: false } : p))]));
  return { ...shape, kinds };
}

/** `unevaluatedProperties: false`: a property no part declares, and no part's `additionalProperties` covers, is refused. */
function closeUnevaluated(shape: Shape, node: JsonObject, cursor: Cursor): Shape {
  if (node.anyOf !== undefined || node.oneOf !== undefined) return opaque(cursor, "`unevaluatedProperties` over `anyOf`/`oneOf` branches");
  const objects = shape.kinds.get("object");
  if (!objects) return shape;
  const closed = objects.map((p): Part =>
    p.kind === "object" && Array.isArray(p.additional) && p.additional.length === 0 ? { ...p, additional: false, additionalAt: cursor } : p,
  );
  return { ...shape, kinds: new Map([...shape.kinds, ["object", closed]]) };
}

export function union(branches: readonly Shape[], exclusive: boolean, cursor: Cursor): Shape {
  const reason = branches.find((b) => b.opaque !== undefined)?.opaque;
  if (reason !== undefined) return opaque(cursor, reason);
  const kinds = new Map<Kind, Part[]>();
  const owners = new Map<Kind, Set<number>>();
  branches.forEach((branch, i) => {
    for (const [kind, parts] of branch.kinds) {
      kinds.set(kind, [...(kinds.get(kind) ?? []), ...parts]);
      owners.set(kind, (owners.get(kind) ?? new Set()).add(i));
    }
  });
  if ([...kinds.values()].some((parts) => parts.length > MAX_ALTERNATIVES)) return opaque(cursor, "more union branches than toolc compares");
  // A branch that is itself a `oneOf` refusing values that match two of its alternatives is one alternative to this union, not several: flattened beside another branch of the same kind, it would be misread.
  const nestedExclusive = branches.some((b, i) => [...b.exclusive].some((k) => [...(owners.get(k) ?? [])].some((o) => o !== i)));
  if (nestedExclusive) return opaque(cursor, "a union beside a branch that is a `oneOf` over overlapping alternatives");
  const overlapping = new Set([...owners].filter(([, o]) => o.size > 1).map(([k]) => k));
  for (const b of branches) for (const k of b.exclusive) overlapping.add(k);
  const enumerated = branches.every((b) => finiteValues(b) !== undefined);
  const values = enumerated ? branches.flatMap((b) => finiteValues(b) ?? []) : undefined;
  const droppedValues = !enumerated && branches.some((b) => b.values !== undefined);
  // A branch that enumerates next to one that does not: its values are already in its parts' kinds, which over-approximate it.
  if (droppedValues) return opaque(cursor, "a union of enumerated and open branches");
  return { at: cursor, kinds, exclusive: exclusive ? overlapping : new Set([...branches.flatMap((b) => [...b.exclusive])]), ...(values ? { values } : {}) };
}

/**
 * The values of a shape that enumerates, or that allows only null and
 * booleans (finitely many values, whatever it is written as); undefined
 * otherwise.
 */
export function finiteValues(shape: Shape): readonly ValueAt[] | undefined {
  if (shape.values !== undefined) return shape.values;
  if (shape.opaque !== undefined || [...shape.kinds.keys()].some((k) => k !== "null" && k !== "boolean")) return undefined;
  const out: ValueAt[] = [];
  for (const [kind, parts] of shape.kinds) {
    const at = (parts[0] as Part).at;
    if (kind === "null") out.push({ value: null, at, keyword: ["type"] });
    else out.push({ value: false, at, keyword: ["type"] }, { value: true, at, keyword: ["type"] });
  }
  return out;
}

export function intersect(a: Shape, b: Shape, cursor: Cursor): Shape {
  const reason = a.opaque ?? b.opaque;
  if (reason !== undefined) return opaque(cursor, reason);
  const kinds = new Map<Kind, Part[]>();
  for (const [kind, aParts] of a.kinds) {
    const bParts = b.kinds.get(kind);
    if (!bParts) continue;
    if (aParts.length * bParts.length > MAX_ALTERNATIVES) return opaque(cursor, "an `allOf` of unions with more combinations than toolc compares");
    const parts = aParts.flatMap((x) => bParts.map((y) => intersectParts(x, y))).filter((p): p is Part => p !== undefined);
    if (parts.length > 0) kinds.set(kind, parts);
  }
  const values = a.values ?? b.values;
  return { at: a.at, kinds, exclusive: new Set([...a.exclusive, ...b.exclusive].filter((k) => kinds.has(k))), ...(values ? { values } : {}) };
}

function intersectParts(a: Part, b: Part): Part | undefined {
  if (a.kind === "number" && b.kind === "number") {
    const stepValue = commonStep([a.step?.value, b.step?.value].filter((s): s is number => s !== undefined));
    const stepFrom = b.step && (!a.step || b.step.value > a.step.value) ? b.step : a.step;
    const step = stepValue === undefined || !stepFrom ? undefined : { ...stepFrom, value: stepValue };
    const lower = tighterBound(a.lower, b.lower, true);
    const upper = tighterBound(a.upper, b.upper, false);
    return snapped({
      kind: "number",
      at: a.at,
      integer: a.integer || b.integer,
      ...(step ? { step } : {}),
      ...(lower ? { lower } : {}),
      ...(upper ? { upper } : {}),
    });
  }
  if (a.kind === "string" && b.kind === "string") {
    const minLength = larger(a.minLength, b.minLength);
    const maxLength = smaller(a.maxLength, b.maxLength);
    if (minLength && maxLength && minLength.value > maxLength.value) return undefined;
    return {
      kind: "string",
      at: a.at,
      ...(minLength ? { minLength } : {}),
      ...(maxLength ? { maxLength } : {}),
      patterns: [...a.patterns, ...b.patterns],
      formats: [...a.formats, ...b.formats],
    };
  }
  if (a.kind === "array" && b.kind === "array") return intersectArrays(a, b);
  if (a.kind === "object" && b.kind === "object") return intersectObjects(a, b);
  return a;
}

const larger = (a: At<number> | undefined, b: At<number> | undefined): At<number> | undefined =>
  a === undefined ? b : b === undefined || a.value >= b.value ? a : b;
const smaller = (a: At<number> | undefined, b: At<number> | undefined): At<number> | undefined =>
  a === undefined ? b : b === undefined || a.value <= b.value ? a : b;

function positionPieces(part: ArrayPart, i: number): readonly Piece[] | false {
  return i < part.prefix.length ? (part.prefix[i] as readonly Piece[]) : part.items;
}

function intersectArrays(a: ArrayPart, b: ArrayPart): ArrayPart | undefined {
  const length = Math.max(a.prefix.length, b.prefix.length);
  const prefix: (readonly Piece[])[] = [];
  for (let i = 0; i < length; i++) {
    const x = positionPieces(a, i);
    const y = positionPieces(b, i);
    if (x === false || y === false) return validArray({ ...merged(a, b), prefix, items: false });
    prefix.push([...x, ...y]);
  }
  return validArray({ ...merged(a, b), prefix, items: a.items === false || b.items === false ? false : [...a.items, ...b.items] });
}

function merged(a: ArrayPart, b: ArrayPart): ArrayPart {
  const minItems = larger(a.minItems, b.minItems);
  const maxItems = smaller(a.maxItems, b.maxItems);
  const unique = a.unique ?? b.unique;
  return {
    kind: "array",
    at: a.at,
    prefix: [],
    items: [],
    ...((a.itemsAt ?? b.itemsAt) ? { itemsAt: (a.itemsAt ?? b.itemsAt) as Cursor } : {}),
    ...(minItems ? { minItems } : {}),
    ...(maxItems ? { maxItems } : {}),
    ...(unique ? { unique } : {}),
  };
}

/** The pieces that constrain `name` in an object part: its declaration, or the part's rule for undeclared properties. */
export function propertyPieces(part: ObjectPart, name: string): readonly Piece[] {
  const declared = part.properties.get(name);
  if (declared) return declared.pieces;
  if (part.additional === false) return [{ schema: false, at: part.additionalAt ?? part.at, drop: part.drop }];
  return part.additional;
}

function intersectObjects(a: ObjectPart, b: ObjectPart): ObjectPart {
  const properties = new Map<string, PropertyEntry>();
  for (const name of new Set([...a.properties.keys(), ...b.properties.keys()])) {
    const first = a.properties.get(name) ?? (b.properties.get(name) as PropertyEntry);
    const header = a.properties.get(name)?.header ?? b.properties.get(name)?.header;
    const pieces = [
      ...(a.properties.has(name) ? propertyPieces(a, name) : []),
      ...propertyPieces(b, name),
      ...(a.properties.has(name) ? [] : propertyPieces(a, name)),
    ];
    properties.set(name, {
      pieces,
      at: first.at,
      defaulted: (a.properties.get(name)?.defaulted ?? false) || (b.properties.get(name)?.defaulted ?? false),
      ...(header === undefined ? {} : { header }),
    });
  }
  const additional = a.additional === false || b.additional === false ? false : [...a.additional, ...b.additional];
  const additionalAt = a.additional === false ? a.additionalAt : b.additional === false ? b.additionalAt : (a.additionalAt ?? b.additionalAt);
  const minProperties = larger(a.minProperties, b.minProperties);
  const maxProperties = smaller(a.maxProperties, b.maxProperties);
  return withoutRoom({
    kind: "object",
    at: a.at,
    properties,
    required: new Map([...b.required, ...a.required]),
    additional,
    ...(additionalAt ? { additionalAt } : {}),
    propertyNames: [...a.propertyNames, ...b.propertyNames],
    ...(minProperties ? { minProperties } : {}),
    ...(maxProperties ? { maxProperties } : {}),
    drop: false,
  });
}

/** The shape of a node: every piece's shape, intersected. */
export function shapeOf(pieces: readonly Piece[], side: SchemaSide): Shape {
  const shapes = pieces.map((p) => shapeOfPiece(p, side, 0));
  const [first, ...rest] = shapes;
  if (first === undefined) throw new Error("a node without pieces");
  return rest.reduce((acc, s) => intersect(acc, s, first.at), first);
}
