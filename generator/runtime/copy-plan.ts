// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Schema-aware copies, built at run time from the schema a contract serves
 * (its `inputSchema` or `outputSchema`, self-contained with its `$defs`): a
 * copy plan, compiled once per schema into closures, one per object or array
 * shape. A plan only makes the common case fast; it never decides the
 * result. A plain object's keys are read in their own order, each value
 * once, as the generic walk of json.ts reads them; while they are the
 * shape's properties in the shape's order (any may be missing), a leaf of
 * the expected `typeof` is kept as it is, a container of the expected kind
 * goes to its shape's copy, and anything else to the generic walk, whose
 * result, errors and error locations a plan's copy therefore shares bit for
 * bit. Anything else (keys out of the shape's order, from there on; a class
 * instance; the depth limit; a union; a shape the plan does not know) goes
 * to the generic walk from that value down. See json.ts for what a copy
 * guarantees.
 *
 * What a schema says of a value's shape, as a plan reads it: a `$ref` to a
 * root `$defs` entry is that entry (its sibling keywords are not looked at);
 * `properties` (with no `type`, or one that allows an object) make an object
 * shape, else `items` an array shape; `type`, `enum` or `const` made only of
 * strings, numbers, booleans and null a leaf; anything else (`anyOf`,
 * `oneOf`, a bare `{}`) nothing, so the generic walk copies it. A recursive
 * type's shape calls itself; a chain of references that goes round without a
 * shape says nothing.
 *
 * Plans replace per-tool copy functions printed into the project: the same
 * decisions, made from data, so a tool's first calls (which use the generic
 * copy, validators.ts) and a server that never calls a tool pay nothing for
 * them, and the output folder holds no copy code.
 */
import type { CopyJson, JsonSchemaObject } from "./contract.js";
import {
  copyJson,
  copyJsonArrayWith,
  copyJsonWith,
  copyObject,
  copyValue,
  emptyRecord,
  jsonItem,
  jsonValue,
  located,
  MAX_DEPTH,
  plainKeys,
} from "./json.js";
import { pointerTokens } from "./pointer.js";

/** A copy of a value known not to be undefined (a property's) or of an array item, at depth `e`. */
type ValueCopy = (x: unknown, e: number) => unknown;
/** A shape's copy: an object's (given an object) or an array's (given an array), at depth `d`. */
type ObjectCopy = (v: object, d: number) => unknown;
type ArrayCopy = (v: readonly unknown[], d: number) => unknown;

/** What a plan knows of a value: a shape's copy, a leaf's `typeof`, or nothing. */
type Hint =
  | { readonly kind: "object"; readonly copy: ObjectCopy }
  | { readonly kind: "array"; readonly copy: ArrayCopy }
  | { readonly kind: "leaf"; readonly type: LeafType | undefined }
  | { readonly kind: "any" };

/**
 * The `typeof` a leaf value is kept for without a call; undefined for a leaf
 * of several types (`["string", "null"]`), which the generic walk copies as
 * fast (a leaf is JSON as it is there too).
 */
type LeafType = "string" | "number" | "boolean";

const ANY: Hint = { kind: "any" };
const isArray = Array.isArray;

type Schema = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !isArray(value);
}

/** The root `$defs` entry a reference names (`#/$defs/<name>`, percent- and `~`-decoded), or undefined for any other reference. */
function defsEntryName(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let tokens: string[];
  try {
    tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  return tokens.length === 2 && tokens[0] === "$defs" ? tokens[1] : undefined;
}

function typesOf(schema: Schema): readonly string[] | undefined {
  const type = schema["type"];
  if (typeof type === "string") return [type];
  return isArray(type)
    ? type.filter((t): t is string => typeof t === "string")
    : undefined;
}

const LEAF_TYPES: ReadonlyMap<string, LeafType> = new Map([
  ["string", "string"],
  ["boolean", "boolean"],
  ["number", "number"],
  ["integer", "number"],
]);

/** The JSON types of an `enum` or `const`'s values, when all are strings, numbers, booleans or null; else undefined. */
function enumTypes(schema: Schema): readonly string[] | undefined {
  const values = Object.hasOwn(schema, "const")
    ? [schema["const"]]
    : schema["enum"];
  if (!isArray(values) || values.length === 0) return undefined;
  const types = new Set(values.map((v) => (v === null ? "null" : typeof v)));
  return [...types].every((t) => t === "null" || LEAF_TYPES.has(t))
    ? [...types]
    : undefined;
}

/** The hint of a schema that is neither a reference nor a container: a leaf of these types, or nothing. */
function leafHint(schema: Schema): Hint {
  const types = typesOf(schema) ?? enumTypes(schema);
  if (types === undefined || types.length === 0) return ANY;
  const kept = new Set<LeafType | "null">();
  for (const type of types) {
    const leaf = type === "null" ? "null" : LEAF_TYPES.get(type);
    if (leaf === undefined) return ANY;
    kept.add(leaf);
  }
  const [only] = kept;
  return {
    kind: "leaf",
    type: kept.size === 1 && only !== "null" ? only : undefined,
  };
}

type Container = { readonly properties: Schema } | { readonly items: Schema };

/** What a schema's own keywords say of a container: the properties of an object, or the items of an array. */
function containerOf(schema: Schema): Container | undefined {
  const types = typesOf(schema);
  const properties = schema["properties"];
  if (isObject(properties) && (types === undefined || types.includes("object")))
    return { properties };
  const items = schema["items"];
  if (isObject(items) && (types === undefined || types.includes("array")))
    return { items };
  return undefined;
}

/**
 * How a read value is copied, as a small integer so that one `switch`, with
 * each `typeof` test a constant, does it in the loop that reads it: a leaf
 * of the expected type is kept as it is, a container of the expected kind
 * goes to its shape's copy (closures of one function, so the call stays
 * monomorphic), anything else to the generic walk.
 */
type As = 0 | 1 | 2 | 3 | 4 | 5;
const ANY_VALUE: As = 0;
const STRING: As = 1;
const BOOLEAN: As = 2;
const NUMBER: As = 3;
const OBJECT: As = 4;
const ARRAY: As = 5;

function asOf(hint: Hint): As {
  switch (hint.kind) {
    case "object":
      return OBJECT;
    case "array":
      return ARRAY;
    case "leaf":
      return hint.type === "string"
        ? STRING
        : hint.type === "boolean"
          ? BOOLEAN
          : hint.type === "number"
            ? NUMBER
            : ANY_VALUE;
    default:
      return ANY_VALUE;
  }
}

/** A shape's copy, for a hint that has one. */
function shapeOf(hint: Hint): ObjectCopy | ArrayCopy | undefined {
  return hint.kind === "object" || hint.kind === "array"
    ? hint.copy
    : undefined;
}

/** `x` (at depth `e`) copied as `as` says; `other` is the generic walk for a property (jsonValue) or an item (jsonItem). */
function copyAs(
  as: As,
  shape: ObjectCopy | ArrayCopy | undefined,
  x: unknown,
  e: number,
  other: ValueCopy,
): unknown {
  switch (as) {
    case STRING:
      return typeof x === "string" ? x : other(x, e);
    case BOOLEAN:
      return typeof x === "boolean" ? x : other(x, e);
    case NUMBER:
      return typeof x === "number" && x - x === 0 ? x : other(x, e);
    case OBJECT:
      return typeof x === "object" && x !== null && !isArray(x)
        ? (shape as ObjectCopy)(x, e)
        : other(x, e);
    case ARRAY:
      return isArray(x) ? (shape as ArrayCopy)(x, e) : other(x, e);
    default:
      return other(x, e);
  }
}

/**
 * An object shape's copy. The object's keys are read in their own order,
 * each value once, as the generic walk reads them: while they are the
 * shape's `names` in order (any may be missing) each is copied as `as[j]`
 * and `shapes[j]` say, and from the first key that is not, the rest as the
 * generic walk copies them, which is the same copy. `as` and `shapes` are
 * filled after the function is made, so a recursive shape's copy calls
 * itself.
 */
function objectCopy(
  names: readonly string[],
  as: As[],
  shapes: (ObjectCopy | ArrayCopy | undefined)[],
): ObjectCopy {
  const m = names.length;
  return (v, d) => {
    const k = plainKeys(v, d);
    if (k === undefined) return copyValue(v, d);
    const n = k.length;
    if (m === 0) return n === 0 ? emptyRecord() : copyObject(v, d + 1);
    const r = v as Readonly<Record<string, unknown>>;
    const o = emptyRecord();
    const e = d + 1;
    let p = 0;
    try {
      // The keys in the shape's order (some missing) are copied as the shape says; from the first that is not, the rest as the generic walk copies them (the same copy: json.ts).
      for (let j = 0; p < n; p++, j++) {
        const key = k[p] as string;
        while (j < m && names[j] !== key) j++;
        if (j === m) break;
        const x = r[key];
        if (x !== undefined)
          o[key] = copyAs(as[j] as As, shapes[j], x, e, jsonValue);
      }
      for (; p < n; p++) {
        const key = k[p] as string;
        const x = r[key];
        if (x !== undefined) o[key] = jsonValue(x, e);
      }
    } catch (error) {
      throw located(error, k[p], v);
    }
    return o;
  };
}

/** An array shape's copy, sized up front (a huge length is not trusted with an allocation); `item` is filled after it is made. */
function arrayCopy(item: {
  as: As;
  shape: ObjectCopy | ArrayCopy | undefined;
}): ArrayCopy {
  return (v, d) => {
    if (d >= MAX_DEPTH) return copyValue(v, d);
    const e = d + 1;
    const n = v.length;
    const o: unknown[] = n <= 4096 ? new Array<unknown>(n) : [];
    const as = item.as;
    const shape = item.shape;
    let i = 0;
    try {
      for (; i < n; i++) o[i] = copyAs(as, shape, v[i], e, jsonItem);
    } catch (error) {
      throw located(error, i, v);
    }
    return o;
  };
}

/** One schema's plan: the hints of its shapes, each `$defs` entry's made once. */
class Planner {
  readonly #defs: Schema;
  readonly #byDef = new Map<string, Hint>();
  readonly #resolving = new Set<string>();

  constructor(defs: Schema) {
    this.#defs = defs;
  }

  hintOf(schema: unknown): Hint {
    if (!isObject(schema)) return ANY;
    const def = defsEntryName(schema["$ref"]);
    if (def !== undefined) return this.#defHint(def);
    const container = containerOf(schema);
    return container === undefined
      ? leafHint(schema)
      : this.#container(container, undefined);
  }

  #defHint(name: string): Hint {
    const known = this.#byDef.get(name);
    if (known !== undefined) return known;
    // A reference that goes round without passing through a container says nothing about the shape.
    if (!Object.hasOwn(this.#defs, name) || this.#resolving.has(name))
      return ANY;
    const schema = this.#defs[name];
    this.#resolving.add(name);
    const container =
      isObject(schema) && defsEntryName(schema["$ref"]) === undefined
        ? containerOf(schema)
        : undefined;
    const hint =
      container === undefined
        ? this.hintOf(schema)
        : this.#container(container, name);
    this.#resolving.delete(name);
    this.#byDef.set(name, hint);
    return hint;
  }

  /** A container's copy, registered for its `$defs` entry before what it holds is planned, so a recursive type's copy calls itself. */
  #container(container: Container, def: string | undefined): Hint {
    if ("items" in container) {
      const item = {
        as: ANY_VALUE,
        shape: undefined as ObjectCopy | ArrayCopy | undefined,
      };
      const hint: Hint = { kind: "array", copy: arrayCopy(item) };
      if (def !== undefined) this.#byDef.set(def, hint);
      const itemHint = this.hintOf(container.items);
      item.as = asOf(itemHint);
      item.shape = shapeOf(itemHint);
      return hint;
    }
    const names = Object.keys(container.properties);
    const as: As[] = [];
    const shapes: (ObjectCopy | ArrayCopy | undefined)[] = [];
    const hint: Hint = { kind: "object", copy: objectCopy(names, as, shapes) };
    if (def !== undefined) this.#byDef.set(def, hint);
    for (const name of names) {
      const property = this.hintOf(container.properties[name]);
      as.push(asOf(property));
      shapes.push(shapeOf(property));
    }
    return hint;
  }
}

/** Plans already made, by schema object: tools that serve one schema object share its plan. */
const plans = new WeakMap<object, CopyJson>();

/**
 * A copy of values of `schema` (a served schema, with its `$defs`): the same
 * result as `copyJson` (json.ts), errors included, faster on values of the
 * schema's shape.
 */
export function copyPlan(schema: JsonSchemaObject): CopyJson {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  const defs = schema["$defs"];
  const root = new Planner(isObject(defs) ? defs : {}).hintOf(schema);
  let plan: CopyJson;
  if (root.kind === "object") {
    const copy = root.copy;
    plan = (value) => copyJsonWith(value, copy);
  } else if (root.kind === "array") {
    const copy = root.copy;
    plan = (value) => copyJsonArrayWith(value, copy);
  } else plan = copyJson;
  plans.set(schema, plan);
  return plan;
}
