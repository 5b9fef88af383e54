// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Plain JSON data at the border. Input is copied before anything looks at it:
 * the copy is what gets validated (the validator applies defaults in place,
 * so the caller's object is never touched) and what the handler sees. Output
 * is copied too: the copy is what gets validated and what is serialized, so
 * a getter that answers differently on a second read, a non-enumerable
 * `toJSON` or a handler that keeps changing its result cannot make the bytes
 * on the wire differ from the value that was checked. Copied objects have no
 * prototype, so every key in them is an own, ordinary data property.
 *
 * The walk sits on every call, so it keeps no state on the way down: no path
 * stack, no stack of containers. Only when something is not JSON does the
 * error collect its location, frame by frame, on its way back up.
 */
import type { SensitivePaths } from "./contract.js";
import { formatPath } from "./issues.js";
import { hideSensitiveKeys } from "./sensitive.js";

/** Deeper than this is an attack or a bug; either way it is not a tool input. */
export const MAX_DEPTH = 256;

/** Why a value is not JSON: the message, and the parts it is made of, so that a caller can say where without naming a secret key. */
export interface NotJsonCopy {
  readonly ok: false;
  readonly message: string;
  /** What was found (`a non-finite number`); absent when the walk itself failed, and the message names no place. */
  readonly what?: string;
  /** Where, from the root: keys and array indexes. */
  readonly at: readonly (string | number)[];
}

export type JsonCopy = { ok: true; value: unknown } | NotJsonCopy;

/**
 * Why a value is not JSON, and where. Not an Error: nothing needs its stack,
 * and capturing one would cost more than the rest of a failed copy.
 */
class NotJson {
  readonly what: string;
  /** The path from the root, filled in as the error passes back up through the walk. */
  readonly at: (string | number)[] = [];
  /** At the depth limit only: the containers on the way down, to tell a cycle from deep nesting. */
  readonly containers: object[] | undefined;

  constructor(what: string, deep = false) {
    this.what = what;
    this.containers = deep ? [] : undefined;
  }
}

const getPrototypeOf = Object.getPrototypeOf;
const objectPrototype: unknown = Object.prototype;

const setPrototypeOf = Object.setPrototypeOf;

/**
 * An empty object with no prototype. Not `Object.create(null)`: V8 gives
 * those dictionary (hash-table) storage, which made every validator read of
 * the copy about twice as slow. A literal whose prototype is then set to null
 * keeps fast properties, and copies of one shape share one hidden class.
 * (A shared, frozen, empty prototype would be cheaper still to create, but a
 * copy would then no longer be what `Object.getPrototypeOf(x) === null`
 * checks, or a library's plain-object test, expect.)
 */
export function emptyRecord(): Record<string, unknown> {
  const record = {};
  setPrototypeOf(record, null);
  return record as Record<string, unknown>;
}

/**
 * Whether a leaf is JSON as it is: strings, booleans and finite numbers pass
 * without a call, which is most of the values in real data.
 */
export function isJsonLeaf(value: unknown): boolean {
  const type = typeof value;
  return (
    type === "string" ||
    type === "boolean" ||
    (type === "number" && Number.isFinite(value))
  );
}

/** Adds one step of the path (and, at the depth limit, its container) to an error passing up. */
export function located(
  error: unknown,
  key: string | number | undefined,
  container: object,
): unknown {
  if (error instanceof NotJson && key !== undefined) {
    error.at.unshift(key);
    error.containers?.unshift(container);
  }
  return error;
}

function copyArray(value: readonly unknown[], depth: number): unknown[] {
  const out: unknown[] = [];
  const length = value.length;
  let i = 0;
  try {
    for (; i < length; i++) {
      const item = value[i];
      if (isJsonLeaf(item)) out.push(item);
      // A hole or undefined has no JSON form inside an array (JSON.stringify writes null).
      else if (item === undefined) throw new NotJson("an undefined array item");
      else out.push(copyValue(item, depth));
    }
  } catch (error) {
    throw located(error, i, value);
  }
  return out;
}

export function copyObject(
  value: object,
  depth: number,
): Record<string, unknown> {
  const proto: unknown = getPrototypeOf(value);
  if (proto !== objectPrototype && proto !== null)
    throw new NotJson(`an instance of ${value.constructor?.name ?? "a class"}`);
  // No prototype: every key of the copy is its own, so `constructor`, `toString`
  // or `__proto__` from JSON are ordinary data, a default for `valueOf` applies
  // when it is missing, and nothing inherited (a `toJSON`) can reach the wire.
  const out = emptyRecord();
  const record = value as Record<string, unknown>;
  // Own enumerable keys, as JSON.stringify takes them; for-in would also list anything added to Object.prototype.
  const keys = Object.keys(record);
  let k = 0;
  try {
    for (; k < keys.length; k++) {
      const key = keys[k] as string;
      const item = record[key];
      if (isJsonLeaf(item)) out[key] = item;
      // JSON.stringify drops undefined properties, so a local call agrees with one over the wire.
      else if (item !== undefined) out[key] = copyValue(item, depth);
    }
  } catch (error) {
    throw located(error, keys[k], value);
  }
  return out;
}

/** A copy of a value that is not a JSON leaf: a container, null, or something that is not JSON. */
export function copyValue(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "object":
      if (value === null) return null;
      if (depth >= MAX_DEPTH)
        throw new NotJson(`nesting deeper than ${MAX_DEPTH} levels`, true);
      return Array.isArray(value)
        ? copyArray(value, depth + 1)
        : copyObject(value, depth + 1);
    case "number":
      throw new NotJson("a non-finite number");
    case "undefined":
      throw new NotJson("an undefined value");
    default:
      throw new NotJson(`a ${typeof value}`);
  }
}

function failure(what: string, at: readonly (string | number)[]): NotJsonCopy {
  return { ok: false, message: describe(what, at), what, at };
}

/** At the depth limit: a container seen twice on the way down is a cycle, reported where it first closes. */
function depthFailure(
  error: NotJson,
  containers: readonly object[],
): NotJsonCopy {
  for (let j = 0; j < containers.length; j++) {
    if (containers.indexOf(containers[j] as object) < j)
      return failure("a circular reference", error.at.slice(0, j));
  }
  return failure(error.what, error.at);
}

function describe(what: string, at: readonly (string | number)[]): string {
  const where = at.length === 0 ? "" : ` at ${formatPath(at)}`;
  return `must be plain JSON data, but has ${what}${where}`;
}

function notJson(error: unknown): NotJsonCopy {
  if (error instanceof NotJson)
    return error.containers === undefined
      ? failure(error.what, error.at)
      : depthFailure(error, error.containers);
  // A Proxy trap, a getter or a stack overflow threw; say so without quoting it.
  return { ok: false, message: "must be plain JSON data", at: [] };
}

/**
 * The message of a failed copy with every key below a sensitive value
 * hidden: the keys of an `x-sensitive` map are its data, and must not show
 * in `tokens.sk_live_…[0]`.
 */
export function notJsonMessage(
  copy: NotJsonCopy,
  sensitive: SensitivePaths,
): string {
  if (copy.what === undefined || sensitive.length === 0) return copy.message;
  const at = hideSensitiveKeys(copy.at, sensitive);
  return at === copy.at ? copy.message : describe(copy.what, at);
}

/** A deep copy of `value` as plain JSON data, or why it is not JSON. Never throws. */
export function copyJson(value: unknown): JsonCopy {
  if (isJsonLeaf(value)) return { ok: true, value };
  try {
    return { ok: true, value: copyValue(value, 0) };
  } catch (error) {
    return notJson(error);
  }
}

/*
 * The schema-aware copies (chunks/<tool>.ts, generated) are built from the
 * pieces below. They take an object fast only when it is a plain object
 * whose own enumerable keys are the schema's properties, some possibly
 * missing, in the schema's order; anything else goes to the generic walk
 * above, from the first object that differs. So a copy made either way has
 * the same keys, values, key order, prototype and errors; the schema only
 * decides which way is faster.
 */

/** The keys of `value` if a schema-aware copy may take it (a plain object within the depth limit); undefined sends it to copyValue. */
export function plainKeys(value: object, depth: number): string[] | undefined {
  if (depth >= MAX_DEPTH) return undefined;
  const proto: unknown = getPrototypeOf(value);
  if (proto !== objectPrototype && proto !== null) return undefined;
  return Object.keys(value);
}

/** A copy of a property value that is not undefined (an undefined one is dropped, as JSON.stringify drops it). */
export function jsonValue(value: unknown, depth: number): unknown {
  return isJsonLeaf(value) ? value : copyValue(value, depth);
}

/** A copy of an array item: an undefined item or a hole is not JSON. */
export function jsonItem(value: unknown, depth: number): unknown {
  if (isJsonLeaf(value)) return value;
  if (value === undefined) throw new NotJson("an undefined array item");
  return copyValue(value, depth);
}

/** A copy of an object (at the root, with `copyRoot`, a schema-aware copy) or of any other value, or why it is not JSON. Never throws. */
export function copyJsonWith(
  value: unknown,
  copyRoot: (value: object, depth: number) => unknown,
): JsonCopy {
  if (isJsonLeaf(value)) return { ok: true, value };
  try {
    const copy =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? copyRoot(value, 0)
        : copyValue(value, 0);
    return { ok: true, value: copy };
  } catch (error) {
    return notJson(error);
  }
}

/** The same for a root the schema makes an array (an output of any root, SEP-2106): `copyRoot` copies an array, the generic walk anything else. */
export function copyJsonArrayWith(
  value: unknown,
  copyRoot: (value: readonly unknown[], depth: number) => unknown,
): JsonCopy {
  if (isJsonLeaf(value)) return { ok: true, value };
  try {
    return {
      ok: true,
      value: Array.isArray(value) ? copyRoot(value, 0) : copyValue(value, 0),
    };
  } catch (error) {
    return notJson(error);
  }
}
