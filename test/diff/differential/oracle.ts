/**
 * The semantic oracle, run with the validators toolc ships: a change to
 * input breaks callers when a value valid under the base (after its
 * defaults) is invalid under the head (after its defaults); a change to
 * output breaks them when a value valid under the head is invalid under the
 * base once a base client has dropped the properties it does not know. The
 * oracle looks for such a value (a witness) among values sampled from both
 * schemas, those values mutated (each property removed, set to a boundary
 * value, or added), the schemas' boundary values, and strings generated for
 * their patterns. It shares no code with toolc diff's own witness search.
 */
import fc from "fast-check";
import type { ValidateFunction } from "ajv";
import { sharedAjv } from "../../../generator/ajv-shared.js";
import { withDiscriminators } from "../../../generator/discriminators.js";
import type { JsonObject } from "../../../generator/ir.js";
import { dropUnknownProperties } from "../../../generator/runtime/unknown-properties.js";
import { FORMAT_SAMPLES, SchemaArbitraries } from "../../soundness/schema-arbitrary.js";

export type Direction = "input" | "output";

/**
 * The validators toolc compiled for the served schema when it normalized the
 * contract (input applies defaults, output does not): with the tag of each
 * tagged union read by Ajv's discriminator, as everywhere toolc compiles (so
 * a default inside a tagged branch is filled in), and cached by the schema
 * object in both steps, so this is the very function toolc checked the
 * contract's examples with.
 */
function compile(schema: JsonObject, direction: Direction): ValidateFunction {
  return sharedAjv({ applyDefaults: direction === "input" }).compile(withDiscriminators(schema) as JsonObject);
}

const patternCache = new Map<string, string[]>();

/** Strings fast-check generates for a pattern, a few per pattern, made once. */
function patternStrings(pattern: string): string[] {
  let strings = patternCache.get(pattern);
  if (strings === undefined) {
    strings = fc.sample(fc.stringMatching(new RegExp(pattern, "u")), { numRuns: 6, seed: 3 });
    patternCache.set(pattern, strings);
  }
  return strings;
}

/** Every number, string and other leaf value the schemas mention, and the values just past each bound. */
function boundaryValues(schemas: readonly unknown[]): unknown[] {
  const out = new Set<unknown>([null, true, false, 0, 1, -1, 0.5, 2.5, 1e9, "", "a", "zz", "A", "0", [], {}]);
  const strings = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const o = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(o)) {
      if (typeof value === "number" && ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].includes(key)) for (const d of [-1, -0.5, 0, 0.5, 1]) out.add(value + d);
      if (key === "multipleOf" && typeof value === "number") for (const k of [1, 2, 3, 5, 7]) out.add(value * k);
      if ((key === "minLength" || key === "maxLength") && typeof value === "number") for (const n of [value - 1, value, value + 1]) if (n >= 0) strings.add("a".repeat(n));
      if (key === "enum" && Array.isArray(value)) value.forEach((v) => out.add(v));
      if (key === "const") out.add(value);
      if (key === "format" && typeof value === "string") for (const s of FORMAT_SAMPLES[value] ?? []) strings.add(s);
      if (key === "pattern" && typeof value === "string") for (const s of patternStrings(value)) strings.add(s);
      visit(value);
    }
  };
  schemas.forEach(visit);
  return [...out, ...strings];
}

/** Each value with one change made somewhere inside it: a property removed, set to a leaf, or added; an item dropped or repeated. */
function mutations(value: unknown, leaves: readonly unknown[], names: ReadonlyMap<string, readonly unknown[]>, depth = 0): unknown[] {
  if (depth > 3 || value === null || typeof value !== "object") return [];
  const out: unknown[] = [];
  if (Array.isArray(value)) {
    if (value.length > 0) out.push(value.slice(1), [...value, value[0]]);
    value.forEach((item, i) => {
      for (const m of mutations(item, leaves, names, depth + 1)) out.push(value.map((x, j) => (j === i ? m : x)));
      for (const leaf of leaves.slice(0, 12)) out.push(value.map((x, j) => (j === i ? leaf : x)));
    });
    return out;
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const { [key]: _gone, ...without } = o;
    out.push(without);
    for (const leaf of leaves) out.push({ ...o, [key]: leaf });
    for (const m of mutations(o[key], leaves, names, depth + 1)) out.push({ ...o, [key]: m });
  }
  for (const [name, values] of names) {
    for (const v of values) out.push({ ...o, [name]: v });
    if (!(name in o)) for (const leaf of leaves.slice(0, 6)) out.push({ ...o, [name]: leaf });
  }
  return out;
}

/** Values aimed at a schema; none where the arbitrary cannot be built (bounds that contradict each other). */
function samplesOf(schema: JsonObject, runs: number, seed: number): unknown[] {
  try {
    return fc.sample(new SchemaArbitraries(schema as never, 6).root$(), { numRuns: runs, seed });
  } catch {
    return [];
  }
}

/**
 * The schema with every declared property required and every array given an
 * item, and, when `closed`, no property it does not declare: values aimed at
 * it reach every optional path, deep ones included, without the undeclared
 * extras that would break a `maxProperties` or `propertyNames` (the real
 * validator still decides whether each one is valid).
 */
function everythingPresent(schema: unknown, closed: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => everythingPresent(s, closed));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) out[key] = key === "enum" || key === "const" || key === "default" ? value : everythingPresent(value, closed);
  const props = out.properties;
  if (props !== null && typeof props === "object" && !Array.isArray(props)) {
    out.required = Object.keys(props);
    if (closed && out.additionalProperties !== undefined) out.additionalProperties = false;
  }
  if (out.type === "array" && out.items !== undefined && out.items !== false && typeof out.minItems !== "number") out.minItems = 1;
  return out;
}

/** Values for each property name the schema declares anywhere, sampled from that property's own schema. */
function propertyValues(schema: JsonObject, seed: number): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const defs = schema.$defs;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const props = (node as Record<string, unknown>).properties;
    if (props !== null && typeof props === "object" && !Array.isArray(props)) {
      for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
        if (sub === null || typeof sub !== "object") continue;
        const values = samplesOf({ ...(sub as JsonObject), ...(defs === undefined ? {} : { $defs: defs }) }, 6, seed);
        out.set(name, [...(out.get(name) ?? []), ...values].slice(0, 12));
      }
    }
    for (const value of Object.values(node as Record<string, unknown>)) visit(value);
  };
  visit(schema);
  return out;
}

/** Candidates checked per direction at most: the cost of a pair stays bounded. */
const MAX_TRIES = 2000;

export interface OracleVerdict {
  readonly witness?: unknown;
  readonly tried: number;
}

/**
 * A value that shows `direction` breaks, or none among the candidates. `base`
 * and `head` are the served schemas.
 */
export function findWitness(base: JsonObject, head: JsonObject, direction: Direction, seed: number): OracleVerdict {
  const [from, to] = direction === "input" ? [base, head] : [head, base];
  const validFrom = compile(from, direction);
  const validTo = compile(to, direction);
  const accepted = (v: unknown): boolean => validFrom(structuredClone(v)) === true;
  const refused = (v: unknown): boolean => {
    const copy = structuredClone(v);
    if (direction === "output") dropUnknownProperties(base as never, copy);
    return validTo(copy) !== true;
  };
  const sampled = [
    ...samplesOf(from, 30, seed),
    ...samplesOf(everythingPresent(from, true) as JsonObject, 20, seed + 2),
    ...samplesOf(everythingPresent(from, false) as JsonObject, 10, seed + 4),
    ...samplesOf(to, 15, seed + 1),
    ...samplesOf(everythingPresent(to, true) as JsonObject, 10, seed + 3),
  ].filter((v) => JSON.stringify(v) !== undefined);
  let tried = 0;
  const check = (v: unknown): boolean => {
    tried++;
    return tried <= MAX_TRIES && accepted(v) && refused(v);
  };
  for (const v of sampled) if (check(v)) return { witness: v, tried };
  const leaves = boundaryValues([from, to]);
  for (const v of leaves) if (check(v)) return { witness: v, tried };
  const names = new Map([...propertyValues(to, seed), ...propertyValues(from, seed)]);
  names.set("zz", []);
  const valid = sampled.filter(accepted).sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, 12);
  for (const v of valid) {
    for (const m of mutations(v, leaves, names)) if (check(m)) return { witness: m, tried };
    if (tried > MAX_TRIES) return { tried };
  }
  // Two changes at once, fewer of them: a value may need one property removed and another changed.
  for (const v of valid.slice(0, 4)) {
    for (const m of mutations(v, leaves.slice(0, 10), names).slice(0, 60)) for (const mm of mutations(m, leaves.slice(0, 6), new Map()).slice(0, 20)) if (check(mm)) return { witness: mm, tried };
    if (tried > MAX_TRIES) return { tried };
  }
  return { tried };
}
