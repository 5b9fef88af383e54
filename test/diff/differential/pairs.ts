/**
 * Random contract pairs for the differential test: a base contract (a tool
 * and a types file whose named types its input and output share), written
 * over toolc's whole keyword subset and nested, with defaults at any depth,
 * `x-mcp-header` on top-level input properties, and outputs that are not
 * always objects; and a head made from it by one to three edits of the kinds
 * contracts see: properties, requiredness and defaults (added, changed,
 * removed), headers, types, enums and consts, bounds and multiples
 * (`minProperties` among them), patterns and formats, tuples and items,
 * closed and open objects, union branches and `allOf` parts, and rewrites
 * that change nothing (equivalent bounds,
 * `multipleOf: 1` for integer, a nullable type list as a union, an object as
 * an `allOf` of its parts, an inlined named type).
 */
import fc from "fast-check";
import { sharedAjv } from "../../../generator/ajv-shared.js";
import { FORMAT_LENGTHS } from "../../../generator/normalize/format-lengths.js";
import { defaultFor } from "./defaults.js";

export type Obj = { [key: string]: unknown };

export interface Contract {
  readonly input: Obj;
  readonly output: Obj;
  readonly types: Obj;
}

export interface Pair {
  readonly base: Contract;
  readonly head: Contract;
  readonly edits: readonly string[];
}

const PATTERNS = ["^[a-z]+$", "^[a-z0-9]+$", "^[a-f]+$", "^a", "^ab", "^[0-9]{3}$", "^[0-9]{2,4}$", "b$", "^(ord|inv)_[0-9]+$", "^ord_[0-9]+$", "^[A-Z][a-z]*$"];
const FORMATS = ["date", "date-time", "email", "uuid", "uri", "uri-reference"];
/**
 * Decimal steps join the integers and binary fractions once the validators
 * decide decimal multiples exactly (19.99 is a multiple of 0.01): until then
 * the oracle would count their float rounding as a break.
 */
const EXACT_DECIMALS = sharedAjv({ applyDefaults: false }).compile({ type: "number", multipleOf: 0.01 })(19.99) === true;
const STEPS = [1, 2, 3, 4, 6, 0.5, 0.25, ...(EXACT_DECIMALS ? [0.1, 0.01, 0.3] : [])];
const NAMES = ["p", "q", "r"];
const WORDS = ["a", "b", "c", "d"];

const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 2 });
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The shortest string a format allows: a maxLength below it lets nothing through, which toolc refuses (TC026). */
export const shortestOf = (format: unknown): number => (typeof format === "string" ? (FORMAT_LENGTHS[format]?.min ?? 0) : 0);

const stringLeaf = fc.record({ min: maybe(fc.integer({ min: 0, max: 3 })), max: maybe(fc.integer({ min: 3, max: 12 })), pattern: maybe(fc.constantFrom(...PATTERNS)), format: maybe(fc.constantFrom(...FORMATS)), nullable: fc.boolean() })
  .map(({ min, max, pattern, format, nullable }) => {
    const formatted = pattern ? undefined : format;
    return compact({ type: nullable ? ["string", "null"] : "string", minLength: min, maxLength: max === undefined ? undefined : Math.max(max, shortestOf(formatted)), pattern: format ? undefined : pattern, format: formatted });
  });

const numberLeaf = fc.record({ integer: fc.boolean(), low: maybe(fc.integer({ min: -5, max: 5 })), high: maybe(fc.integer({ min: 5, max: 40 })), exLow: fc.boolean(), exHigh: fc.boolean(), step: maybe(fc.constantFrom(...STEPS)), nullable: fc.boolean() })
  .map(({ integer, low, high, exLow, exHigh, step, nullable }) => {
    const type = integer ? "integer" : "number";
    return compact({ type: nullable ? [type, "null"] : type, [exLow ? "exclusiveMinimum" : "minimum"]: low, [exHigh ? "exclusiveMaximum" : "maximum"]: high, multipleOf: step });
  });

const ofType = (value: unknown, type: string): boolean =>
  type === "null" ? value === null : type === "integer" ? Number.isInteger(value) : type === "number" ? typeof value === "number" : typeof value === type;

// Values of other types beside `type` stay (the effective set is enum ∩ type); an enum none of whose values has the type is refused by toolc (TC026), so it is not generated.
const enumLeaf = fc.record({ values: fc.uniqueArray(fc.constantFrom<unknown>("a", "b", "c", null, 1, 2.5, true), { minLength: 1, maxLength: 4 }), type: maybe(fc.constantFrom<unknown>("string", ["string", "null"], "integer", "number", ["integer", "null"])) })
  .filter(({ values, type }) => type === undefined || values.some((v) => [type].flat().some((t) => ofType(v, t as string))))
  .map(({ values, type }) => compact({ type, enum: values }));

const constLeaf = fc.constantFrom<unknown>("a", 1, true, null).map((value) => ({ const: value }));

const titledEnum = fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { minLength: 2, maxLength: 3 }).chain((values) =>
  fc.constantFrom("oneOf", "anyOf").map((key) => ({ [key]: values.map((v) => ({ const: v, title: v.toUpperCase() })) })),
);

const leaf: fc.Arbitrary<Obj> = fc.oneof(
  { weight: 3, arbitrary: stringLeaf },
  { weight: 3, arbitrary: numberLeaf },
  { weight: 1, arbitrary: fc.constant({ type: "boolean" }) },
  { weight: 2, arbitrary: enumLeaf },
  { weight: 1, arbitrary: constLeaf },
  { weight: 1, arbitrary: titledEnum },
);

function objectOf(value: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> {
  return fc.record({
    properties: fc.dictionary(fc.constantFrom(...NAMES), value, { minKeys: 1, maxKeys: 3 }),
    extra: fc.constantFrom<unknown>(undefined, undefined, undefined, true, { type: "integer" }),
    names: maybe(fc.constant({ maxLength: 1 })),
    minProperties: maybe(fc.integer({ min: 1, max: 3 })),
    maxProperties: maybe(fc.integer({ min: 1, max: 4 })),
    pick: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  }).map(({ properties, extra, names, minProperties, maxProperties, pick }) => {
    const keys = Object.keys(properties);
    const required = keys.filter((_, i) => pick[i]);
    // Never below the required count, and never a minimum above what the object may hold: either accepts nothing, which toolc refuses (TC026).
    const max = maxProperties === undefined ? undefined : Math.max(maxProperties, required.length);
    const min = minProperties === undefined ? undefined : Math.min(minProperties, max ?? Infinity, extra === undefined ? keys.length : Infinity);
    return compact({ type: "object", properties, required, additionalProperties: extra, propertyNames: names, minProperties: min, maxProperties: max });
  });
}

function arrayOf(value: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> {
  const list = fc.record({ items: value, min: maybe(fc.integer({ min: 0, max: 2 })), max: maybe(fc.integer({ min: 1, max: 4 })), unique: fc.boolean() })
    .map(({ items, min, max, unique }) => compact({ type: "array", items, minItems: min, maxItems: max === undefined || min === undefined ? max : Math.max(min, max), uniqueItems: unique || undefined }));
  const tuple = fc.array(value, { minLength: 1, maxLength: 3 }).map((prefixItems) => ({ type: "array", prefixItems, items: false, minItems: prefixItems.length }));
  return fc.oneof({ weight: 3, arbitrary: list }, { weight: 1, arbitrary: tuple });
}

function unionOf(value: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> {
  const discriminated = fc.uniqueArray(fc.constantFrom("x", "y", "z"), { minLength: 2, maxLength: 3 }).chain((kinds) =>
    fc.tuple(...kinds.map((k) => value.map((v) => ({ type: "object", properties: { kind: { const: k }, v }, required: ["kind"] })))),
  );
  return fc.oneof(
    fc.record({ key: fc.constantFrom("anyOf", "oneOf"), branches: fc.array(value, { minLength: 2, maxLength: 3 }) }).map(({ key, branches }) => ({ [key]: branches })),
    fc.record({ key: fc.constantFrom("anyOf", "oneOf"), branch: value }).map(({ key, branch }) => ({ [key]: [branch, { type: "null" }] })),
    fc.record({ key: fc.constantFrom("anyOf", "oneOf"), branches: discriminated }).map(({ key, branches }) => ({ [key]: branches })),
  );
}

const allOfObject = (value: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> =>
  fc.tuple(objectOf(value), objectOf(value)).map(([a, b]) => ({ allOf: [strip(a), strip(b)] }));

/** An `allOf` part stays open (normalize closes the whole instead). */
function strip(o: Obj): Obj {
  const { additionalProperties: _a, propertyNames: _n, minProperties: _l, maxProperties: _m, ...rest } = o;
  return rest;
}

/** A schema of at most `depth` levels; `refs` may be named types to refer to. */
export function schema(depth: number, refs: readonly string[]): fc.Arbitrary<Obj> {
  const ref = refs.length === 0 ? [] : [{ weight: 2, arbitrary: fc.constantFrom(...refs).map((name) => ({ $ref: `types.yaml#/${name}` })) }];
  if (depth <= 0) return fc.oneof({ weight: 8, arbitrary: leaf }, ...ref);
  const inner = schema(depth - 1, refs);
  return fc.oneof(
    { weight: 6, arbitrary: leaf },
    { weight: 3, arbitrary: objectOf(inner) },
    { weight: 2, arbitrary: arrayOf(inner) },
    { weight: 2, arbitrary: unionOf(inner) },
    { weight: 1, arbitrary: allOfObject(inner) },
    ...ref,
  );
}

/** An output root of any kind: MCP's 2026-07-28 revision serves outputs that are not objects. */
const outputRoot = (value: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> =>
  fc.oneof({ weight: 6, arbitrary: objectOf(value) }, { weight: 1, arbitrary: arrayOf(value) }, { weight: 1, arbitrary: leaf }, { weight: 1, arbitrary: unionOf(value) });

/** A header name for an input property (`x-mcp-header`, MCP 2026-07-28), unique within the tool whatever the case. */
export const headerFor = (property: string, variant = "H"): string => `${variant}-${property}`;

/** The input root's properties an `x-mcp-header` may name: typed exactly string, integer or boolean, and not sensitive. */
export function headerCandidates(input: Obj): string[] {
  const props = (input.properties ?? {}) as Obj;
  return Object.keys(props).filter((name) => {
    const p = props[name] as Obj;
    return ["string", "integer", "boolean"].includes(p.type as string) && !("x-sensitive" in p);
  });
}

/**
 * Defaults on the properties of objects reached through `properties`,
 * `items` and `additionalProperties`, at any depth (not inside a union
 * branch or an `allOf` part, where a validator does not fill them in), each
 * taken when `take()` says so and a candidate fits.
 */
function addDefaults(node: unknown, take: () => boolean): void {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return;
  const o = node as Obj;
  const props = o.properties;
  if (props !== null && typeof props === "object") {
    for (const [name, sub] of Object.entries(props as Obj)) {
      addDefaults(sub, take);
      if (!take() || sub === null || typeof sub !== "object") continue;
      const value = defaultFor(sub as Obj);
      if (value !== undefined) (props as Obj)[name] = { ...(sub as Obj), default: value };
    }
  }
  addDefaults(o.items, take);
  addDefaults(o.additionalProperties, take);
}

/** The base contract: named types T and U, an input and an output that may both use them. */
export const contract: fc.Arbitrary<Contract> = fc
  .record({
    t: schema(2, []),
    u: objectOf(schema(1, ["T"])),
    input: objectOf(schema(2, ["T", "U"])),
    output: outputRoot(schema(2, ["T", "U"])),
    picks: fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
  })
  .map(({ t, u, input, output, picks }) => {
    let next = 0;
    // About one place in four, read off the picks in turn (and again from the start when there are more places than picks).
    const take = () => picks[next++ % picks.length] === true && picks[(next * 7) % picks.length] === true;
    addDefaults(input, take);
    addDefaults(t, take);
    addDefaults(u, take);
    const props = input.properties as Obj;
    for (const name of headerCandidates(input)) if (picks[next++ % picks.length] === true) props[name] = { ...(props[name] as Obj), "x-mcp-header": headerFor(name) };
    return { input, output, types: { T: t, U: u } };
  });

/** A base and `heads` edited copies of it: each base is compiled once for several pairs. */
export function pairs(heads: number): fc.Arbitrary<Pair[]> {
  const edits = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 });
  return contract.chain((base) =>
    fc.array(edits, { minLength: heads, maxLength: heads }).map((all) =>
      all.map((picks) => {
        const head = structuredClone(base) as Contract;
        const names: string[] = [];
        for (const [where, what, how] of picks) {
          const edit = applyRandomEdit(head, where, what, how);
          if (edit) names.push(edit);
        }
        return { base, head, edits: names };
      }),
    ),
  );
}

import { applyRandomEdit } from "./edits.js";
