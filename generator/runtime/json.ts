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
 * Both walks read each property once, through plain property access, and
 * allocate nothing per value beyond the copy itself: they sit on every call.
 */
import { formatPath } from "./issues.js";

/** Deeper than this is an attack or a bug; either way it is not a tool input. */
export const MAX_DEPTH = 256;

export type JsonCopy = { ok: true; value: unknown } | { ok: false; message: string };
export type JsonCheck = { ok: true } | { ok: false; message: string };

class NotJson extends Error {
  readonly what: string;
  readonly at: (string | number)[];

  constructor(what: string, at: (string | number)[]) {
    super(what);
    this.what = what;
    this.at = at;
  }
}

/**
 * The walk's state. `at` is one path stack for the whole walk (push before
 * descending, pop after), copied only when an error is thrown; `objects` is
 * the matching stack of containers, looked at only when the depth limit is
 * hit, to tell a cycle from deep nesting.
 */
interface Walk {
  readonly at: (string | number)[];
  readonly objects: object[];
  /** Copy (input) or only check (output). */
  readonly copy: boolean;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** At the depth limit: a container seen twice on the way down is a cycle, reported where it first closes. */
function tooDeep(walk: Walk): NotJson {
  const { objects, at } = walk;
  for (const [j, object] of objects.entries()) {
    if (objects.indexOf(object) < j) return new NotJson("a circular reference", at.slice(0, j));
  }
  return new NotJson(`nesting deeper than ${MAX_DEPTH} levels`, [...at]);
}

/**
 * Whether a leaf is JSON as it is: strings, booleans and finite numbers pass
 * without a call or a path push, which is most of the values in real data.
 */
function isJsonLeaf(value: unknown): boolean {
  const type = typeof value;
  return type === "string" || type === "boolean" || (type === "number" && Number.isFinite(value));
}

function walkArray(value: unknown[], walk: Walk): unknown[] | undefined {
  const out: unknown[] | undefined = walk.copy ? new Array<unknown>(value.length) : undefined;
  for (let i = 0; i < value.length; i++) {
    let item = value[i];
    if (!isJsonLeaf(item)) {
      // A hole or undefined has no JSON form inside an array (JSON.stringify writes null).
      if (item === undefined) throw new NotJson("an undefined array item", [...walk.at, i]);
      walk.at.push(i);
      item = walkValue(item, walk);
      walk.at.pop();
    }
    if (out !== undefined) out[i] = item;
  }
  return out;
}

function walkObject(value: object, walk: Walk): object | undefined {
  if (!isPlainObject(value)) throw new NotJson(`an instance of ${value.constructor?.name ?? "a class"}`, [...walk.at]);
  // No prototype: every key of the copy is its own, so `constructor`, `toString`
  // or `__proto__` from JSON are ordinary data, a default for `valueOf` applies
  // when it is missing, and nothing inherited (a `toJSON`) can reach the wire.
  const out: Record<string, unknown> | undefined = walk.copy ? (Object.create(null) as Record<string, unknown>) : undefined;
  const record = value as Record<string, unknown>;
  // Own enumerable keys, as JSON.stringify takes them; for-in would also list anything added to Object.prototype.
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    let item = record[key];
    if (!isJsonLeaf(item)) {
      // JSON.stringify drops undefined properties, so a local call agrees with one over the wire.
      if (item === undefined) continue;
      walk.at.push(key);
      item = walkValue(item, walk);
      walk.at.pop();
    }
    if (out !== undefined) out[key] = item;
  }
  return out;
}

function walkValue(value: unknown, walk: Walk): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new NotJson("a non-finite number", [...walk.at]);
      return value;
    case "object": {
      if (value === null) return null;
      if (walk.objects.length >= MAX_DEPTH) throw tooDeep(walk);
      walk.objects.push(value);
      const result = Array.isArray(value) ? walkArray(value, walk) : walkObject(value, walk);
      walk.objects.pop();
      return result;
    }
    case "undefined":
      throw new NotJson("an undefined value", [...walk.at]);
    default:
      throw new NotJson(`a ${typeof value}`, [...walk.at]);
  }
}

function notJsonMessage(error: unknown): string {
  if (error instanceof NotJson) {
    const where = error.at.length === 0 ? "" : ` at ${formatPath(error.at)}`;
    return `must be plain JSON data, but has ${error.what}${where}`;
  }
  // A Proxy trap, a getter or a stack overflow threw; say so without quoting it.
  return "must be plain JSON data";
}

/** A deep copy of `value` as plain JSON data, or why it is not JSON. Never throws. */
export function copyJson(value: unknown): JsonCopy {
  try {
    return { ok: true, value: walkValue(value, { at: [], objects: [], copy: true }) };
  } catch (error) {
    return { ok: false, message: notJsonMessage(error) };
  }
}

const PLAIN: JsonCheck = { ok: true };

/**
 * Whether `value` is plain JSON data, without copying it: only plain objects
 * and arrays, finite numbers, no functions, symbols or bigints, no cycles.
 * What passes serializes to exactly what a validator reads. Never throws.
 */
export function checkJson(value: unknown): JsonCheck {
  // A JSON leaf at the root needs no walk state at all.
  if (value === null || isJsonLeaf(value)) return PLAIN;
  try {
    walkValue(value, { at: [], objects: [], copy: false });
    return PLAIN;
  } catch (error) {
    return { ok: false, message: notJsonMessage(error) };
  }
}
