// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * A value walked along its contract's sensitivity automaton (SensitivePaths,
 * contract.ts): which parts of it are sensitive, what a path below a
 * sensitive value may show, and which output is withheld. The automaton is
 * compiled from the schema, so a recursive type (`tree.children[0].secret`)
 * and any depth are covered; only the parts of the value that can lead to a
 * sensitive one are visited.
 */
import type { SensitiveNode, SensitivePaths } from "./contract.js";

/** A step of a path: a property name, or an array index. */
export type PathSegment = string | number;

/** What stands in a path for the keys below a sensitive value: the keys of a sensitive map are its data. */
export const HIDDEN_KEY = "[REDACTED]";

/** The state of the child at `key` (a number: an array index) of a value in `node`; undefined: nothing below it is sensitive. */
export function childState(
  node: SensitiveNode,
  key: PathSegment,
): number | undefined {
  if (typeof key === "number") {
    const prefix = node.prefixItems;
    if (prefix !== undefined && key < prefix.length)
      return prefix[key] ?? undefined;
    return node.items;
  }
  const properties = node.properties;
  if (properties !== undefined && Object.hasOwn(properties, key))
    return properties[key];
  return node.additionalProperties;
}

/**
 * Calls `visit` on every sensitive value in `data` (and not inside one: a
 * sensitive value is visited whole). Iterative, so any depth is walked.
 */
export function forEachSensitive(
  data: unknown,
  paths: SensitivePaths,
  visit: (value: unknown, node: SensitiveNode) => void,
): void {
  if (paths.length === 0) return;
  const values: unknown[] = [data];
  const states: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const node = paths[states.pop() as number];
    if (node === undefined) continue;
    if (node.sensitive !== undefined) {
      visit(value, node);
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const next = childState(node, i);
        if (next !== undefined) {
          values.push(value[i]);
          states.push(next);
        }
      }
    } else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const next = childState(node, key);
        if (next !== undefined) {
          values.push(record[key]);
          states.push(next);
        }
      }
    }
  }
}

/**
 * The path with everything below a sensitive value replaced by HIDDEN_KEY,
 * so `tokens["sk_live_…"]` reads `tokens["[REDACTED]"]`; the same array when
 * nothing in it is below one.
 */
export function hideSensitiveKeys(
  segments: readonly PathSegment[],
  paths: SensitivePaths,
): readonly PathSegment[] {
  let state: number | undefined = 0;
  for (let i = 0; i < segments.length; i++) {
    const node: SensitiveNode | undefined = paths[state];
    if (node === undefined) return segments;
    if (node.sensitive !== undefined)
      return [...segments.slice(0, i), HIDDEN_KEY];
    state = childState(node, segments[i] as PathSegment);
    if (state === undefined) return segments;
  }
  return segments;
}

const withholds = new WeakMap<SensitivePaths, boolean>();

/** Whether any state of `paths` withholds its value; worked out once per automaton. */
export function hasWithheld(paths: SensitivePaths): boolean {
  if (paths.length === 0) return false;
  let found = withholds.get(paths);
  if (found === undefined) {
    found = paths.some((node) => node.sensitive === "withhold");
    withholds.set(paths, found);
  }
  return found;
}

/**
 * Removes every withheld value from `data`, in place: a property or map
 * entry is deleted, an array item dropped. `data` must be the executor's own
 * copy. Returns what is left; undefined when the whole value is withheld.
 */
export function withhold(data: unknown, paths: SensitivePaths): unknown {
  if (!hasWithheld(paths)) return data;
  if (paths[0]?.sensitive === "withhold") return undefined;
  const values: unknown[] = [data];
  const states: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const node = paths[states.pop() as number];
    if (node === undefined || node.sensitive !== undefined) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const next = childState(node, i);
        if (next === undefined) continue;
        if (paths[next]?.sensitive === "withhold") value.splice(i, 1);
        else {
          values.push(value[i]);
          states.push(next);
        }
      }
    } else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const next = childState(node, key);
        if (next === undefined) continue;
        if (paths[next]?.sensitive === "withhold") delete record[key];
        else {
          values.push(record[key]);
          states.push(next);
        }
      }
    }
  }
  return data;
}
