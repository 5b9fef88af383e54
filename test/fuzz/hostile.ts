/**
 * Hostile values and mutations: what an agent, a proxy or a bug may hand the
 * executor instead of JSON. Mutations start from schema-shaped values so the
 * input gets past the first checks and the validator sees near-misses.
 */
import fc from "fast-check";
import { ownObject } from "../soundness/schema-arbitrary.js";

/** Deep nesting, built without recursion so the builder itself cannot overflow. */
export function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Own `__proto__` / `constructor` keys, made the way JSON.parse makes them. */
const PROTO_JSON = [
  '{"__proto__": {"polluted": "yes"}}',
  '{"constructor": {"prototype": {"polluted": "yes"}}}',
  '{"__proto__": {"__proto__": {"polluted": "yes"}}, "customerId": "x"}',
  '{"__proto__": null}',
  '{"toString": 1, "valueOf": {}}',
];

class Custom {
  x = 1;
}

/** A value that is not plain JSON, or is JSON a schema will hate. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -0, undefined, null, 10n, Symbol("s")),
  fc.constantFrom(() => () => 1, () => new Date(0), () => new Map(), () => new Set([1]), () => new Custom(), () => /re/).map((make) => make() as unknown),
  fc.constantFrom(...PROTO_JSON).map((t) => JSON.parse(t) as unknown),
  fc.constant(null).map(() => Object.create(null) as unknown),
  fc.constant(null).map(() => {
    const a: unknown[] = [1, 2];
    a.length = 5; // holes
    return a;
  }),
  fc.constant(null).map(() => {
    const o: Record<string, unknown> = {};
    o.self = o;
    return o;
  }),
  fc.constant(null).map(() => Object.defineProperty({}, "g", { get: () => "getter", enumerable: true })),
  fc.constant(null).map(() => new Proxy({}, { ownKeys: () => { throw new Error("trap"); } })),
  fc.constant(null).map(() => ({ [Symbol("k")]: 1 })),
  // Built afresh per run: later edits may write into a value, and a shared one would carry them over.
  fc.tuple(fc.constantFrom(10_000, 300, 257, 255), fc.constantFrom("array" as const, "object" as const)).map(([d, k]) => nested(d, k)),
  fc.constant(null).map(() => "x".repeat(1 << 20)),
  fc.constant(null).map(() => "é".repeat(1 << 19)),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.oneof(fc.integer(), fc.double()),
);

/** A path into `value` (object keys, array indexes), or [] for the root. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  // Only descend into plain data: a hostile value (a Proxy, a getter) stays a leaf here.
  if (at.length > 6 || !isPlainNode(value)) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else for (const k of Object.keys(value)) paths((value as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function isPlainNode(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  try {
    // A Proxy passes the prototype test; enumerating its keys is what its traps guard.
    Object.keys(value);
    return Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
  } catch {
    return false;
  }
}

function cloneish(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneish);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return ownObject(Object.keys(value).map((k) => [k, cloneish((value as Record<string, unknown>)[k])] as const));
  }
  return value;
}

type Edit = { kind: "replace" | "delete" | "add"; key: string; value: unknown };

const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom("replace", "delete", "add"),
  key: fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "extra", ""), fc.string({ maxLength: 5 })),
  value: hostileValue,
});

/** Applies one edit at the node `pick` selects (mod the number of nodes); a node that refuses the edit is left as is. */
function applyEdit(root: unknown, pick: number, e: Edit): unknown {
  try {
    return editAt(root, pick, e);
  } catch {
    return root;
  }
}

function editAt(root: unknown, pick: number, e: Edit): unknown {
  const all = paths(root);
  const at = all[pick % all.length];
  if (at.length === 0 && e.kind === "replace") return e.value;
  const parentPath = e.kind === "add" ? at : at.slice(0, -1);
  let parent: unknown = root;
  for (const seg of parentPath) parent = (parent as Record<string | number, unknown>)[seg];
  if (!isPlainNode(parent)) return e.kind === "add" ? root : e.value;
  const target = parent as Record<string | number, unknown>;
  const key = e.kind === "add" ? (Array.isArray(parent) ? target.length as number : e.key) : at[at.length - 1];
  if (e.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete target[key];
  } else Object.defineProperty(target, key, { value: e.value, enumerable: true, writable: true, configurable: true });
  return root;
}

/** `base` (a schema-shaped value) with 0-3 edits; 0 keeps valid inputs in the mix. */
export function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.array(fc.tuple(fc.nat(), edit), { maxLength: 3 })).map(([value, edits]) =>
    edits.reduce((acc, [pick, e]) => applyEdit(acc, pick, e), cloneish(value)),
  );
}

/** Snapshot of Object.prototype, to prove no call polluted it. */
export function prototypeSnapshot(): string {
  return JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) + String(({} as Record<string, unknown>).polluted);
}
