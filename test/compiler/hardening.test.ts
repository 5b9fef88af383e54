/**
 * Bad definitions found by attacking the compiler: each is a located error
 * with its own code and a plain-language message, never "internal error",
 * "URI malformed" or "Maximum call stack size exceeded", and the output
 * folder is left exactly as it was.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectWith, runCli, snapshotTree } from "./helpers.js";

const TOOL = `name: list_items
version: 1
description: List items.
effect: read
input:
  type: object
  properties:
    query: { type: string, minLength: 1, maxLength: 100 }
  required: [query]
output:
  type: object
  properties:
    count: { type: integer }
  required: [count]
`;

function edit(find: string, replace: string, text = TOOL): string {
  if (!text.includes(find)) throw new Error(`case setup: ${find} not found`);
  return text.replace(find, replace);
}

const QUERY = "query: { type: string, minLength: 1, maxLength: 100 }";

/** `depth` schemas nested through `properties`, in block style. */
function nested(depth: number): string {
  const lines = ["name: deep", "version: 1", "description: Deep.", "effect: read", "input:"];
  let indent = "  ";
  for (let i = 0; i < depth; i++) {
    lines.push(`${indent}type: object`, `${indent}properties:`, `${indent}  a:`);
    indent += "    ";
  }
  lines.push(`${indent}type: string`, `${indent}maxLength: 10`, "output: { type: object }");
  return `${lines.join("\n")}\n`;
}

/** The same, in flow style on one line. */
function nestedFlow(depth: number): string {
  let schema = "{ type: string, maxLength: 10 }";
  for (let i = 0; i < depth; i++) schema = `{ type: object, properties: { a: ${schema} } }`;
  return `name: deep\nversion: 1\ndescription: Deep.\neffect: read\ninput: ${schema}\noutput: { type: object }\n`;
}

interface Case {
  readonly name: string;
  readonly files: Record<string, string>;
  /** No `col`: any column on the line (where the YAML parser itself ran out of stack, which depends on the stack size). */
  readonly expect: { file: string; line: number; col?: number; code: string; text: RegExp };
}

const cases: Case[] = [
  {
    name: "a catastrophic pattern",
    files: { "t.yaml": edit(QUERY, 'query: { type: string, maxLength: 100, pattern: "^(a+)+$" }') },
    expect: { file: "definitions/t.yaml", line: 8, col: 53, code: "TC035", text: /pattern "\^\(a\+\)\+\$" can backtrack without bound/ },
  },
  {
    name: "a polynomial pattern in a named type",
    files: { "types.yaml": 'types:\n  Word: { type: string, pattern: "\\\\s+$" }\n', "t.yaml": edit(QUERY, 'query: { $ref: "types.yaml#/Word" }') },
    expect: { file: "definitions/types.yaml", line: 2, col: 34, code: "TC035", text: /super-linear/ },
  },
  {
    name: "a named group under a quantifier, which the ReDoS checker cannot read as written",
    files: { "t.yaml": edit(QUERY, 'query: { type: string, maxLength: 64, pattern: "(?<word>[a-z0-9]+)+$" }') },
    expect: { file: "definitions/t.yaml", line: 8, col: 52, code: "TC035", text: /pattern "\(\?<word>\[a-z0-9\]\+\)\+\$" can backtrack without bound/ },
  },
  {
    name: "a backreference to a named group under a quantifier",
    files: { "t.yaml": edit(QUERY, 'query: { type: string, maxLength: 64, pattern: "^(?<a>a+)\\\\k<a>+$" }') },
    expect: { file: "definitions/t.yaml", line: 8, col: 52, code: "TC035", text: /super-linear/ },
  },
  {
    name: "an unsafe propertyNames pattern in a named type",
    files: {
      "types.yaml": 'types:\n  Tags:\n    type: object\n    propertyNames: { type: string, maxLength: 40, pattern: "(?<key>[a-z]+)+$" }\n    additionalProperties: { type: string, maxLength: 5 }\n',
      "t.yaml": edit(QUERY, 'query: { $ref: "types.yaml#/Tags" }'),
    },
    expect: { file: "definitions/types.yaml", line: 4, col: 60, code: "TC035", text: /pattern "\(\?<key>\[a-z\]\+\)\+\$" can backtrack/ },
  },
  {
    name: "an unsafe patternProperties key",
    files: { "t.yaml": edit(QUERY, 'query: { type: object, patternProperties: { "(?<k>[a-z]+)+$": { type: string } } }') },
    expect: { file: "definitions/t.yaml", line: 8, code: "TC030", text: /patternProperties/ },
  },
  {
    name: "a recursive union whose untagged branches both recurse into the same property",
    files: {
      "types.yaml": [
        "types:",
        "  Loose:",
        "    anyOf:",
        '      - { type: object, properties: { a: { type: string, maxLength: 5 }, child: { $ref: "#/types/Loose" } } }',
        '      - { type: object, properties: { b: { type: string, maxLength: 5 }, child: { $ref: "#/types/Loose" } } }',
        "",
      ].join("\n"),
      "t.yaml": edit(QUERY, 'query: { $ref: "types.yaml#/Loose" }'),
    },
    expect: { file: "definitions/types.yaml", line: 3, col: 5, code: "TC025", text: /validation time would grow exponentially with nesting: branches 1 and 2 of this `anyOf` both validate `child`/ },
  },
  {
    name: "a tagged union whose branches are not all objects, in the tool's own $defs",
    files: {
      "t.yaml": edit(
        "  required: [query]",
        [
          "  required: [query]",
          "  $defs:",
          "    Step:",
          "      oneOf:",
          '        - { properties: { op: { const: wrap }, next: { $ref: "#/$defs/Step" } }, required: [op] }',
          '        - { properties: { op: { const: pad }, next: { $ref: "#/$defs/Step" } }, required: [op] }',
        ].join("\n"),
        edit(QUERY, 'query: { $ref: "#/$defs/Step" }'),
      ),
    },
    expect: { file: "definitions/t.yaml", line: 12, col: 7, code: "TC025", text: /branches 1 and 2 of this `oneOf` both validate `next`.*tell them apart by a tag \(each branch `type: object`/ },
  },
  {
    name: "an allOf whose branches both recurse into the same items",
    files: {
      "types.yaml": [
        "types:",
        "  Twice:",
        "    type: object",
        "    allOf:",
        '      - { type: object, properties: { kids: { type: array, maxItems: 4, items: { $ref: "#/types/Twice" } } } }',
        '      - { type: object, properties: { kids: { type: array, maxItems: 4, items: { $ref: "#/types/Twice" } } } }',
        "",
      ].join("\n"),
      "t.yaml": edit(QUERY, 'query: { $ref: "types.yaml#/Twice" }'),
    },
    expect: { file: "definitions/types.yaml", line: 4, col: 5, code: "TC025", text: /this `allOf` both validate `kids\[\]`/ },
  },
  {
    name: "two types files that would write the same generated module",
    files: { "a.b.yaml": "types:\n  Foo: { type: string, maxLength: 5 }\n", "a_b.yaml": "types:\n  Bar: { type: integer }\n", "t.yaml": edit(QUERY, 'query: { $ref: "a.b.yaml#/Foo" }') },
    expect: { file: "definitions/a_b.yaml", line: 1, col: 1, code: "TC023", text: /types file a_b\.yaml would be generated as `types\/a_b\.ts`, the module of a\.b\.yaml too/ },
  },
  {
    name: "a named type with the name of a tool's generated type",
    files: { "types.yaml": "types:\n  ListItemsOutput: { type: integer }\n", "t.yaml": edit("    count: { type: integer }", '    count: { $ref: "types.yaml#/ListItemsOutput" }') },
    expect: { file: "definitions/types.yaml", line: 2, col: 3, code: "TC024", text: /type `ListItemsOutput` has the name of tool `list_items`'s output type in the generated index/ },
  },
  {
    name: "a named type with the name of something the runtime exports",
    files: { "types.yaml": "types:\n  TraceEvent: { type: integer }\n", "t.yaml": edit("    count: { type: integer }", '    count: { $ref: "types.yaml#/TraceEvent" }') },
    expect: { file: "definitions/types.yaml", line: 2, col: 3, code: "TC024", text: /has the name of the generated index's own `TraceEvent`/ },
  },
  {
    name: "two tools whose generated types would share a name",
    files: { "t.yaml": TOOL, "u.yaml": edit("name: list_items", "name: list_items_resolved") },
    expect: { file: "definitions/u.yaml", line: 1, col: 7, code: "TC013", text: /tool `list_items_resolved`'s input type would be named `ListItemsResolvedInput`, which is already tool `list_items`'s resolved input type/ },
  },
  {
    name: "malformed percent-encoding in a $ref",
    files: { "t.yaml": edit(QUERY, 'query: { $ref: "#/$defs/%ZZ" }') },
    expect: { file: "definitions/t.yaml", line: 8, col: 20, code: "TC020", text: /malformed percent-encoding: "%ZZ"/ },
  },
  {
    name: "a $ref cycle between named types",
    files: { "types.yaml": 'types:\n  A: { $ref: "#/types/B" }\n  B: { anyOf: [{ type: string, maxLength: 1 }, { $ref: "#/types/A" }] }\n', "t.yaml": edit(QUERY, 'query: { $ref: "types.yaml#/A" }') },
    expect: { file: "definitions/types.yaml", line: 2, col: 6, code: "TC021", text: /\$ref cycle `A` → `B` → `A`/ },
  },
  {
    name: "a $defs entry that is its own allOf branch",
    files: { "t.yaml": edit("  required: [query]", '  required: [query]\n  $defs:\n    L: { allOf: [{ $ref: "#/$defs/L" }] }', edit(QUERY, 'query: { $ref: "#/$defs/L" }')) },
    expect: { file: "definitions/t.yaml", line: 11, col: 5, code: "TC021", text: /`L` → `L`/ },
  },
  {
    name: "a schema nested 2,000 deep, block style",
    files: { "t.yaml": nested(2000) },
    expect: { file: "definitions/t.yaml", line: 197, col: 1, code: "TC037", text: /nested more than 128 levels deep/ },
  },
  {
    name: "a schema nested 2,000 deep, flow style",
    files: { "t.yaml": nestedFlow(2000) },
    expect: { file: "definitions/t.yaml", line: 5, code: "TC037", text: /nested more than 128 levels deep/ },
  },
  {
    name: "a tool named __proto__",
    files: { "t.yaml": edit("name: list_items", "name: __proto__") },
    expect: { file: "definitions/t.yaml", line: 1, col: 7, code: "TC014", text: /sets the object's prototype/ },
  },
  {
    name: "a tool named then",
    files: { "t.yaml": edit("name: list_items", "name: then") },
    expect: { file: "definitions/t.yaml", line: 1, col: 7, code: "TC014", text: /thenable/ },
  },
];

describe("bad definitions found by attack", () => {
  it.each(cases)("$name → $expect.code", async ({ files, expect: want }) => {
    const dir = projectWith(files);
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "keep.txt"), "user file\n");
    const before = snapshotTree(join(dir, "generated"));
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|Maximum call stack|URI malformed/);
    const prefix = new RegExp(`^${want.file}:${want.line}:${want.col ?? "\\d+"}: error ${want.code}: `);
    const line = result.stderr.split("\n").find((l) => prefix.test(l));
    expect(line, result.stderr).toBeDefined();
    expect(line).toMatch(want.text);
    expect(snapshotTree(join(dir, "generated"))).toEqual(before);
  });

  // Constructs newer than the ReDoS checker: where this Node's RegExp accepts them, the checker cannot read them, so TC035; where it does not, the meta-schema's regex check (TC003).
  it.each([
    { construct: "an inline modifier", pattern: "^(?i:a+)+$", probe: "(?i:a)" },
    { construct: "a group name declared twice", pattern: "^(?:(?<a>x)|(?<a>y))+$", probe: "(?<a>x)|(?<a>y)" },
  ])("refuses $construct, whatever this Node's RegExp makes of it", async ({ pattern, probe }) => {
    const dir = projectWith({ "t.yaml": edit(QUERY, `query: { type: string, maxLength: 64, pattern: "${pattern}" }`) });
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    let accepted = true;
    try {
      new RegExp(probe, "u");
    } catch {
      accepted = false;
    }
    const line = result.stderr.split("\n").find((l) => l.startsWith("definitions/t.yaml:8:52: error"));
    expect(line, result.stderr).toMatch(accepted ? /error TC035: .*cannot be proven to run in linear time: the ReDoS checker cannot read it/ : /error TC003: .*must be a valid regex/);
  });

  it("`toolc import` refuses a pattern it cannot prove safe: the tool is skipped, with the same reason", async () => {
    const dir = projectWith({});
    const tools = [
      { name: "good", inputSchema: { type: "object" } },
      { name: "bad", inputSchema: { type: "object", properties: { q: { type: "string", maxLength: 64, pattern: "(?<word>[a-z0-9]+)+$" } } } },
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools }));
    const result = await runCli(dir, ["import", "tools.json", "--out", "imported"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tools\.json: \/tools\/1\/inputSchema\/properties\/q\/pattern: error: pattern "\(\?<word>\[a-z0-9\]\+\)\+\$" can backtrack without bound/m);
    expect(snapshotTree(join(dir, "imported"))).toEqual({ "good.yaml": expect.any(String) });
  });

  it("compiles a schema nested as deep as the limit allows, and a recursive type through a property", async () => {
    const types = "types:\n  Node:\n    type: object\n    properties:\n      next: { $ref: \"#/types/Node\" }\n";
    // Named groups are checked as the numbered groups they are: this one is safe, and compiles.
    const dated = 'day: { type: string, maxLength: 10, pattern: "^(?<y>\\\\d{4})-(?<m>\\\\d{2})-(?<d>\\\\d{2})$" }';
    const dir = projectWith({ "deep.yaml": nested(60), "types.yaml": types, "t.yaml": edit(QUERY, `${QUERY}\n    node: { $ref: "types.yaml#/Node" }\n    ${dated}`) });
    const result = await runCli(dir, ["generate"]);
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
  });

  it("compiles the recursive unions that validate in linear time: tagged, of different types, or recursing in different places", async () => {
    const types = [
      "types:",
      "  Expr:",
      "    oneOf:",
      '      - { $ref: "#/types/Num" }',
      '      - { $ref: "#/types/Neg" }',
      '      - { $ref: "#/types/Add" }',
      "  Num: { type: object, properties: { kind: { const: num }, value: { type: number } }, required: [kind, value] }",
      '  Neg: { type: object, properties: { arg: { $ref: "#/types/Expr" }, kind: { const: neg } }, required: [kind, arg] }',
      '  Add: { type: object, properties: { kind: { enum: [add, sum] }, args: { type: array, maxItems: 9, items: { $ref: "#/types/Expr" } } }, required: [kind] }',
      "  Json:",
      "    anyOf:",
      "      - { type: [string, number, boolean, \"null\"], maxLength: 99 }",
      '      - { type: array, maxItems: 9, items: { $ref: "#/types/Json" } }',
      '      - { type: object, additionalProperties: { $ref: "#/types/Json" } }',
      "  Either:",
      "    anyOf:",
      '      - { type: object, properties: { left: { $ref: "#/types/Either" } }, required: [left] }',
      '      - { type: object, properties: { right: { $ref: "#/types/Either" } }, required: [right] }',
      "",
    ].join("\n");
    const props = ['expr: { $ref: "types.yaml#/Expr" }', 'json: { $ref: "types.yaml#/Json" }', 'either: { $ref: "types.yaml#/Either" }'].map((p) => `    ${p}`).join("\n");
    const dir = projectWith({ "types.yaml": types, "t.yaml": edit(QUERY, `${QUERY}\n${props}`) });
    const result = await runCli(dir, ["generate"]);
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
  });

  it("warns, without failing, about input strings and arrays with no upper bound", async () => {
    const dir = projectWith({ "t.yaml": edit(QUERY, "query: { type: string }\n    tags: { type: array, items: { enum: [a, b] } }") });
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("definitions/t.yaml:8:20: warning TC036: input is a string with no `maxLength`");
    expect(result.stderr).toContain("definitions/t.yaml:9:19: warning TC036: input is an array with no `maxItems`");
    // Output, enums and bounded values are not linted.
    expect(result.stderr.match(/TC036/g)).toHaveLength(2);
  });
});
