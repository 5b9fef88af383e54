/**
 * What the copy-plan tests share: the comparison of a schema-aware copy with
 * the generic walk of runtime/json.ts, which it must match exactly (keys and
 * their order, prototypes, array-ness, leaves, and for a value that is not
 * JSON the whole failure: message, what and where), and values of a schema's
 * shape with hostile edits.
 */
import fc from "fast-check";
import type { CopyJson } from "../../generator/runtime/contract.js";
import { copyJson } from "../../generator/runtime/json.js";
import { hostileValue, mutated } from "../fuzz/hostile.js";
import { ownObject, SchemaArbitraries } from "../soundness/schema-arbitrary.js";

/** Both copies of `value`, and how they differ ("" when they do not). */
export function compare(copy: CopyJson, value: unknown): string {
  const planned = copy(value);
  const generic = copyJson(value);
  if (planned.ok !== generic.ok) return `one copy failed: ${JSON.stringify(planned.ok ? generic : planned)}`;
  if (!planned.ok || !generic.ok) {
    const [a, b] = [JSON.stringify(planned), JSON.stringify(generic)];
    return a === b ? "" : `failures: ${a} / ${b}`;
  }
  return difference(planned.value, generic.value);
}

/** Where two copies differ ("" when they do not): keys and their order, prototypes, array-ness and leaves all count. */
export function difference(a: unknown, b: unknown, at = "$"): string {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${at}: array shapes differ`;
    for (let i = 0; i < a.length; i++) {
      if (!(i in a) || !(i in b)) return `${at}[${i}]: a hole`;
      const d = difference(a[i], b[i], `${at}[${i}]`);
      if (d !== "") return d;
    }
    return "";
  }
  if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
    if (Object.getPrototypeOf(a) !== null || Object.getPrototypeOf(b) !== null) return `${at}: a copy has a prototype`;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (JSON.stringify(ka) !== JSON.stringify(kb)) return `${at}: keys ${JSON.stringify(ka)} against ${JSON.stringify(kb)}`;
    for (const k of ka) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d !== "") return d;
    }
    return "";
  }
  return Object.is(a, b) ? "" : `${at}: ${String(a)} against ${String(b)}`;
}

/** `value` with its own keys reversed (so a shape's order no longer holds), recursively when `deep`. */
function reversed(value: unknown, deep: boolean): unknown {
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.keys(value).map((k) => [k, deep ? reversed((value as Record<string, unknown>)[k], deep) : (value as Record<string, unknown>)[k]] as const);
  return ownObject(entries.reverse());
}

/** Values of `schema`'s shape, hostile edits of them, the same with their keys reversed, and hostile values. */
export function shaped(schema: object): fc.Arbitrary<unknown> {
  const base = new SchemaArbitraries(schema as never, 5).root$();
  return fc.oneof(base, mutated(base), fc.tuple(base, fc.boolean()).map(([v, deep]) => reversed(v, deep)), hostileValue);
}
