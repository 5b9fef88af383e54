/**
 * `$ref` cycles that no value could ever get to the end of. A type may refer
 * to itself through a property or an item (a tree, a linked list): each step
 * moves into a smaller part of the value. But `A: { $ref: B }`, `B: { $ref: A }`,
 * or a type that is one of its own `allOf`/`anyOf`/`oneOf` branches, applies
 * to the same value forever; Ajv recurses until the stack runs out. Such
 * cycles are found here first, without recursion, and named.
 */
import type { JsonObject, JsonSchema } from "../ir.js";
import { defsEntryName } from "../schema/refs.js";
import { isJsonObject } from "../schema/json.js";

/** Keywords whose subschemas apply to the same value as the schema holding them. */
const SAME_VALUE_LISTS = ["allOf", "anyOf", "oneOf"] as const;

/** The `$defs` entries `schema` applies to its own value: its `$ref`, and those of its same-value branches, transitively. */
function sameValueRefs(schema: JsonSchema): string[] {
  const found: string[] = [];
  const stack: JsonSchema[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isJsonObject(node)) continue;
    if (typeof node.$ref === "string") {
      const name = defsEntryName(node.$ref);
      if (name !== undefined) found.push(name);
    }
    for (const keyword of SAME_VALUE_LISTS) {
      const branches = node[keyword];
      if (Array.isArray(branches)) stack.push(...(branches as JsonSchema[]));
    }
  }
  return found;
}

/**
 * A cycle of `$defs` entries that apply to the same value, as the names in
 * order with the first repeated at the end (`["A", "B", "A"]`), or undefined.
 */
export function sameValueCycle(schema: JsonObject): string[] | undefined {
  const defs = isJsonObject(schema.$defs) ? schema.$defs : {};
  const edges = new Map<string, string[]>();
  for (const [name, def] of Object.entries(defs))
    edges.set(
      name,
      sameValueRefs(def as JsonSchema).filter((n) => Object.hasOwn(defs, n)),
    );
  // Depth-first with an explicit stack; "on path" marks the current chain, "done" what is proven acyclic.
  const done = new Set<string>();
  for (const start of edges.keys()) {
    if (done.has(start)) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    const onPath = new Set([start]);
    while (path.length > 0) {
      const top = path[path.length - 1] as string;
      const targets = edges.get(top) ?? [];
      const i = next[next.length - 1] as number;
      if (i >= targets.length) {
        done.add(top);
        onPath.delete(top);
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const target = targets[i] as string;
      if (onPath.has(target)) return [...path.slice(path.indexOf(target)), target];
      if (done.has(target)) continue;
      path.push(target);
      next.push(0);
      onPath.add(target);
    }
  }
  return undefined;
}
