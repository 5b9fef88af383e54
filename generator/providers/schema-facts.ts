/**
 * Facts about a served schema that the compiler alone asks: does a `$defs`
 * entry refer back to itself (a recursive type has no strict form). The
 * facts every dialect asks, and the rewriting itself, are the runtime's
 * (runtime/provider-schema.ts, provider-rewrite.ts), which a generated
 * providers.ts runs too.
 */
import type { JsonObject, JsonValue } from "../ir.js";
import { withoutAnnotations as annotationsDropped } from "../runtime/provider-schema.js";
import { defsEntryName, refsIn } from "../schema/refs.js";

export type { SchemaProblem } from "../runtime/provider-schema.js";
export { typesOf } from "../runtime/provider-schema.js";

/** Drops `x-` annotation keywords everywhere (runtime/provider-schema.ts), typed for the IR. */
export const withoutAnnotations = (node: JsonValue): JsonValue => annotationsDropped(node) as JsonValue;

/** The `$defs` entries `node` refers to, anywhere inside it. */
function defsReferredTo(node: JsonValue): Set<string> {
  return new Set(refsIn(node).flatMap((ref) => defsEntryName(ref) ?? []));
}

/** The `$defs` entries that can reach themselves through `$ref`: a recursive type. */
export function recursiveDefs(defs: JsonObject): string[] {
  const edges = new Map(Object.entries(defs).map(([name, schema]) => [name, defsReferredTo(schema)]));
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of edges.get(from) ?? []) {
      if (next === target) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, target, seen)) return true;
      }
    }
    return false;
  };
  return [...edges.keys()].filter((name) => reaches(name, name, new Set())).sort();
}
