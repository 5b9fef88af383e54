/**
 * Copy plans (runtime/copy-plan.ts): the schema-aware copy a tool uses from
 * its COPIES_FROM_CALL-th call, built from the schema its contract serves,
 * must give exactly what the generic walk of runtime/json.ts gives: the same
 * keys in the same order, the same values, null prototypes, and for values
 * that are not JSON the same failure (message, what, where). On generated
 * schemas (shapes, leaves, unions, `$ref`s into `$defs` that go round) with
 * values of their shape and hostile edits of them, and on the cases that
 * have broken copies before: cycles, the depth limit, values that are not
 * JSON inside typed properties, getters, objects with a prototype.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CopyJson, JsonSchemaObject } from "../../generator/runtime/contract.js";
import { copyPlan } from "../../generator/runtime/copy-plan.js";
import { copyJson, MAX_DEPTH } from "../../generator/runtime/json.js";
import { nested } from "../fuzz/hostile.js";
import { runs, timeoutFor } from "../fuzz/config.js";
import { ownObject } from "../soundness/schema-arbitrary.js";
import { compare, shaped } from "./copy-compare.js";

type Schema = JsonSchemaObject;
const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });

const ORDER: Schema = {
  type: "object",
  properties: {
    id: { type: "string" },
    status: { enum: ["pending", "paid"] },
    amountCents: { type: "integer", minimum: 0 },
    total: { type: "number" },
    placedAt: { type: "string", format: "date-time" },
    gift: { type: "boolean" },
    note: { type: ["string", "null"] },
  },
  required: ["id", "status"],
};
const NODE: Schema = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: ref("Node") } }, required: ["name"] };

const ORDERS_INPUT: Schema = {
  type: "object",
  properties: {
    customerId: { type: "string" },
    ...ownObject([["__proto__", { type: "string" }]]),
    constructor: { type: "integer" },
    'we"ird\\key': { type: "boolean" },
    empty: { type: "object", properties: {} },
    open: { type: "object" },
    matrix: { type: "array", items: { type: "array", items: { type: "integer" } } },
  },
  required: ["customerId"],
};
const ORDERS_OUTPUT: Schema = {
  type: "object",
  properties: {
    found: { type: "boolean" },
    orders: { type: "array", items: ref("Order") },
    best: { anyOf: [ref("Order"), { type: "null" }] },
    last: { type: ["object", "null"], properties: { order: ref("Order") } },
  },
  required: ["found", "orders"],
  $defs: { Order: ORDER },
};
/** Named types as a served schema carries them: aliases, a chain that goes round, types that refer to each other. */
const NAMED_DEFS: Record<string, Schema> = {
  Status: { enum: ["pending", "paid"] },
  Order: { ...ORDER, properties: { ...(ORDER["properties"] as object), status: ref("Status"), lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } } } },
  OrderRef: { ...ref("Order"), description: "an order, by another name" },
  Node: { type: "object", properties: { name: { type: "string" }, children: ref("Forest") }, required: ["name"] },
  Forest: { type: "array", items: ref("Node") },
  Loop: ref("Loop2"),
  Loop2: ref("Loop"),
  Mine: { type: "object", properties: { order: ref("OrderRef"), status: ref("Status"), loop: ref("Loop") } },
};
const SCHEMAS: Record<string, Schema> = {
  ordersInput: ORDERS_INPUT,
  ordersOutput: ORDERS_OUTPUT,
  treeInput: { type: "object", properties: { root: ref("Node") }, $defs: { Node: NODE } },
  treeOutput: { $ref: "#/$defs/Node", $defs: { Node: NODE } },
  named: { type: "object", properties: { order: ref("OrderRef"), mine: ref("Mine"), forest: ref("Forest"), loop: ref("Loop") }, $defs: NAMED_DEFS },
  namedArray: { ...ref("Forest"), $defs: NAMED_DEFS },
  /** An output of any root (SEP-2106), as its contract holds it: unwrapped; a 2025-era client is served it wrapped. */
  arrayRoot: { type: "array", items: { type: "object", properties: { a: { type: "number" }, b: { type: "array", items: { type: "string" } } } } },
};

const plan = (name: string): CopyJson => copyPlan(SCHEMAS[name]!);

describe("copy plans against the generic copy", () => {
  const N = runs(1, 100);
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name} agrees with the generic copy`, () => {
      fc.assert(fc.property(shaped(schema), (value) => compare(copyPlan(schema), value) === ""), { numRuns: N });
    }, timeoutFor(N));
  }

  // Keys that have tripped copies before: integer-like keys come first in an object's key order, whatever the schema's order.
  const KEYS = ["a", "b", "id", "__proto__", "constructor", "x y", "0", "10"];
  const DEFS = ["D0", "D1", "D2"];
  const schemas = fc.letrec<{ schema: Schema; leaf: Schema; object: Schema; array: Schema; ref: Schema; union: Schema }>((tie) => ({
    schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("object"), tie("array"), tie("ref"), tie("union")),
    leaf: fc.oneof(
      fc.constantFrom("string", "number", "integer", "boolean", "null", "object", "array").map((type) => ({ type })),
      fc.subarray(["string", "number", "integer", "boolean", "null", "object", "array"], { minLength: 1, maxLength: 3 }).map((type) => ({ type })),
      fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({})), { minLength: 1, maxLength: 3 }).map((e) => ({ enum: e })),
      fc.oneof(fc.string({ maxLength: 3 }), fc.double(), fc.constant(null)).map((c) => ({ const: c })),
      fc.constant({}),
    ),
    object: fc
      .tuple(
        fc.constantFrom<unknown>(undefined, "object", ["object", "null"], "array", "string"),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie("schema")), { selector: ([k]) => k, maxLength: 4 }),
      )
      .map(([type, entries]) => ({ ...(type === undefined ? {} : { type }), properties: ownObject(entries) })),
    array: fc
      .tuple(fc.constantFrom<unknown>(undefined, "array", ["array", "null"], "object"), tie("schema"))
      .map(([type, items]) => ({ ...(type === undefined ? {} : { type }), items })),
    ref: fc.oneof(
      fc.constantFrom(...DEFS).map(ref),
      fc.constantFrom(...DEFS).map((name) => ({ ...ref(name), type: "string" })),
      // Not a root `$defs` entry, or one spelled percent-encoded: the first says nothing of a shape, the second is D1.
      fc.constantFrom({ $ref: "#/$defs/D0/properties/a" }, { $ref: "#/%24defs/D1" }, { $ref: "#/$defs/Missing" }, { $ref: "#" }),
    ),
    union: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }).map((anyOf) => ({ anyOf })),
  }));
  const rooted = fc
    .tuple(schemas.schema, fc.tuple(schemas.schema, schemas.schema, schemas.schema))
    .map(([root, defs]) => ({ ...root, $defs: Object.fromEntries(defs.map((d, i) => [DEFS[i]!, d])) }) as Schema);

  const M = runs(1, 200);
  it("agrees with the generic copy on generated schemas and values of their shape, edited or not", () => {
    fc.assert(
      fc.property(
        rooted.chain((schema) => shaped(schema).map((value) => [schema, value] as const)),
        ([schema, value]) => compare(copyPlan(schema), value) === "",
      ),
      { numRuns: M },
    );
  }, timeoutFor(M));
});

describe("copy plans, case by case", () => {
  it("locates what is not JSON inside a typed property as the generic copy does", () => {
    const copyOutput = plan("ordersOutput");
    class Money {
      cents = 1;
    }
    const order = (extra: Record<string, unknown>) => ({ id: "o", status: "paid", ...extra });
    const cases: [unknown, string][] = [
      [{ found: true, orders: [order({ placedAt: new Date(0) })] }, "must be plain JSON data, but has an instance of Date at orders[0].placedAt"],
      [{ found: true, orders: [order({}), order({ total: NaN })] }, "must be plain JSON data, but has a non-finite number at orders[1].total"],
      [{ found: true, orders: [order({ amountCents: -Infinity })] }, "must be plain JSON data, but has a non-finite number at orders[0].amountCents"],
      [{ found: true, orders: [order({ total: new Money() })] }, "must be plain JSON data, but has an instance of Money at orders[0].total"],
      [{ found: true, orders: [order({}), undefined] }, "must be plain JSON data, but has an undefined array item at orders[1]"],
      [{ found: () => true, orders: [] }, "must be plain JSON data, but has a function at found"],
      [{ found: true, orders: [], last: { order: order({ note: 1n }) } }, "must be plain JSON data, but has a bigint at last.order.note"],
      [{ found: true, orders: [order({ id: Symbol("s") })] }, "must be plain JSON data, but has a symbol at orders[0].id"],
    ];
    for (const [value, message] of cases) {
      expect(copyOutput(value)).toMatchObject({ ok: false, message });
      expect(copyOutput(value)).toEqual(copyJson(value));
    }
    const holes: unknown[] = [[1], [2]];
    holes.length = 3;
    expect(plan("ordersInput")({ customerId: "c", matrix: holes })).toEqual({ ok: false, message: "must be plain JSON data, but has an undefined array item at matrix[2]", what: "an undefined array item", at: ["matrix", 2] });
  });

  it("reports a cycle through a recursive type, and through types that refer to each other, as the generic copy does", () => {
    const root: Record<string, unknown> = { name: "a", children: [] };
    (root["children"] as unknown[]).push({ name: "b", children: [root] });
    expect(plan("treeOutput")(root)).toEqual({ ok: false, message: "must be plain JSON data, but has a circular reference at children[0].children[0]", what: "a circular reference", at: ["children", 0, "children", 0] });
    expect(plan("treeInput")({ root })).toEqual(copyJson({ root }));
    expect(plan("namedArray")([root])).toEqual({ ok: false, message: "must be plain JSON data, but has a circular reference at [0].children[0].children[0]", what: "a circular reference", at: [0, "children", 0, "children", 0] });
    const self: Record<string, unknown> = { id: "o" };
    self["lines"] = [self];
    expect(plan("named")({ order: self })).toEqual(copyJson({ order: self }));
    expect(plan("named")({ order: self }).ok).toBe(false);
  });

  it("stops at the depth limit where the generic copy does, on either side of it", () => {
    const copy = plan("treeOutput");
    // Each tree level is two containers: the node and its children array.
    for (const levels of [MAX_DEPTH / 2 - 2, MAX_DEPTH / 2 - 1, MAX_DEPTH / 2, MAX_DEPTH / 2 + 1]) {
      let deep: Record<string, unknown> = { name: "leaf" };
      for (let i = 0; i < levels; i++) deep = { name: `n${i}`, children: [deep] };
      expect(compare(copy, deep), `${levels} levels`).toBe("");
    }
    let deep: Record<string, unknown> = { name: "leaf" };
    for (let i = 0; i < MAX_DEPTH / 2 - 1; i++) deep = { name: `n${i}`, children: [deep] };
    expect(copy(deep).ok).toBe(true);
    deep = { name: "top", children: [deep] };
    expect(copy(deep)).toMatchObject({ ok: false, message: expect.stringContaining(`nesting deeper than ${MAX_DEPTH} levels`) });
    expect(compare(plan("namedArray"), nested(300, "array"))).toBe("");
    expect(compare(plan("ordersInput"), { matrix: nested(300, "array") })).toBe("");
  });

  it("reads each property once, copies what that read returned, and reports a throwing getter without its message", () => {
    let reads = 0;
    const input = Object.defineProperty({}, "customerId", { enumerable: true, get: () => `read ${++reads}` });
    expect(plan("ordersInput")(input)).toEqual({ ok: true, value: Object.assign(Object.create(null), { customerId: "read 1" }) });
    expect(reads).toBe(1);
    const throwing = Object.defineProperty({ customerId: "c" }, "constructor", { enumerable: true, get: () => { throw new Error("secret"); } });
    expect(plan("ordersInput")(throwing)).toEqual({ ok: false, message: "must be plain JSON data", at: [] });
    expect(copyJson(throwing)).toEqual(plan("ordersInput")(throwing));
  });

  it("sends an object with a prototype, or keys out of the shape's order, to the generic walk", () => {
    const copy = plan("ordersOutput");
    class Found {
      found = true;
      orders = [];
    }
    expect(copy(new Found())).toEqual({ ok: false, message: "must be plain JSON data, but has an instance of Found", what: "an instance of Found", at: [] });
    const inherited = Object.create({ found: true }) as Record<string, unknown>;
    inherited["orders"] = [];
    expect(copy(inherited)).toEqual(copyJson(inherited));
    const bare = Object.assign(Object.create(null) as object, { found: true, orders: [{ id: "o", status: "paid" }] });
    expect(compare(copy, bare)).toBe("");
    const outOfOrder = { orders: [{ status: "paid", id: "o" }], found: true, best: undefined, extra: 1 };
    const copied = copy(outOfOrder);
    expect(copied.ok && Object.keys(copied.value as object)).toEqual(["orders", "found", "extra"]);
    expect(copied.ok && Object.keys((copied.value as { orders: object[] }).orders[0]!)).toEqual(["status", "id"]);
    expect(compare(copy, outOfOrder)).toBe("");
  });

  it("keeps __proto__ and constructor as ordinary keys, with no prototype, and leaves the caller's object alone", () => {
    const input = JSON.parse('{"customerId":"c","__proto__":"p","constructor":1,"empty":{},"open":{"x":[1]}}') as Record<string, unknown>;
    const before = JSON.stringify(input);
    const copy = plan("ordersInput")(input);
    if (!copy.ok) throw new Error(copy.message);
    const value = copy.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(null);
    expect(Object.getPrototypeOf(value["empty"])).toBe(null);
    expect(Object.keys(value)).toEqual(["customerId", "__proto__", "constructor", "empty", "open"]);
    expect(value["__proto__"]).toBe("p");
    expect(JSON.stringify(input)).toBe(before);
    expect(compare(plan("ordersInput"), input)).toBe("");
    expect(compare(plan("ordersInput"), { empty: { a: 1 } })).toBe("");
  });

  it("drops an undefined property in the shape's order, as JSON.stringify does, and keeps -0 and empty strings as they are", () => {
    const copy = plan("ordersInput")({ customerId: "", constructor: undefined, matrix: [[-0, 1]] });
    expect(copy).toEqual({ ok: true, value: Object.assign(Object.create(null), { customerId: "", matrix: [[-0, 1]] }) });
    expect(copy.ok && Object.is((copy.value as { matrix: number[][] }).matrix[0]![0], -0)).toBe(true);
    expect(compare(plan("ordersOutput"), { found: undefined, orders: [{ id: "o", status: undefined, total: 1 }] })).toBe("");
  });

  it("makes one plan per schema object, the generic copy for a root with no shape, and a shape's copy otherwise", () => {
    expect(plan("ordersInput")).toBe(plan("ordersInput"));
    expect(copyPlan({ type: "string" })).toBe(copyJson);
    expect(copyPlan({ anyOf: [ORDER, { type: "null" }] })).toBe(copyJson);
    expect(copyPlan({ ...ref("Loop"), $defs: NAMED_DEFS })).toBe(copyJson);
    for (const name of ["ordersInput", "treeOutput", "namedArray", "arrayRoot"]) expect(plan(name), name).not.toBe(copyJson);
  });
});
