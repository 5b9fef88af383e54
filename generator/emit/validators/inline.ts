/**
 * Which `$ref` targets the validator emitter has Ajv compile in place, by
 * handing Ajv a copy of the schema with those refs replaced. Ajv
 * inlines a target only when it holds no `$ref` itself, so `items: {$ref:
 * Order}` with `Order.status: {$ref: Status}` became a function called per
 * item, with a context object and a path string built for every call. Here a
 * target is inlined when it is on no reference cycle and is either used once
 * or small once expanded; recursive schemas still get functions.
 *
 * "Small" is measured on what the target expands to, its own refs inlined,
 * never on its own JSON: `$defs` that each refer to the next one twice are
 * each a few dozen characters, but inlining all of them doubles the code at
 * every level (12 levels wrote a 2.8 MB validator). With the expanded size
 * bounded, what is copied more than once is at most INLINE_SHARED_MAX
 * characters per reference site, and a target used once is expanded once,
 * so the schema Ajv compiles grows linearly with the one written.
 */
import type { JsonSchema } from "../../ir.js";
import { isJsonObject, usesAnyKey } from "../../schema/json.js";
import { nodesOnCycles } from "../../schema/graph.js";
import { REF_SCOPE_KEYWORDS, refsIn, resolveLocalRef } from "../../schema/refs.js";
import { ANY_SCHEMA_KEYWORDS, ANY_SCHEMA_LIST_KEYWORDS, ANY_SCHEMA_MAP_KEYWORDS, UNION_KEYWORDS } from "../../schema/walk.js";

/** Above this expanded size (JSON characters, its own inlined refs included), a target referenced from several places stays one function. */
export const INLINE_SHARED_MAX = 400;

/**
 * The `$ref` targets that can be compiled in place rather than as a separate
 * function. Ajv inlines only targets without refs of their own, so `items:
 * {$ref: Order}` where Order refers to a Status enum becomes a function call
 * per item, with a context object and a path string built on every call. A
 * target is inlined here when it is not on a reference cycle (it cannot
 * reach itself) and either one place refers to it or what it expands to is
 * small, so the code does not grow with every extra use. Expanded sizes are
 * computed once per target, dependencies first (the targets not on a cycle
 * form a DAG), and each counts every ref in the target as if it were inlined:
 * an over-estimate (refs under a union stay refs, see substitute), which only
 * ever keeps more functions.
 */
function inlinableTargets(schema: JsonSchema): Set<object> {
  const inlinable = new Set<object>();
  // A keyword that changes how a `$ref` resolves leaves every ref to Ajv.
  if (usesAnyKey(schema, REF_SCOPE_KEYWORDS)) return inlinable;
  const sites = new Map<string, number>();
  for (const ref of refsIn(schema)) sites.set(ref, (sites.get(ref) ?? 0) + 1);
  const edges = new Map<string, string[] | null>();
  for (const ref of sites.keys()) {
    const target = resolveLocalRef(schema, ref);
    edges.set(ref, target === undefined ? null : refsIn(target));
  }
  const onCycle = nodesOnCycles(edges.keys(), (ref) => edges.get(ref) ?? []);
  const candidate = (ref: string): boolean => {
    const refs = edges.get(ref);
    if (refs === null || refs === undefined || onCycle.has(ref) || !isJsonObject(resolveLocalRef(schema, ref))) return false;
    return !refs.some((r) => edges.get(r) === null || r === "#");
  };
  // ref → its expanded size when it is inlined, or undefined when it stays a ref; dependencies first, without recursion.
  const expanded = new Map<string, number | undefined>();
  const decide = (ref: string): void => {
    const refs = edges.get(ref) as string[];
    let size = JSON.stringify(resolveLocalRef(schema, ref)).length;
    for (const r of refs) {
      const inner = expanded.get(r);
      if (inner !== undefined) size += inner;
    }
    if (!((sites.get(ref) ?? 0) <= 1 || size <= INLINE_SHARED_MAX)) return void expanded.set(ref, undefined);
    expanded.set(ref, size);
    inlinable.add(resolveLocalRef(schema, ref) as object);
  };
  for (const start of edges.keys()) {
    if (expanded.has(start) || !candidate(start)) continue;
    const frames: { ref: string; next: number }[] = [{ ref: start, next: 0 }];
    const entered = new Set<string>([start]);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const refs = edges.get(frame.ref) as string[];
      if (frame.next < refs.length) {
        const to = refs[frame.next++];
        if (expanded.has(to) || entered.has(to)) continue;
        if (!candidate(to)) expanded.set(to, undefined);
        else {
          entered.add(to);
          frames.push({ ref: to, next: 0 });
        }
        continue;
      }
      frames.pop();
      decide(frame.ref);
    }
  }
  return inlinable;
}

/**
 * Keywords whose value is a subschema, an array of them, or a map of them:
 * the toolkit's tables for any 2020-12 schema. Everything else (enum,
 * const, default, …) is data, and so are older drafts' subschema keywords
 * (`definitions`, `dependencies`, `additionalItems`, `items` as a tuple) and
 * `contentSchema`, which no contract holds (load/meta-schema.ts refuses
 * them): a `$ref` under one would be left for Ajv to compile as a function,
 * the same check, only not in place.
 */
const SUBSCHEMA: ReadonlySet<string> = new Set(ANY_SCHEMA_KEYWORDS);
const SUBSCHEMA_LIST: ReadonlySet<string> = new Set(ANY_SCHEMA_LIST_KEYWORDS);
const SUBSCHEMA_MAP: ReadonlySet<string> = new Set(ANY_SCHEMA_MAP_KEYWORDS);

type Substitute = (schema: unknown) => unknown;

/** The value of keyword `key` with `sub` applied to each subschema in it. */
function mapSubschemas(key: string, value: unknown, sub: Substitute): unknown {
  if (Array.isArray(value)) return SUBSCHEMA_LIST.has(key) ? value.map(sub) : value;
  if (!isJsonObject(value)) return value;
  if (SUBSCHEMA.has(key)) return sub(value);
  if (!SUBSCHEMA_MAP.has(key)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) out[name] = sub(v);
  return out;
}

/**
 * Copies `schema`, replacing each `$ref` to a target in `inlinable` by the
 * target itself (see inlineRefs); only schema positions are visited, never
 * data such as an enum value that looks like a ref. Below an anyOf/oneOf
 * nothing is replaced: there an error's schema path (the definition's, for a
 * ref Ajv inlines) decides whether issues.ts treats it as a branch error, so
 * it must stay what Ajv gives the schema as written. Each node is copied
 * once (`copies`): a target used in several places, and its `$defs` entry,
 * share one copy, so the copy costs what the schema does, not what it expands to.
 */
function substitute(schema: unknown, root: JsonSchema, inlinable: ReadonlySet<object>, copies: Map<object, unknown>): unknown {
  if (!isJsonObject(schema)) return schema;
  const known = copies.get(schema);
  if (known !== undefined) return known;
  const sub: Substitute = (s) => substitute(s, root, inlinable, copies);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = (UNION_KEYWORDS as readonly string[]).includes(k) ? v : mapSubschemas(k, v, sub);
  copies.set(schema, out);
  const ref = out["$ref"];
  if (typeof ref !== "string") return out;
  const target = resolveLocalRef(root, ref);
  if (!isJsonObject(target) || !inlinable.has(target)) return out;
  const expanded = sub(target) as Record<string, unknown>;
  const { $ref: _ref, ...siblings } = out;
  // A keyword on both sides would need both applied; the $ref stays, and Ajv compiles it as it would.
  if (Object.keys(siblings).some((k) => Object.hasOwn(expanded, k))) return out;
  const inlined = { ...siblings, ...expanded };
  copies.set(schema, inlined);
  return inlined;
}

/**
 * `schema` with the `$ref`s to the targets `inlinableTargets` chose replaced
 * by the targets themselves: the same constraints, which Ajv then compiles
 * in place (Ajv inlines a ref target only when it holds no `$ref` itself,
 * and its `inlineRefs` option can only limit that). Instance paths, keywords
 * and params of every error are unchanged; only schema paths name the use
 * site instead of the definition, never below a union (see substitute).
 * The original schema is not modified.
 */
export function inlineRefs(schema: JsonSchema): JsonSchema {
  const inlinable = inlinableTargets(schema);
  if (inlinable.size === 0) return schema;
  return substitute(schema, schema, inlinable, new Map()) as JsonSchema;
}
