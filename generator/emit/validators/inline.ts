/**
 * Which `$ref` targets the validator emitter has Ajv compile in place. Ajv
 * inlines a target only when it holds no `$ref` itself, so `items: {$ref:
 * Order}` with `Order.status: {$ref: Status}` became a function called per
 * item, with a context object and a path string built for every call. Here a
 * target is inlined when it is on no reference cycle and is either used once
 * or small; recursive schemas still get functions.
 */
import { createRequire } from "node:module";
import type { JsonSchema } from "../../ir.js";
import { fragmentTokens } from "../../runtime/pointer.js";

/** Keywords that need Ajv 2020's per-call bookkeeping (dynamic scopes, evaluated properties and items). */
export const DYNAMIC_KEYWORDS = new Set(["$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);
export const UNEVALUATED_KEYWORDS = new Set(["unevaluatedProperties", "unevaluatedItems"]);
/** Keywords that change how a `$ref` resolves; with any of them, refs are left to Ajv. */
const SCOPE_KEYWORDS = new Set(["$id", "$anchor", ...DYNAMIC_KEYWORDS]);

/** Every key used anywhere in `value`, including property names and data in enum/const (an over-approximation). */
export function keysIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysIn(v, into);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysIn(v, into);
    }
  }
  return into;
}

/** The value at a local JSON pointer ref (`#`, `#/a/b`), or undefined. */
function resolveLocal(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  let tokens: string[];
  try {
    tokens = fragmentTokens(ref.slice(1));
  } catch {
    return undefined;
  }
  for (const token of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Every string `$ref` found anywhere under `value`. */
function refsUnder(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsUnder(v, into);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") into.push(v);
      else refsUnder(v, into);
    }
  }
  return into;
}

/** Above this size (JSON characters), a target referenced from several places stays one function. */
const INLINE_SHARED_MAX = 400;

/**
 * The `$ref` targets that can be compiled in place rather than as a separate
 * function. Ajv inlines only targets without refs of their own, so `items:
 * {$ref: Order}` where Order refers to a Status enum becomes a function call
 * per item, with a context object and a path string built on every call. A
 * target is inlined here when it is not on a reference cycle (it cannot
 * reach itself) and either one place refers to it or it is small, so the
 * code does not grow with every extra use.
 */
function inlinableTargets(schema: JsonSchema): Set<object> {
  const inlinable = new Set<object>();
  if ([...keysIn(schema)].some((k) => SCOPE_KEYWORDS.has(k))) return inlinable;
  const sites = new Map<string, number>();
  for (const ref of refsUnder(schema)) sites.set(ref, (sites.get(ref) ?? 0) + 1);
  const edges = new Map<string, string[] | null>();
  for (const ref of sites.keys()) {
    const target = resolveLocal(schema, ref);
    edges.set(ref, target === undefined ? null : refsUnder(target));
  }
  const reachesItself = (start: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const ref = stack.pop() as string;
      if (ref === start) return true;
      if (seen.has(ref)) continue;
      seen.add(ref);
      const next = edges.get(ref);
      if (next === undefined || next === null) continue;
      stack.push(...next);
    }
    return false;
  };
  for (const [ref, refs] of edges) {
    const target = resolveLocal(schema, ref);
    if (refs === null || target === null || typeof target !== "object") continue;
    if (refs.some((r) => edges.get(r) === null || r === "#") || reachesItself(ref)) continue;
    if ((sites.get(ref) ?? 0) > 1 && JSON.stringify(target).length > INLINE_SHARED_MAX) continue;
    inlinable.add(target);
  }
  return inlinable;
}

// Ajv decides whether to inline a ref target with resolve.inlineRef, read from
// the module's exports on every call. While one standalone compile runs, the
// targets chosen above are inlined too; every other compile is unaffected.
const resolveModule = createRequire(import.meta.url)("ajv/dist/compile/resolve") as { inlineRef: (schema: unknown, limit?: unknown) => boolean };
const ajvInlineRef = resolveModule.inlineRef;
let inlineTargets: Set<object> | null = null;
resolveModule.inlineRef = (schema: unknown, limit?: unknown) =>
  (inlineTargets !== null && typeof schema === "object" && schema !== null && inlineTargets.has(schema)) || ajvInlineRef(schema, limit);

/** Runs one standalone compile with the inlining choices for `schema` in force. */
export function withInlinedRefs<T>(schema: JsonSchema, compile: () => T): T {
  inlineTargets = inlinableTargets(schema);
  try {
    return compile();
  } finally {
    inlineTargets = null;
  }
}
