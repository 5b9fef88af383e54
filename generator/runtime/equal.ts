/**
 * Deep equality of JSON values, for `uniqueItems`, `enum` and `const`.
 *
 * Ajv's own helper (fast-deep-equal) calls `valueOf` and `toString` when an
 * object has them, so an input such as `[{"valueOf": {}}, "a"]`, which is
 * ordinary JSON from a model, made the validator throw instead of reporting
 * INVALID_INPUT. This one reads own enumerable data only and never calls
 * anything on the values it compares.
 */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equal(x[i], y[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of keys) if (!Object.hasOwn(y, key) || !equal(x[key], y[key])) return false;
  return true;
}
