/**
 * A JSON Schema (toolc's subset) → fast-check arbitrary. It aims at values the
 * schema accepts, but it is allowed to miss: every consumer filters the
 * samples through the real validator, so an approximation here can only cost
 * samples, never make a check wrong. What it must not do is avoid a region of
 * the schema (a branch, an optional property, a type in a type array), since
 * that region would then go untested.
 */
import fc from "fast-check";

type Schema = boolean | { [key: string]: unknown };
type Obj = { [key: string]: unknown };
type Arb = fc.Arbitrary<unknown>;

/** Valid samples for the formats toolc checks; the validator drops any it disagrees with. */
export const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  "date-time": ["2026-03-01T12:00:00Z", "1990-12-31T23:59:60Z", "2024-02-29T00:00:00.123+05:30", "2026-01-01t10:00:00z"],
  date: ["2026-03-01", "2024-02-29", "1999-12-31"],
  time: ["12:00:00Z", "23:59:59.5+01:00"],
  duration: ["P1D", "PT1H30M", "P1Y2M3DT4H5M6S", "P2W"],
  uuid: ["0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10", "00000000-0000-0000-0000-000000000000", "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"],
  uri: ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@example.com"],
  "uri-reference": ["/relative/path", "https://example.com", "#frag", ""],
  email: ["a@example.com", "first.last+tag@sub.example.org"],
  hostname: ["example.com", "a-b.c", "localhost"],
  ipv4: ["127.0.0.1", "255.255.255.255"],
  ipv6: ["::1", "2001:db8::ff00:42:8329"],
  regex: ["^a+$", "[0-9]{3}"],
  "json-pointer": ["", "/a/b", "/a~1b/0"],
  "relative-json-pointer": ["0", "1/a", "2#"],
};

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Object keys that have tripped JS code before; mixed into open objects. */
const TRICKY_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "", "a.b", "[0]"];

/** Builds an object with own data properties only, so `__proto__` stays a key. */
export function ownObject(entries: readonly (readonly [string, unknown])[]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export class SchemaArbitraries {
  constructor(
    private readonly root: Obj,
    private readonly maxDepth = 4,
  ) {}

  /** The arbitrary for the root schema. */
  root$(): Arb {
    return this.of(this.root, 0);
  }

  of(schema: Schema | undefined, depth: number): Arb {
    if (schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 });
    if (schema === false) return fc.constant(null);
    if (depth > this.maxDepth) return fc.constant(null);
    if (typeof schema.$ref === "string") return this.ref(schema, depth);
    if ("const" in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
    for (const key of ["anyOf", "oneOf"]) if (Array.isArray(schema[key])) return this.branches(schema, key, depth);
    if (Array.isArray(schema.allOf)) return this.of(mergeAllOf(schema), depth);
    const types = typesOf(schema);
    if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
    return fc.oneof(...types.map((t) => this.typed(t, schema, depth)));
  }

  /** `$ref: "#/$defs/X"` (all toolc emits); siblings of `$ref` are merged in. */
  private ref(schema: Obj, depth: number): Arb {
    const key = /^#\/\$defs\/(.+)$/.exec(schema.$ref as string)?.[1];
    const defs = (this.root.$defs ?? {}) as Obj;
    const target = key === undefined ? undefined : (defs[decodeURIComponent(key)] as Schema | undefined);
    if (target === undefined) return fc.jsonValue({ maxDepth: 2 });
    const { $ref: _ref, ...rest } = schema;
    const merged = typeof target === "object" && Object.keys(rest).length > 0 ? { ...target, ...rest } : target;
    return this.of(merged, depth + 1);
  }

  /** One arbitrary per branch, each merged with the parent's other keywords. */
  private branches(schema: Obj, key: string, depth: number): Arb {
    const { [key]: list, ...rest } = schema;
    const arbs = (list as Schema[]).map((b) => this.of(typeof b === "object" ? { ...rest, ...b } : b, depth));
    return arbs.length === 0 ? fc.constant(null) : fc.oneof(...arbs);
  }

  private typed(type: string, s: Obj, depth: number): Arb {
    switch (type) {
      case "null": return fc.constant(null);
      case "boolean": return fc.boolean();
      case "integer": return integer(s);
      case "number": return fc.oneof(integer(s), double(s));
      case "string": return string(s);
      case "array": return this.array(s, depth);
      case "object": return this.object(s, depth);
      default: return fc.constant(null);
    }
  }

  private array(s: Obj, depth: number): Arb {
    const minLength = num(s.minItems) ?? 0;
    const maxLength = Math.min(num(s.maxItems) ?? minLength + 4, minLength + 4);
    const item = s.items === false ? undefined : this.of(s.items as Schema | undefined, depth + 1);
    if (!Array.isArray(s.prefixItems)) return item ? fc.array(item, { minLength, maxLength }) : fc.constant([]);
    const prefix = fc.tuple(...(s.prefixItems as Schema[]).map((p) => this.of(p, depth + 1)));
    const rest = item ? fc.array(item, { maxLength: 2 }) : fc.constant([]);
    // Any length from 0 up: shorter-than-prefix arrays are valid too.
    return fc.tuple(prefix, rest, fc.nat({ max: (s.prefixItems as unknown[]).length + 2 })).map(([p, r, n]) => [...p, ...r].slice(0, Math.max(n, minLength)));
  }

  private object(s: Obj, depth: number): Arb {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const declared = Object.entries(props).map(([k, sub]) =>
      fc.tuple(fc.constant(k), this.of(sub, depth + 1), required.has(k) ? fc.constant(true) : fc.boolean()),
    );
    const extra = this.extraEntries(s, depth);
    return fc.tuple(fc.tuple(...declared), extra).map(([entries, more]) =>
      ownObject([...entries.filter(([, , present]) => present).map(([k, v]) => [k, v] as const), ...more]),
    );
  }

  /** Extra keys: only where additionalProperties allows them, tricky names included. */
  private extraEntries(s: Obj, depth: number): fc.Arbitrary<(readonly [string, unknown])[]> {
    const extra = s.additionalProperties;
    if (extra === false || s.unevaluatedProperties === false) return fc.constant([]);
    const value = this.of(extra as Schema | undefined, depth + 1);
    const key = fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 6 }));
    return fc.array(fc.tuple(key, value), { maxLength: 3 });
  }
}

function typesOf(s: Obj): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  if ("properties" in s || "required" in s || "additionalProperties" in s) return ["object"];
  if ("items" in s || "prefixItems" in s) return ["array"];
  if ("minLength" in s || "maxLength" in s || "pattern" in s || "format" in s) return ["string"];
  if ("minimum" in s || "maximum" in s || "multipleOf" in s) return ["number"];
  return [];
}

/** `allOf` folded into one schema: properties and required united (good enough to aim at). */
function mergeAllOf(s: Obj): Obj {
  const { allOf, ...rest } = s;
  let out: Obj = rest;
  for (const b of allOf as Schema[]) {
    if (typeof b !== "object") continue;
    const props = { ...((out.properties ?? {}) as Obj), ...((b.properties ?? {}) as Obj) };
    const required = [...((out.required ?? []) as string[]), ...((b.required ?? []) as string[])];
    out = { ...out, ...b, properties: props, required };
  }
  return out;
}

function bounds(s: Obj): { min?: number; max?: number } {
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  const min = num(s.minimum) ?? (exMin === undefined ? undefined : exMin + 1e-9);
  const max = num(s.maximum) ?? (exMax === undefined ? undefined : exMax - 1e-9);
  return { min, max };
}

function integer(s: Obj): Arb {
  const { min, max } = bounds(s);
  const step = num(s.multipleOf);
  const lo = Math.ceil(min ?? -1e6);
  const hi = Math.floor(max ?? Math.max(lo, 0) + 1e6);
  if (lo > hi) return fc.constant(lo);
  if (step !== undefined && step > 0) return fc.integer({ min: Math.ceil(lo / step), max: Math.max(Math.ceil(lo / step), Math.floor(hi / step)) }).map((n) => n * step);
  return fc.oneof(fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
}

function double(s: Obj): Arb {
  const { min, max } = bounds(s);
  return fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d));
}

function string(s: Obj): Arb {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = Math.min(num(s.maxLength) ?? minLength + 12, minLength + 40);
  if (typeof s.format === "string" && FORMAT_SAMPLES[s.format]) return fc.constantFrom(...FORMAT_SAMPLES[s.format]);
  if (typeof s.pattern === "string") return patternString(s.pattern, s.examples);
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: "grapheme" }),
    fc.string({ minLength, maxLength, unit: "binary" }),
  );
}

/** Strings matching a pattern: fast-check's regex generator, else the schema's examples, else anything. */
function patternString(pattern: string, examples: unknown): Arb {
  try {
    return fc.stringMatching(new RegExp(pattern, "u"));
  } catch {
    const samples = Array.isArray(examples) ? examples.filter((e): e is string => typeof e === "string") : [];
    return samples.length > 0 ? fc.constantFrom(...samples) : fc.string();
  }
}
