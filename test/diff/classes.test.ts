/**
 * The classes of change `toolc diff` once got wrong, each written as the
 * case: the silent false negatives (exit 0 on a real break), which must now
 * be breaking in the direction that breaks; and the false positives
 * (equivalent spellings), which must now be no change at all. Each input and
 * output is a small contract; the expected lines are `rule direction level`.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { exactDecimal } from "../../generator/schema/decimal.js";
import { isMultipleOf } from "../../generator/runtime/multiple.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { looseSide } from "./helpers.js";

function tool(input: string, output = "{ type: object }"): string {
  return ["name: t", "version: 1", "description: A tool.", "effect: read", `input: ${input}`, `output: ${output}`, ""].join("\n");
}

function side(text: string) {
  const result = sideFromTexts([{ source: "t.yaml", display: "t.yaml", text }], ".");
  if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.side;
}

/** Every change as `rule direction level`, the same edit made to input and output. */
function changes(base: string, head: string): string[] {
  return diffContracts(side(tool(base, base)), side(tool(head, head)), EMPTY_DIFF_CONFIG).changes.flatMap((c) => c.affects.map((a) => `${c.rule} ${a.direction} ${a.level}`)).sort();
}

/** Only the breaking ones, by direction. */
const breaking = (base: string, head: string): string[] => changes(base, head).filter((c) => c.endsWith(" breaking"));

const obj = (props: string, extra = ""): string => `{ type: object, properties: { ${props} }${extra} }`;

describe("oneOf over overlapping branches: non-monotonic, never passed silently", () => {
  // A value matching two branches of a oneOf is refused, so narrowing one branch can let such a value through.
  const narrowed = [obj("v: { oneOf: [{ type: number, minimum: -5 }, { type: number, exclusiveMinimum: -3 }] }"), obj("v: { oneOf: [{ type: number, minimum: -5, multipleOf: 0.5 }, { type: number, exclusiveMinimum: -3 }] }")] as const;
  // null matches both branches of the inner oneOf (refused there) and only the outer null branch: the head accepts null, the base did not.
  const nested = [obj('v: { oneOf: [{ type: [string, "null"] }, { type: "null" }] }'), obj('v: { oneOf: [{ oneOf: [{ type: [string, "null"] }, { type: "null" }] }, { type: "null" }] }')] as const;

  it.each([
    ["a branch narrowed beside an overlapping one", ...narrowed],
    ["a oneOf with overlapping branches nested in another", ...nested],
  ])("%s: the output change is breaking or undecided, not compatible", (_name, base, head) => {
    const output = changes(base, head).filter((c) => c.includes(" output "));
    expect(output.some((c) => c.endsWith(" breaking") || c.endsWith(" undecided")), output.join("; ")).toBe(true);
  });

  it("the nested case is breaking, with the value that shows it", () => {
    expect(breaking(...nested)).toContain("schema-change-undecided output breaking");
  });
});

describe("silent false negatives, now breaking", () => {
  const cases: [string, string, string, string[]][] = [
    ["type beside enum: null dropped from the type list while the enum still lists it", obj('v: { type: [string, "null"], enum: [a, null] }'), obj('v: { type: string, enum: [a, null] }'), ["enum-value-removed input breaking"]],
    ["type beside enum: integer → number next to an enum holding 2.5", obj("v: { type: integer, enum: [1, 2.5] }"), obj("v: { type: number, enum: [1, 2.5] }"), ["enum-value-added output breaking"]],
    ["a property removed from an allOf part of a closed object", obj("v: { allOf: [{ type: object, properties: { a: { type: string } } }, { type: object, properties: { b: { type: string } } }] }"), obj("v: { allOf: [{ type: object, properties: { a: { type: string } } }, { type: object, properties: {} }] }"), ["property-removed input breaking"]],
    ["a const branch added to a titled enum", obj("v: { oneOf: [{ const: a, title: A }, { const: b, title: B }] }"), obj("v: { oneOf: [{ const: a, title: A }, { const: b, title: B }, { const: c, title: C }] }"), ["enum-value-added output breaking"]],
    ["a const branch removed from a titled enum (anyOf)", obj("v: { anyOf: [{ const: a, title: A }, { const: 1, title: One }] }"), obj("v: { anyOf: [{ const: a, title: A }] }"), ["enum-value-removed input breaking"]],
    ["oneOf → anyOf over overlapping branches", obj("v: { oneOf: [{ type: string }, { type: string, maxLength: 3 }] }"), obj("v: { anyOf: [{ type: string }, { type: string, maxLength: 3 }] }"), ["oneof-to-anyof output breaking"]],
    ["an allOf part added", obj("v: { allOf: [{ type: object, properties: { a: { type: string } } }] }"), obj("v: { allOf: [{ type: object, properties: { a: { type: string } } }, { type: object, properties: { b: { type: string } }, required: [b] }] }"), ["property-added-required input breaking", "property-added-required output breaking"]],
    ["a tuple grown under items: false", obj("v: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false, minItems: 2 }"), obj("v: { type: array, prefixItems: [{ type: string }, { type: integer }, { type: boolean }], items: false, minItems: 3 }"), ["bound-loosened output breaking", "bound-tightened input breaking"]],
    // Three items were sent and are now refused; two are now returned where a base client wants three. (A tuple's
    // minItems is its length: Ajv's strictTuples refuses any other, so both directions break.)
    ["a tuple shrunk under items: false, its minItems with it", obj("v: { type: array, prefixItems: [{ type: string }, { type: integer }, { type: boolean }], items: false, minItems: 3 }"), obj("v: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false, minItems: 2 }"), ["bound-loosened output breaking", "bound-tightened input breaking"]],
    ["multipleOf 2 → 4", obj("v: { type: integer, multipleOf: 2 }"), obj("v: { type: integer, multipleOf: 4 }"), ["bound-tightened input breaking"]],
    ["multipleOf 0.1 → 0.3 (a multiple, on the written decimals)", obj("v: { type: number, multipleOf: 0.1 }"), obj("v: { type: number, multipleOf: 0.3 }"), ["bound-tightened input breaking"]],
    ["multipleOf 0.02 → 0.01", obj("v: { type: number, multipleOf: 0.02 }"), obj("v: { type: number, multipleOf: 0.01 }"), ["bound-loosened output breaking"]],
    ["a pattern that no longer matches what it did", obj('v: { type: string, pattern: "^[a-z]+$" }'), obj('v: { type: string, pattern: "^[a-f]+$" }'), ["pattern-changed input breaking"]],
  ];
  it.each(cases)("%s", (_name, base, head, expected) => {
    expect(breaking(base, head)).toEqual(expected.sort());
  });

  it("type beside enum: a const and an enum that together allow nothing", () => {
    // toolc refuses such a head now (TC026); a side read past its errors, as a base from before that check is, still diffs as breaking.
    const texts = (schema: string) => [{ source: "t.yaml", text: tool(schema, schema) }];
    const found = diffContracts(looseSide(texts(obj("v: { enum: [a, b] }"))), looseSide(texts(obj("v: { enum: [a, b], const: c }"))), EMPTY_DIFF_CONFIG).changes;
    expect(found.flatMap((c) => c.affects.map((a) => `${c.rule} ${a.direction} ${a.level}`)).filter((c) => c.endsWith(" breaking")).sort()).toEqual(["enum-value-removed input breaking", "enum-value-removed input breaking"]);
    expect(sideFromTexts([{ source: "t.yaml", display: "t.yaml", text: tool(obj("v: { enum: [a, b], const: c }")) }], ".").diagnostics.map((d) => d.code)).toContain("TC026");
  });

  it("the default of a required input property removed: callers that leave it out are refused", () => {
    const base = tool(obj("n: { type: integer, default: 20 }", ", required: [n]"));
    const head = tool(obj("n: { type: integer }", ", required: [n]"));
    const found = diffContracts(side(base), side(head), EMPTY_DIFF_CONFIG).changes;
    expect(found.map((c) => `${c.rule} ${c.level}`)).toEqual(["default-removed breaking"]);
    expect(found[0]?.message).toContain("callers that leave `n` out are now refused");
  });

  it("the default of an optional input property removed stays a warning: no call is refused", () => {
    expect(changes(obj("n: { type: integer, default: 20 }"), obj("n: { type: integer }"))).toEqual(["default-removed input warning"]);
  });

  // The input validator fills defaults in before it counts properties (found by the differential test).
  it("a default removed from an optional property that filled minProperties: callers that relied on it are refused", () => {
    const base = obj("a: { type: string }, b: { type: string, default: x }", ", minProperties: 2");
    const head = obj("a: { type: string }, b: { type: string }", ", minProperties: 2");
    expect(changes(base, head)).toEqual(["default-removed input breaking"]);
  });

  it("a default added to an optional property under maxProperties: a call that filled it is refused", () => {
    const base = obj("a: { type: string }, b: { type: string }", ", maxProperties: 1");
    const head = obj("a: { type: string }, b: { type: string, default: x }", ", maxProperties: 1");
    expect(changes(base, head)).toEqual(["default-added input breaking"]);
  });

  // A base client drops output properties it does not know before it validates (found by the differential test).
  it("an output property added under the base's minProperties: dropped, the rest may be too few", () => {
    const base = obj("a: { type: string }", ", minProperties: 1");
    const head = obj("a: { type: string }, b: { type: string }", ", minProperties: 1");
    expect(changes(base, head)).toEqual(["property-added-optional input info", "property-added-optional output breaking"]);
  });

  it("an output object opened under the base's minProperties: what it gained is dropped, the rest may be too few", () => {
    const base = obj("a: { type: string }", ", minProperties: 1");
    const head = obj("a: { type: string }", ", minProperties: 1, additionalProperties: true");
    expect(changes(base, head)).toEqual(["additional-properties-opened input info", "additional-properties-opened output breaking"]);
  });

  it("an output property added to the items of a uniqueItems array: dropped, two items may become equal (found by the differential test)", () => {
    const base = obj("v: { type: array, items: { type: object, properties: { a: { type: string } } }, uniqueItems: true }");
    const head = obj("v: { type: array, items: { type: object, properties: { a: { type: string }, b: { type: string } } }, uniqueItems: true }");
    expect(changes(base, head)).toEqual(["property-added-optional input info", "property-added-optional output breaking"]);
    const unique = obj("v: { type: array, items: { type: object, properties: { a: { type: string } } } }");
    expect(changes(unique, obj("v: { type: array, items: { type: object, properties: { a: { type: string }, b: { type: string } } } }"))).toEqual(["property-added-optional input info", "property-added-optional output info"]);
  });

  it("dropped output properties cannot leave too few when the head requires enough the base knows", () => {
    expect(changes(obj("a: { type: string }", ", required: [a], minProperties: 1"), obj("a: { type: string }, b: { type: string }", ", required: [a], minProperties: 1"))).toEqual(["property-added-optional input info", "property-added-optional output info"]);
    expect(changes(obj("a: { type: string }", ", required: [a], minProperties: 1"), obj("a: { type: string }", ", required: [a], minProperties: 1, additionalProperties: true"))).toEqual(["additional-properties-opened input info", "additional-properties-opened output warning"]);
  });

  it("a list cut to one item and uniqueItems dropped: only the length is a change (found by the differential test)", () => {
    expect(changes(obj("v: { type: array, items: { type: string }, maxItems: 3, uniqueItems: true }"), obj("v: { type: array, items: { type: string }, minItems: 1, maxItems: 1 }"))).toEqual(["bound-tightened input breaking", "bound-tightened input breaking", "bound-tightened output info", "bound-tightened output info"]);
  });

  it("a minProperties that defaults already meet changes no call, but may what is returned", () => {
    expect(changes(obj("a: { type: string, default: x }"), obj("a: { type: string, default: x }", ", minProperties: 1"))).toEqual(["bound-tightened output info"]);
    expect(changes(obj("a: { type: string, default: x }", ", minProperties: 1"), obj("a: { type: string, default: x }"))).toEqual(["bound-loosened output breaking"]);
  });

  it("a default added under maxProperties on an open object: a call filled with other properties shows it", () => {
    const base = obj("a: { type: string }, b: { type: string }", ", additionalProperties: true, maxProperties: 2");
    const head = obj("a: { type: string }, b: { type: string, default: x }", ", additionalProperties: true, maxProperties: 2");
    const [change] = diffContracts(side(tool(base)), side(tool(head)), EMPTY_DIFF_CONFIG).changes;
    expect(change).toMatchObject({ rule: "default-added", level: "breaking" });
    expect(change?.message).toMatch(/e\.g\. \{"c":"x","d":"x"\} was accepted and is now refused/);
  });

  it("a default removed or added where the counts cannot bind stays a warning or info", () => {
    expect(changes(obj("a: { type: string }, b: { type: string, default: x }", ", required: [a], minProperties: 1"), obj("a: { type: string }, b: { type: string }", ", required: [a], minProperties: 1"))).toEqual(["default-removed input warning"]);
    expect(changes(obj("a: { type: string }, b: { type: string }", ", maxProperties: 2"), obj("a: { type: string }, b: { type: string, default: x }", ", maxProperties: 2"))).toEqual(["default-added input info"]);
  });

  it("a breaking verdict the structure cannot prove comes with the value that shows it", () => {
    const found = diffContracts(side(tool(obj('v: { type: string, pattern: "^[a-z]+$" }'))), side(tool(obj('v: { type: string, pattern: "^[a-f]+$" }'))), EMPTY_DIFF_CONFIG).changes;
    expect(found[0]?.message).toMatch(/e\.g\. "[g-z][a-z]*" was accepted and is now refused/);
  });
});

describe("false positives, now no change", () => {
  const cases: [string, string, string][] = [
    ["minimum: 1 ≡ exclusiveMinimum: 0 on integers", obj("v: { type: integer, minimum: 1, maximum: 1000 }"), obj("v: { type: integer, exclusiveMinimum: 0, exclusiveMaximum: 1001 }")],
    ["multipleOf: 1 ≡ integer", obj("v: { type: integer, minimum: 0 }"), obj("v: { type: number, multipleOf: 1, minimum: 0 }")],
    ["minLength: 0, minItems: 0 and minProperties: 0 are no bounds", obj("s: { type: string }, l: { type: array, items: { type: string } }, m: { type: object, additionalProperties: { type: string } }"), obj("s: { type: string, minLength: 0 }, l: { type: array, items: { type: string }, minItems: 0 }, m: { type: object, additionalProperties: { type: string }, minProperties: 0 }")],
    ["maxProperties above what a closed object declares is no bound", obj("a: { type: string }"), obj("a: { type: string }", ", maxProperties: 5")],
    ['type: [X, "null"] ≡ anyOf with a null branch', obj('v: { type: [string, "null"], maxLength: 5 }'), obj('v: { anyOf: [{ type: string, maxLength: 5 }, { type: "null" }] }')],
    ['type: [X, "null"] ≡ oneOf with a null branch', obj('v: { type: [integer, "null"], minimum: 0 }'), obj('v: { oneOf: [{ type: integer, minimum: 0 }, { type: "null" }] }')],
    ["items with minItems = maxItems = 1 ≡ a one-item tuple", obj("v: { type: array, items: { type: string }, minItems: 1, maxItems: 1 }"), obj("v: { type: array, prefixItems: [{ type: string }], items: false, minItems: 1 }")],
    ["an object rewritten as an allOf of its parts", obj("v: { type: object, properties: { a: { type: string }, b: { type: integer } }, required: [a] }"), obj("v: { allOf: [{ type: object, properties: { a: { type: string } }, required: [a] }, { type: object, properties: { b: { type: integer } } }] }")],
    ["an enum of both booleans ≡ type: boolean", obj("v: { type: boolean }"), obj("v: { enum: [true, false] }")],
    ["a const and a one-value enum", obj("v: { const: a }"), obj("v: { enum: [a] }")],
    ["multipleOf 0.01 on a value fixed at 19.99 (a multiple of 0.01)", obj("v: { type: number, minimum: 19.99, maximum: 19.99 }"), obj("v: { type: number, minimum: 19.99, maximum: 19.99, multipleOf: 0.01 }")],
    ["a minLength the pattern already implies", obj('v: { type: string, pattern: "^[A-Z]{3}$" }'), obj('v: { type: string, pattern: "^[A-Z]{3}$", minLength: 3 }')],
    ["a maxLength a uuid already implies (every uuid toolc accepts is 36 characters)", obj("v: { type: string, format: uuid }"), obj("v: { type: string, format: uuid, maxLength: 36 }")],
    ["a maxLength above the uuid's 36 lowered to it", obj("v: { type: string, format: uuid, maxLength: 64 }"), obj("v: { type: string, format: uuid, maxLength: 36 }")],
    ["a minLength and maxLength a date already implies", obj("v: { type: string, format: date }"), obj("v: { type: string, format: date, minLength: 10, maxLength: 10 }")],
    ["length bounds within what an ipv4 address can be", obj("v: { type: string, format: ipv4 }"), obj("v: { type: string, format: ipv4, minLength: 7, maxLength: 15 }")],
    ["uniqueItems dropped where at most one item is allowed", obj("v: { type: array, items: { type: string }, maxItems: 1, uniqueItems: true }"), obj("v: { type: array, items: { type: string }, maxItems: 1 }")],
    ["a minProperties the required properties already meet", obj("a: { type: string }, b: { type: string }", ", required: [a]"), obj("a: { type: string }, b: { type: string }", ", required: [a], minProperties: 1")],
    ["an optional property under a maxProperties its required ones fill", obj("a: { type: string }, b: { type: string }", ", required: [a], maxProperties: 1"), obj("a: { type: string }, b: { type: integer }", ", required: [a], maxProperties: 1")],
  ];
  it.each(cases)("%s", (_name, base, head) => {
    expect(changes(base, head)).toEqual([]);
    expect(changes(head, base)).toEqual([]);
  });
});

describe("length bounds beside a format", () => {
  it("a bound tighter than the format's own is still a change, and says what the format implied", () => {
    expect(changes(obj("v: { type: string, format: ipv4 }"), obj("v: { type: string, format: ipv4, maxLength: 14 }"))).toEqual(["bound-tightened input breaking", "bound-tightened output info"]);
    const [change] = diffContracts(side(tool(obj("v: { type: string, format: ipv4 }"))), side(tool(obj("v: { type: string, format: ipv4, maxLength: 14 }"))), EMPTY_DIFF_CONFIG).changes;
    expect(change?.message).toBe("maxLength 15 (by format) → 14");
  });

  it("a format dropped beside a bound it implied is a format change, not a length change", () => {
    expect(changes(obj("v: { type: string, format: uuid, maxLength: 36 }"), obj("v: { type: string, maxLength: 36 }"))).toEqual(["format-changed input info", "format-changed output breaking"]);
  });
});

describe("a pattern generalization", () => {
  it("a class widened: compatible for input, and a witness shows the output break", () => {
    const found = changes(obj('v: { type: string, pattern: "^[a-z]+$" }'), obj('v: { type: string, pattern: "^[a-z0-9]+$" }'));
    expect(found).toEqual(["pattern-generalized input info", "pattern-generalized output breaking"]);
  });

  it.each([
    ["a repetition range widened", "^ord_[0-9]{4}$", "^ord_[0-9]{4,8}$"],
    ["an anchor dropped", "^ab$", "^ab"],
    ["an alternative added", "^(ord|inv)_[0-9]+$", "^(ord|inv|crd)_[0-9]+$"],
    ["a prefix made an alternative", "^ord_", "^(ord|inv)_"],
  ])("%s: %s → %s", (_name, from, to) => {
    expect(changes(obj(`v: { type: string, pattern: "${from}" }`), obj(`v: { type: string, pattern: "${to}" }`))).toContain("pattern-generalized input info");
  });

  it("a pattern toolc does not read is undecided, with the reason", () => {
    const found = changes(obj('v: { type: string, pattern: "^(?=a)[a-z]+$" }'), obj('v: { type: string, pattern: "^(?=a)[a-z0-9]+$" }'));
    expect(found).toEqual(["pattern-changed input undecided", "pattern-changed output undecided"]);
    const [change] = diffContracts(side(tool(obj('v: { type: string, pattern: "^(?=a)[a-z]+$" }'))), side(tool(obj('v: { type: string, pattern: "^(?=a)[a-z0-9]+$" }'))), EMPTY_DIFF_CONFIG).changes;
    expect(change?.message).toContain("toolc does not read one of the patterns");
  });
});

describe("decimal multiples", () => {
  it.each([
    [19.99, 0.01, true], [4.35, 0.01, true], [0.07, 0.01, true], [2.675, 0.001, true], [0.3, 0.1, true], [1.1, 0.1, true],
    [19.995, 0.01, false], [1e21, 3, false], [3e21, 3, true], [-0.06, 0.02, true], [0.1, 0.3, false],
  ])("%d is a multiple of %d: %s", (value, step, expected) => {
    expect(isMultipleOf(value, step)).toBe(expected);
  });

  it("reads a number as the decimal it is written as", () => {
    expect(exactDecimal(19.99)).toEqual({ digits: 1999n, scale: 2 });
    expect(exactDecimal(1e-7)).toEqual({ digits: 1n, scale: 7 });
    expect(exactDecimal(Number.NaN)).toBeUndefined();
    // Signed, and whole above 1e21 (scale 0): read through the runtime's decimalOf, the one the validators use.
    expect(exactDecimal(-2.5)).toEqual({ digits: -25n, scale: 1 });
    expect(exactDecimal(3e21)).toEqual({ digits: 3n * 10n ** 21n, scale: 0 });
    expect(exactDecimal(-1.5e-9)).toEqual({ digits: -15n, scale: 10 });
  });
});
