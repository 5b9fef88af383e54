/**
 * Each rule of `toolc diff` on a small contract: the rule id, and its level in
 * each direction it applies to. docs/evolution.md is the reference.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";

/** A tool file from its parts; `input`/`output` are YAML flow maps. */
function tool(parts: { input?: string; output?: string; policy?: string; version?: number }): string {
  return [
    "name: t",
    `version: ${parts.version ?? 1}`,
    "description: A tool.",
    parts.policy ?? "effect: read",
    `input: ${parts.input ?? "{ type: object }"}`,
    `output: ${parts.output ?? "{ type: object }"}`,
    "",
  ].join("\n");
}

function side(text: string, types?: string) {
  const texts = [{ source: "t.yaml", display: "t.yaml", text }, ...(types === undefined ? [] : [{ source: "types.yaml", display: "types.yaml", text: types }])];
  const result = sideFromTexts(texts, ".");
  if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.side;
}

/** Every change as `rule direction level`. */
function changes(base: string, head: string, baseTypes?: string, headTypes?: string): string[] {
  return diffContracts(side(base, baseTypes), side(head, headTypes), EMPTY_DIFF_CONFIG).changes.flatMap((c) => c.affects.map((a) => `${c.rule} ${a.direction} ${a.level}`));
}

const obj = (props: string, extra = ""): string => `{ type: object, properties: { ${props} }${extra} }`;

describe("schema rules, in both directions", () => {
  const cases: [string, string, string, string[]][] = [
    ["default changed", obj("n: { type: integer, default: 20 }"), obj("n: { type: integer, default: 50 }"), ["default-changed input warning"]],
    ["default removed", obj("n: { type: integer, default: 20 }"), obj("n: { type: integer }"), ["default-removed input warning"]],
    ["pattern changed", obj('s: { type: string, pattern: "^a" }'), obj('s: { type: string, pattern: "^b" }'), ["pattern-changed input breaking", "pattern-changed output breaking"]],
    ["format added", obj("s: { type: string }"), obj("s: { type: string, format: email }"), ["format-changed input breaking", "format-changed output info"]],
    ["type changed", obj("s: { type: string }"), obj("s: { type: integer }"), ["type-changed input breaking", "type-changed output breaking"]],
    ["multipleOf neither multiple", obj("n: { type: integer, multipleOf: 4 }"), obj("n: { type: integer, multipleOf: 6 }"), ["bound-tightened input breaking", "bound-tightened output breaking"]],
    ["multipleOf loosened", obj("n: { type: integer, multipleOf: 4 }"), obj("n: { type: integer, multipleOf: 2 }"), ["bound-loosened input info", "bound-loosened output breaking"]],
    ["anyOf branch removed: the null branch is the type null", obj('v: { anyOf: [{ type: string }, { type: "null" }] }'), obj("v: { anyOf: [{ type: string }] }"), ["type-narrowed input breaking", "type-narrowed output info"]],
    ["anyOf branch of the same type removed", obj("v: { anyOf: [{ type: string, maxLength: 2 }, { type: string, minLength: 5 }] }"), obj("v: { anyOf: [{ type: string, maxLength: 2 }] }"), ["branch-removed input breaking", "branch-removed output info"]],
    ["anyOf branch added: a new type", obj("v: { anyOf: [{ type: string }] }"), obj("v: { anyOf: [{ type: string }, { type: integer }] }"), ["type-widened input info", "type-widened output breaking"]],
    ["anyOf branch of the same type added", obj("v: { anyOf: [{ type: string, maxLength: 2 }] }"), obj("v: { anyOf: [{ type: string, maxLength: 2 }, { type: string, minLength: 5 }] }"), ["branch-added input info", "branch-added output breaking"]],
    ["oneOf branch added that may overlap", obj("v: { oneOf: [{ type: string }, { type: integer }] }"), obj("v: { oneOf: [{ type: string }, { type: integer }, { type: number }] }"), ["branch-added input info", "branch-added output breaking", "branch-added-may-overlap input breaking"]],
    ["anyOf branch narrowed where no other branch covers it: a witness decides", obj('v: { anyOf: [{ type: string, minLength: 2 }, { type: string, maxLength: 1 }] }'), obj('v: { anyOf: [{ type: string, minLength: 3 }, { type: string, maxLength: 1 }] }'), ["bound-tightened input breaking", "bound-tightened output info"]],
    ["anyOf branch narrowed where another branch covers it", obj('v: { anyOf: [{ type: string, minLength: 2 }, { type: string }] }'), obj('v: { anyOf: [{ type: string, minLength: 3 }, { type: string }] }'), ["bound-tightened input info", "bound-tightened output info"]],
    ["object opened", obj("m: { type: object }"), obj("m: { type: object, additionalProperties: true }"), ["additional-properties-opened input info", "additional-properties-opened output warning"]],
    ["object closed", obj("m: { type: object, additionalProperties: true }"), obj("m: { type: object }"), ["additional-properties-closed input breaking", "additional-properties-closed output info"]],
    ["map value narrowed", obj("m: { type: object, additionalProperties: { type: number } }"), obj("m: { type: object, additionalProperties: { type: integer } }"), ["type-narrowed input breaking", "type-narrowed output info"]],
    ["optional output property removed", obj("a: { type: string }, b: { type: string }"), obj("a: { type: string }"), ["property-removed input breaking", "property-removed output warning"]],
    ["property declared on an open object", obj("a: { type: string }", ", additionalProperties: true"), obj("a: { type: string }, b: { type: string }", ", additionalProperties: true"), ["property-added-open-object input breaking", "property-added-open-object output info"]],
    ["output property added inside anyOf", obj("v: { anyOf: [{ type: object, properties: { a: { type: string } } }, { type: string }] }"), obj("v: { anyOf: [{ type: object, properties: { a: { type: string }, b: { type: string } } }, { type: string }] }"), ["property-added-optional input info", "property-added-optional output breaking"]],
    ["items narrowed", obj("l: { type: array, items: { type: [string, \"null\"] } }"), obj("l: { type: array, items: { type: string } }"), ["type-narrowed input breaking", "type-narrowed output info"]],
    ["allOf branch added", obj("a: { allOf: [{ type: string }] }"), obj("a: { allOf: [{ type: string }, { type: string, minLength: 1 }] }"), ["bound-tightened input breaking", "bound-tightened output info"]],
  ];
  it.each(cases)("%s", (_name, base, head, expected) => {
    const both = changes(tool({ input: base, output: base }), tool({ input: head, output: head }));
    expect(both.sort()).toEqual(expected.sort());
  });

  it("a recursive named type is compared once and terminates", () => {
    const types = (extra: string) => `types:\n  Node:\n    type: object\n    properties:\n      name: { type: string${extra} }\n      children: { type: array, items: { $ref: "#/types/Node" } }\n`;
    const t = tool({ output: obj('root: { $ref: "types.yaml#/Node" }') });
    expect(changes(t, t, types(""), types(", maxLength: 5"))).toEqual(["bound-tightened output info"]);
  });

  it("a local $defs entry and an inline schema are the same", () => {
    const local = tool({ input: '{ type: object, properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: string, minLength: 1 } } }' });
    const inline = tool({ input: obj("a: { type: string, minLength: 1 }") });
    expect(changes(local, inline)).toEqual([]);
    expect(changes(inline, local)).toEqual([]);
  });
});

describe("policy rules", () => {
  const cases: [string, string, string, string[]][] = [
    ["timeout shortened, fewer retries", "effect: read\ntimeoutMs: 5000\nretry: { attempts: 3 }", "effect: read\ntimeoutMs: 2000\nretry: { attempts: 1 }", ["timeout-shortened tool warning", "retries-reduced tool warning"]],
    ["timeout lengthened, more retries", "effect: read\ntimeoutMs: 2000", "effect: read\ntimeoutMs: 5000\nretry: { attempts: 2 }", ["timeout-lengthened tool info", "retries-increased tool info"]],
    ["not idempotent any more", "effect: write\nidempotent: true", "effect: write", ["idempotent-removed tool breaking"]],
    ["a read that becomes a write", "effect: read", "effect: write", ["effect-more-severe tool breaking", "idempotent-removed tool breaking"]],
    ["less severe and idempotent", "effect: destructive", "effect: write\nidempotent: true", ["effect-less-severe tool info", "idempotent-added tool info"]],
    ["error reasons", "effect: read\nerrors: { A: { description: a } }", "effect: read\nerrors: { B: { description: b } }", ["error-reason-removed tool info", "error-reason-added tool warning"]],
    ["content kinds swapped", "effect: read\ncontent: [image, text]", "effect: read\ncontent: [text, audio]", ["content-kind-removed tool info", "content-kind-added tool warning"]],
    ["content kinds declared where any was allowed", "effect: read", "effect: read\ncontent: [image]", ["content-kind-removed tool info"]],
    ["content kinds dropped, so any kind may come", "effect: read\ncontent: [image]", "effect: read", ["content-kind-added tool warning"]],
    ["content kinds reordered", "effect: read\ncontent: [image, text]", "effect: read\ncontent: [text, image]", []],
    ["an icon added", "effect: read", "effect: read\nicons: [{ src: \"https://example.com/i.png\" }]", ["icons-changed tool info"]],
    ["an icon's theme changed", "effect: read\nicons: [{ src: \"https://example.com/i.png\", theme: light }]", "effect: read\nicons: [{ src: \"https://example.com/i.png\", theme: dark }]", ["icons-changed tool info"]],
    ["the dialect stated", "effect: read", "$schema: https://json-schema.org/draft/2020-12/schema\neffect: read", ["dialect-changed tool info"]],
  ];
  it.each(cases)("%s", (_name, base, head, expected) => {
    expect(changes(tool({ policy: base }), tool({ policy: head })).sort()).toEqual(expected.sort());
  });

  it("versions: a bump and a step back", () => {
    expect(changes(tool({ version: 1 }), tool({ version: 2 }))).toEqual(["version-bumped tool info"]);
    expect(changes(tool({ version: 2 }), tool({ version: 1 }))).toEqual(["version-lowered tool warning"]);
  });
});

describe("union branches are matched on meaning", () => {
  it("a nullable union written as anyOf or as a type list is the same", () => {
    const union = tool({ input: obj('v: { anyOf: [{ type: string, minLength: 1 }, { type: "null" }], default: null }'), output: obj('v: { anyOf: [{ type: "null" }, { type: integer }] }') });
    const list = tool({ input: obj('v: { type: [string, "null"], minLength: 1, default: null }'), output: obj('v: { type: [integer, "null"] }') });
    expect(changes(union, list)).toEqual([]);
    expect(changes(list, union)).toEqual([]);
    const notNull = tool({ input: obj("v: { type: string, minLength: 1 }"), output: obj("v: { type: integer }") });
    expect(changes(union, notNull).sort()).toEqual(["default-removed input warning", "type-narrowed input breaking", "type-narrowed output info"]);
  });

  it("an enum in the union's branch is not a type list: null is not among its values, so it is removed", () => {
    const union = tool({ input: obj('v: { anyOf: [{ type: string, enum: [a] }, { type: "null" }] }') });
    const list = tool({ input: obj('v: { type: [string, "null"], enum: [a] }') });
    expect(changes(union, list)).toEqual(["enum-value-removed input breaking"]);
  });

  it("reordered branches and reordered keys inside them are no change", () => {
    const base = tool({ input: obj('v: { anyOf: [{ type: object, properties: { title: { type: string } } }, { type: string, minLength: 1 }] }') });
    const head = tool({ input: obj('v: { anyOf: [{ minLength: 1, type: string }, { properties: { title: { type: string } }, type: object }] }') });
    expect(changes(base, head)).toEqual([]);
  });

  it("a property named like an annotation still tells branches apart", () => {
    const base = tool({ input: obj('v: { anyOf: [{ type: object, properties: { title: { type: string } } }, { type: string }] }') });
    const head = tool({ input: obj('v: { anyOf: [{ type: object, properties: { description: { type: string } } }, { type: string }] }') });
    expect(changes(base, head).sort()).toEqual(["property-added-optional input info", "property-removed input breaking"]);
  });
});
