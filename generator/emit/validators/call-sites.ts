/**
 * Where a tool's validator may call a shared named-type function instead of
 * compiling the type in place (validators/named-types.ts decides what is
 * called; this module, where). A call is made for a `$ref` reached from the
 * root, or from a `$defs` entry the schema refers to, through properties,
 * items, allOf and untagged unions, when the place allows it:
 *
 * - not below not, if, contains, propertyNames, dependentSchemas or a
 *   tagged union's branches (Ajv runs the first as composite rules without
 *   all errors, and its discriminator reads the branches of the last);
 * - not where an `unevaluated*` keyword needs what the value's subschemas
 *   evaluated: in place below it (allOf, a union's branches, a `$ref`),
 *   until properties, items and the like lead to another value (a call
 *   evaluates nothing that Ajv could see);
 * - below a union, only where the place's flavour of the type applies the
 *   defaults Ajv would (`allowed` is asked).
 *
 * A `$defs` entry is compiled once for every place that refers to it, so it
 * is rewritten for the worst of those places: an entry that any disallowed
 * place refers to (or an entry of an input schema, whose defaults depend on
 * where Ajv inlines it) is left as it is, and so is everything it refers to.
 */
import { taggedUnion, type RefResolver } from "../../discriminators.js";
import type { JsonObject, JsonSchema } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { defsEntryName } from "../../schema/refs.js";
import { ANY_SCHEMA_KEYWORDS, ANY_SCHEMA_LIST_KEYWORDS, ANY_SCHEMA_MAP_KEYWORDS } from "../../schema/walk.js";

/** Where a node is validated: below a union (a composite rule), and in place below an `unevaluated*` keyword. */
export interface Place {
  readonly belowUnion: boolean;
  readonly evaluated: boolean;
}

/** What may not hold a call at all (see the module comment). */
const BLOCKED = null;
type At = Place | typeof BLOCKED;

/**
 * The keywords followed, each typed by the toolkit's table it picks from. A
 * list of what is followed, not of what is skipped: a keyword added to the
 * toolkit blocks calls below it until it is shown safe.
 */
const CHILD_ONE: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_KEYWORDS)[number]>(["additionalProperties", "items"]);
const CHILD_LIST: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_LIST_KEYWORDS)[number]>(["prefixItems"]);
const CHILD_MAP: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_MAP_KEYWORDS)[number]>(["properties", "patternProperties"]);
const IN_PLACE_LIST: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_LIST_KEYWORDS)[number]>(["allOf"]);
const UNION_LIST: ReadonlySet<string> = new Set<(typeof ANY_SCHEMA_LIST_KEYWORDS)[number]>(["anyOf", "oneOf"]);
/** Every other subschema keyword: below it, nothing is called. */
const ANY_ONE: ReadonlySet<string> = new Set(ANY_SCHEMA_KEYWORDS);
const ANY_LIST: ReadonlySet<string> = new Set(ANY_SCHEMA_LIST_KEYWORDS);
const ANY_MAP: ReadonlySet<string> = new Set(ANY_SCHEMA_MAP_KEYWORDS);
const UNEVALUATED = ["unevaluatedProperties", "unevaluatedItems"];

/** A `$ref` node as a call, or undefined to leave it a reference. */
export type CallAt = (node: JsonObject, place: Place) => JsonObject | undefined;

/** The worse of two places: blocked wins, then each flag. */
function worse(a: At | undefined, b: At): At {
  if (a === undefined) return b;
  if (a === BLOCKED || b === BLOCKED) return BLOCKED;
  return { belowUnion: a.belowUnion || b.belowUnion, evaluated: a.evaluated || b.evaluated };
}

const same = (a: At | undefined, b: At): boolean =>
  a !== undefined && (a === b || (a !== BLOCKED && b !== BLOCKED && a.belowUnion === b.belowUnion && a.evaluated === b.evaluated));

/**
 * `schema` with each `$ref` that `callAt` turns into a call replaced, at
 * the root and in the `$defs` entries it reaches (when `followDefs`).
 * `compiled` is the schema as Ajv compiles it in place (inlineRefs' copy),
 * where tagged unions are found; without it, no union is entered.
 */
export function withCallsAt(schema: JsonObject, compiled: JsonSchema | undefined, resolve: RefResolver, callAt: CallAt, followDefs: boolean): JsonObject {
  const defs = isJsonObject(schema["$defs"]) ? schema["$defs"] : {};
  const compiledDefs = isJsonObject(compiled) && isJsonObject(compiled["$defs"]) ? compiled["$defs"] : {};
  const places = new Map<string, At>();
  const pending: string[] = [];
  const reach = (entry: string, at: At): void => {
    if (!Object.hasOwn(defs, entry)) return;
    const known = places.get(entry);
    const next = followDefs ? worse(known, at) : BLOCKED;
    if (same(known, next)) return;
    places.set(entry, next);
    pending.push(entry);
  };

  const walk = (node: unknown, twin: unknown, at: At): unknown => {
    if (Array.isArray(node)) return node;
    if (!isJsonObject(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const call = at === BLOCKED ? undefined : callAt(node, at);
      if (call !== undefined) return call;
    }
    const here: At = at !== BLOCKED && UNEVALUATED.some((k) => Object.hasOwn(node, k)) ? { ...at, evaluated: true } : at;
    const child: At = here === BLOCKED ? BLOCKED : { belowUnion: here.belowUnion, evaluated: false };
    const mirror = isJsonObject(twin) ? twin : undefined;
    const tagged = mirror === undefined || taggedUnion(mirror, resolve) !== undefined;
    const twinOf = (key: string): unknown => (mirror !== undefined && Object.hasOwn(mirror, key) ? mirror[key] : undefined);
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      const other = twinOf(key);
      const list = (to: At): JsonSchema[] => (value as unknown[]).map((s, i) => walk(s, Array.isArray(other) ? other[i] : undefined, to) as JsonSchema);
      if (key === "$ref") {
        const entry = defsEntryName(value);
        if (entry !== undefined) reach(entry, here);
        out[key] = value;
      } else if (key === "$defs") out[key] = value;
      else if (CHILD_ONE.has(key) && isJsonObject(value)) out[key] = walk(value, other, child) as JsonObject;
      else if (CHILD_LIST.has(key) && Array.isArray(value)) out[key] = list(child);
      else if (IN_PLACE_LIST.has(key) && Array.isArray(value)) out[key] = list(here);
      else if (UNION_LIST.has(key) && Array.isArray(value)) out[key] = list(here === BLOCKED || tagged ? BLOCKED : { ...here, belowUnion: true });
      else if (CHILD_MAP.has(key) && isJsonObject(value)) out[key] = map(value, other, child);
      else if (ANY_ONE.has(key) && isJsonObject(value)) out[key] = walk(value, other, BLOCKED) as JsonObject;
      else if (ANY_LIST.has(key) && Array.isArray(value)) out[key] = list(BLOCKED);
      else if (ANY_MAP.has(key) && isJsonObject(value)) out[key] = map(value, other, BLOCKED);
      else out[key] = value;
    }
    return out;
  };
  const map = (value: JsonObject, twin: unknown, at: At): JsonObject => {
    const others = isJsonObject(twin) ? twin : {};
    return Object.fromEntries(
      Object.entries(value).map(([name, s]) => [name, walk(s, Object.hasOwn(others, name) ? others[name] : undefined, at)]),
    ) as JsonObject;
  };

  const root = walk(schema, compiled, { belowUnion: false, evaluated: false }) as JsonObject;
  // Each entry is rewritten again whenever a place that refers to it turns out worse; the last rewrite is for its worst place.
  const rewritten = new Map<string, JsonSchema>();
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const at = places.get(entry)!;
    const value = walk(defs[entry], compiledDefs[entry], at) as JsonSchema;
    if (at === BLOCKED) rewritten.delete(entry);
    else rewritten.set(entry, value);
  }
  if (rewritten.size === 0) return root;
  const entries = Object.entries(defs).map(([name, value]) => [name, rewritten.get(name) ?? value]);
  return { ...root, $defs: Object.fromEntries(entries) as JsonObject };
}
