// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
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
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null
  )
    return a !== a && b !== b;
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
  for (const key of keys)
    if (!Object.hasOwn(y, key) || !equal(x[key], y[key])) return false;
  return true;
}

/**
 * A string that two JSON values share exactly when `equal` says they are
 * equal: object keys sorted, strings quoted, each kind spelled differently.
 * Undefined when the value holds something that is not JSON data (a function,
 * a symbol), whose equality is identity and has no spelling.
 */
function canonical(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      // -0 and 0 are equal, and String(-0) is "0"; NaN equals NaN in `equal` too.
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "u";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          const item = canonical(value[i]);
          if (item === undefined) return undefined;
          out += i === 0 ? item : "," + item;
        }
        return out + "]";
      }
      const keys = Object.keys(value).sort();
      let out = "{";
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const item = canonical((value as Record<string, unknown>)[key]);
        if (item === undefined) return undefined;
        out += (i === 0 ? "" : ",") + JSON.stringify(key) + ":" + item;
      }
      return out + "}";
    }
    default:
      return undefined;
  }
}

/** The first pair of equal items, found pairwise: only for values that are not JSON data. */
function duplicatePairwise(
  items: readonly unknown[],
): { i: number; j: number } | undefined {
  for (let i = 1; i < items.length; i++)
    for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return { i, j };
  return undefined;
}

/**
 * For `uniqueItems`: the first item `i` equal to an earlier item `j`, or
 * undefined when all differ. Each item is hashed by its canonical spelling,
 * so the check costs time linear in the size of the array, where comparing
 * every pair (Ajv's way for items of no single scalar type) is quadratic.
 */
export function duplicateItems(
  items: readonly unknown[],
): { i: number; j: number } | undefined {
  // Strings and numbers are their own keys, each kind in its own set (a Set's
  // SameValueZero treats -0 as 0 and NaN as NaN, as `equal` does). A Set, not
  // a Map to the index: the earlier index is looked up only once a duplicate
  // is found, and a Set is the cheaper of the two to fill.
  const strings = new Set<unknown>();
  const numbers = new Set<unknown>();
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const kind = typeof item;
    if (kind === "string" || kind === "number") {
      const set = kind === "string" ? strings : numbers;
      const size = set.size;
      set.add(item);
      if (set.size === size) return { i, j: firstEqual(items, item) };
      continue;
    }
    const key = canonical(item);
    if (key === undefined) return duplicatePairwise(items);
    const j = seen.get(key);
    if (j !== undefined) return { i, j };
    seen.set(key, i);
  }
  return undefined;
}

/** The index of the first item equal to `value`, a string or number known to occur earlier. */
function firstEqual(items: readonly unknown[], value: unknown): number {
  for (let j = 0; j < items.length; j++) if (equal(items[j], value)) return j;
  return -1;
}
