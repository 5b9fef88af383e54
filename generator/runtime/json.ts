/**
 * Copies untrusted values into fresh, plain JSON data before anything looks
 * at them. The copy is what gets validated (the validator applies defaults in
 * place, so the caller's object is never touched), and it is the only thing a
 * handler or caller ever sees.
 */
import { formatPath } from "./issues.js";

/** Deeper than this is an attack or a bug; either way it is not a tool input. */
export const MAX_DEPTH = 256;

export type JsonCopy = { ok: true; value: unknown } | { ok: false; message: string };

class NotJson extends Error {
  constructor(readonly what: string, readonly at: (string | number)[]) {
    super(what);
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/*
 * `at` is one path stack shared by the whole copy (push before descending,
 * pop after) and is copied only when an error is thrown: allocating a path
 * per value was most of the executor's overhead on large outputs.
 */
function copyArray(value: unknown[], at: (string | number)[], ancestors: Set<object>): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    // A hole or undefined has no JSON form inside an array.
    if (!Object.hasOwn(value, i) || value[i] === undefined) throw new NotJson("an undefined array item", [...at, i]);
    at.push(i);
    out.push(copyValue(value[i], at, ancestors));
    at.pop();
  }
  return out;
}

function copyObject(value: object, at: (string | number)[], ancestors: Set<object>): object {
  if (!isPlainObject(value)) throw new NotJson(`an instance of ${value.constructor?.name ?? "a class"}`, [...at]);
  if (Object.getOwnPropertySymbols(value).length > 0) throw new NotJson("a symbol-keyed property", [...at]);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) continue;
    // Getters could return something different on every read; plain data has none.
    if (!("value" in descriptor)) throw new NotJson("an accessor property", [...at, key]);
    // JSON.stringify drops undefined properties, so a local call agrees with one over the wire.
    if (descriptor.value === undefined) continue;
    at.push(key);
    const copied = copyValue(descriptor.value, at, ancestors);
    at.pop();
    // A JSON-parsed "__proto__" key must stay an own data property, never
    // become the copy's prototype, so it alone goes through defineProperty.
    // For every other key, assignment creates the same data property, and
    // keeps the copy a fast object.
    if (key === "__proto__") Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out;
}

function copyValue(value: unknown, at: (string | number)[], ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new NotJson("a non-finite number", [...at]);
      return value;
    case "object": {
      if (value === null) return null;
      if (ancestors.has(value)) throw new NotJson("a circular reference", [...at]);
      if (at.length >= MAX_DEPTH) throw new NotJson(`nesting deeper than ${MAX_DEPTH} levels`, [...at]);
      ancestors.add(value);
      try {
        return Array.isArray(value) ? copyArray(value, at, ancestors) : copyObject(value, at, ancestors);
      } finally {
        ancestors.delete(value);
      }
    }
    case "undefined":
      throw new NotJson("an undefined value", [...at]);
    default:
      throw new NotJson(`a ${typeof value}`, [...at]);
  }
}

/** A deep copy of `value` as plain JSON data, or why it is not JSON. Never throws. */
export function copyJson(value: unknown): JsonCopy {
  try {
    return { ok: true, value: copyValue(value, [], new Set()) };
  } catch (error) {
    if (error instanceof NotJson) {
      const where = error.at.length === 0 ? "" : ` at ${formatPath(error.at)}`;
      return { ok: false, message: `must be plain JSON data, but has ${error.what}${where}` };
    }
    // A Proxy trap or similar threw; say so without quoting it.
    return { ok: false, message: "must be plain JSON data" };
  }
}
