/**
 * The search for a witness: a value that one side accepts and the other
 * refuses, which shows that a change breaks callers. Candidates are built
 * from both nodes (each bound, and one step past it; each length; strings
 * that match each pattern; each format's samples; objects with and without
 * each property; arrays at each length), and the real validators decide.
 * Where the comparison cannot prove a change compatible, a witness makes it
 * breaking; without one it stays undecided.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import { type Piece, type SchemaSide } from "./nodes.js";
import { patternSamples } from "./patterns.js";
import { accepts, type Direction } from "./validate.js";
import { defsEntryName } from "../schema/refs.js";
import { isJsonObject } from "../schema/json.js";

const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  "date-time": ["2026-03-01T12:00:00Z", "2024-02-29T00:00:00.5+05:30"],
  date: ["2026-03-01", "2024-02-29"],
  time: ["12:00:00Z", "23:59:59.5+01:00"],
  duration: ["P1D", "PT1H30M"],
  uuid: ["0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10"],
  uri: ["https://example.com/a?b=c#d", "urn:isbn:0451450523"],
  "uri-reference": ["/relative/path", "#frag"],
  email: ["a@example.com"],
  hostname: ["example.com", "localhost"],
  ipv4: ["127.0.0.1"],
  ipv6: ["::1"],
  regex: ["^a+$"],
  "json-pointer": ["/a/b", ""],
};

const PLAIN_STRINGS = ["", "a", "ab", "A", "0", "abc", " ", "-", "é", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"];
const PLAIN_NUMBERS = [0, 1, -1, 2, 0.5, -0.5, 2.5, 10, 100, 1e6, -1e6, 3];

interface Gen {
  readonly root: JsonObject;
  readonly limit: number;
}

function resolved(schema: JsonSchema, gen: Gen, seen: readonly string[]): { node: JsonObject | boolean; seen: readonly string[] } {
  let node: JsonSchema = schema;
  let chain = seen;
  while (isJsonObject(node)) {
    const name = defsEntryName(node.$ref);
    if (name === undefined || chain.includes(name) || chain.length > 12) break;
    const target = (gen.root.$defs as JsonObject | undefined)?.[name] as JsonSchema | undefined;
    if (target === undefined) break;
    const { $ref: _ref, ...siblings } = node;
    node = isJsonObject(target) ? { ...target, ...siblings } : target;
    chain = [...chain, name];
  }
  return { node, seen: chain };
}

function typesOf(node: JsonObject): string[] {
  const t = node.type;
  return typeof t === "string" ? [t] : Array.isArray(t) ? (t as string[]) : ["null", "boolean", "integer", "number", "string", "array", "object"];
}

function numbers(node: JsonObject): number[] {
  const out = new Set<number>(PLAIN_NUMBERS);
  const step = typeof node.multipleOf === "number" ? node.multipleOf : undefined;
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    const v = node[key];
    if (typeof v !== "number") continue;
    for (const d of [0, 1, -1, 0.5, -0.5, 2, -2]) out.add(v + d);
    if (step !== undefined) for (const k of [-1, 0, 1, 2]) out.add(Math.round(v / step + k) * step);
  }
  if (step !== undefined) for (const k of [1, 2, 3, -1, 7]) out.add(Number((k * step).toPrecision(12)));
  return [...out].filter(Number.isFinite);
}

function strings(node: JsonObject): string[] {
  const out = new Set<string>(PLAIN_STRINGS);
  if (typeof node.format === "string") for (const s of FORMAT_SAMPLES[node.format] ?? []) out.add(s);
  if (typeof node.pattern === "string") for (const s of patternSamples(node.pattern)) out.add(s);
  for (const key of ["minLength", "maxLength"]) {
    const n = node[key];
    if (typeof n !== "number" || n > 200) continue;
    for (const len of [n - 1, n, n + 1])
      if (len >= 0) for (const base of [...out].filter((s) => s.length > 0).slice(0, 6)) out.add(base.repeat(Math.ceil(len / base.length) + 1).slice(0, len));
  }
  return [...out];
}

function arrays(node: JsonObject, gen: Gen, depth: number, seen: readonly string[]): JsonValue[] {
  const prefix = Array.isArray(node.prefixItems) ? (node.prefixItems as JsonSchema[]) : [];
  const itemSchema = node.items === undefined ? true : (node.items as JsonSchema);
  const tuple = prefix.map((s) => values(s, gen, depth + 1, seen).slice(0, 4));
  const unique = node.uniqueItems === true;
  const items = itemSchema === false ? [] : values(itemSchema, gen, depth + 1, seen).slice(0, unique ? 20 : 6);
  const out: JsonValue[] = [[]];
  const head = tuple.map((vs) => vs[0] ?? null);
  for (let i = 0; i < tuple.length; i++) for (const v of tuple[i] ?? []) out.push(head.map((h, j) => (j === i ? v : h)));
  out.push(head.slice(0, -1));
  for (const v of items.slice(0, 6)) out.push([...head, v], [...head, v, v]);
  if (items.length >= 2) out.push([...head, items[0] as JsonValue, items[1] as JsonValue]);
  // Unique items: the first candidate beside each other one, which may differ only where a client drops something.
  if (unique) for (const v of items.slice(2)) out.push([...head, items[0] as JsonValue, v]);
  for (const key of ["minItems", "maxItems"]) {
    const n = node[key];
    if (typeof n === "number" && n <= 20)
      for (const len of [n - 1, n, n + 1])
        if (len >= 0)
          out.push(Array.from({ length: len }, (_, i) => (i < head.length ? head[i] : (items[i % Math.max(items.length, 1)] ?? null)) as JsonValue));
  }
  return out;
}

function objects(node: JsonObject, gen: Gen, depth: number, seen: readonly string[]): JsonValue[] {
  const props = isJsonObject(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const choices = new Map(Object.entries(props).map(([name, s]) => [name, values(s as JsonSchema, gen, depth + 1, seen).slice(0, 5)]));
  const base: JsonObject = {};
  for (const name of required) base[name] = (choices.get(name)?.[0] ?? null) as JsonValue;
  const out: JsonValue[] = [base, {}];
  const full: JsonObject = { ...base };
  for (const [name, vs] of choices) {
    if (vs[0] !== undefined) full[name] = vs[0];
    for (const v of vs) out.push({ ...base, [name]: v });
    if (required.has(name)) {
      const { [name]: _dropped, ...without } = base;
      out.push(without);
    }
  }
  out.push(full);
  const extra = node.additionalProperties;
  const extraValues = isJsonObject(extra) ? values(extra, gen, depth + 1, seen).slice(0, 3) : ["x", 1, null];
  for (const v of extraValues) out.push({ ...base, zz: v as JsonValue });
  out.push(...countedObjects(node, base, choices, extraValues[0] ?? null));
  return out;
}

/** One-letter names, which a `propertyNames` of short names still allows, for padding an object with undeclared properties. */
const SPARE_NAMES = [..."abcdefghijklmnopqrstuvwxyz"];

/**
 * Objects of each size up to `maxProperties` (or just past `minProperties`),
 * from the required properties, padded first with declared optional ones and
 * then with undeclared ones: the sizes at which a count bound decides, where
 * a default filled in or a property dropped moves a value across it.
 */
function countedObjects(node: JsonObject, base: JsonObject, choices: ReadonlyMap<string, JsonValue[]>, extraValue: JsonValue): JsonObject[] {
  const max = typeof node.maxProperties === "number" ? node.maxProperties : typeof node.minProperties === "number" ? node.minProperties + 1 : undefined;
  if (max === undefined || max > 8) return [];
  const optional = [...choices].filter(([name, vs]) => !(name in base) && vs[0] !== undefined).map(([name, vs]) => [name, vs[0] as JsonValue] as const);
  const spare = SPARE_NAMES.filter((name) => !choices.has(name)).map((name) => [name, extraValue] as const);
  const out: JsonObject[] = [];
  for (const padding of [optional, spare, [...optional, ...spare]]) {
    for (let size = Object.keys(base).length + 1; size <= max; size++) {
      const added = padding.slice(0, size - Object.keys(base).length);
      if (added.length < size - Object.keys(base).length) break;
      out.push({ ...base, ...Object.fromEntries(added) });
    }
  }
  return out;
}

function values(schema: JsonSchema, gen: Gen, depth: number, seen: readonly string[]): JsonValue[] {
  const { node, seen: chain } = resolved(schema, gen, seen);
  if (node === false) return [];
  if (node === true || depth > 4) return [null, true, 0, 1.5, "", "a", [], {}];
  if ("const" in node) return [node.const as JsonValue];
  if (Array.isArray(node.enum)) return node.enum as JsonValue[];
  const out: JsonValue[] = [];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const { [key]: _list, ...holder } = node;
    for (const branch of list) {
      const b = resolved(branch as JsonSchema, gen, chain).node;
      out.push(...values(isJsonObject(b) ? mergeShallow(holder, b) : (b as JsonSchema), gen, depth + 1, chain));
    }
    if (key === "allOf")
      out.push(
        ...values(
          list.reduce<JsonObject>((acc, b) => mergeShallow(acc, resolved(b as JsonSchema, gen, chain).node as JsonObject), holder),
          gen,
          depth + 1,
          chain,
        ),
      );
    return out;
  }
  const perType = typesOf(node).map((type): JsonValue[] => {
    if (type === "null") return [null];
    if (type === "boolean") return [true, false];
    if (type === "integer") return numbers(node).filter(Number.isInteger);
    if (type === "number") return numbers(node);
    if (type === "string") return strings(node);
    if (type === "array") return arrays(node, gen, depth, chain);
    if (type === "object") return objects(node, gen, depth, chain);
    return [];
  });
  // Round robin over the types, so the first few candidates already cover each of them.
  for (let k = 0; perType.some((list) => k < list.length); k++) for (const list of perType) if (k < list.length) out.push(list[k] as JsonValue);
  return out.slice(0, gen.limit);
}

function mergeShallow(a: JsonObject, b: JsonObject | boolean): JsonObject {
  if (!isJsonObject(b)) return a;
  const out: JsonObject = { ...a, ...b };
  if (isJsonObject(a.properties) || isJsonObject(b.properties))
    out.properties = { ...(isJsonObject(a.properties) ? a.properties : {}), ...(isJsonObject(b.properties) ? b.properties : {}) };
  const required = [...(Array.isArray(a.required) ? a.required : []), ...(Array.isArray(b.required) ? b.required : [])];
  if (required.length > 0) out.required = required;
  return out;
}

/** Candidate values for a node, from its own schema as served. */
function candidates(pieces: readonly Piece[], side: SchemaSide, limit = 200): JsonValue[] {
  const gen: Gen = { root: side.root, limit };
  return pieces.flatMap((p) => values(p.schema, gen, 0, []));
}

/**
 * A value callers of the base produce that the head refuses (input), or one
 * the head produces that base clients refuse (output); undefined when none
 * of the candidates is one.
 */
export function findWitness(base: SchemaSide, b: readonly Piece[], head: SchemaSide, h: readonly Piece[], direction: Direction): JsonValue | undefined {
  const [fromSide, from, toSide, to] = direction === "input" ? [base, b, head, h] : [head, h, base, b];
  const seen = new Set<string>();
  for (const value of [...candidates(from, fromSide), ...candidates(to, toSide)]) {
    const key = JSON.stringify(value);
    if (seen.has(key)) continue;
    seen.add(key);
    if (accepts(fromSide, from, direction, value) !== true) continue;
    if (accepts(toSide, to, direction, value, direction === "output") === false) return value;
  }
  return undefined;
}
