/**
 * Every class of bad definition: exit 1, a `file:line:col` at the right
 * place with the right code, and an output folder left exactly as it was.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectWith, runCli, snapshotTree } from "./helpers.js";

const TYPES = `types:
  Item:
    type: object
    properties:
      id: { type: string }
    required: [id]
`;

/** A valid tool; each case replaces one line (or appends) to break it. */
const TOOL = `name: list_items
version: 1
description: List items.
effect: read
input:
  type: object
  properties:
    query: { type: string, minLength: 1 }
  required: [query]
output:
  type: object
  properties:
    items: { type: array, items: { $ref: "types.yaml#/Item" } }
  required: [items]
examples:
  - name: one
    input: { query: a }
    output: { items: [{ id: x }] }
`;

interface Case {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly expect: { file: string; line: number; col: number; code: string; text?: RegExp };
}

function edit(find: string, replace: string, text = TOOL): string {
  if (!text.includes(find)) throw new Error(`case setup: ${find} not found`);
  return text.replace(find, replace);
}

const WRITE_TOOL = edit("effect: read", "effect: write\nretry: { attempts: 3 }");

const cases: Case[] = [
  { name: "a YAML syntax error", files: { "types.yaml": TYPES, "t.yaml": edit("  required: [query]", "  required: [query") }, expect: { file: "definitions/t.yaml", line: 10, col: 1, code: "TC001" } },
  { name: "a misspelt keyword", files: { "types.yaml": TYPES, "t.yaml": edit("  required: [query]", "  requird: [query]") }, expect: { file: "definitions/t.yaml", line: 9, col: 3, code: "TC002", text: /did you mean `required`/ } },
  { name: "an unknown effect", files: { "types.yaml": TYPES, "t.yaml": edit("effect: read", "effect: reed") }, expect: { file: "definitions/t.yaml", line: 4, col: 9, code: "TC003", text: /one of read, write, destructive; did you mean `read`/ } },
  { name: "a duplicate tool name", files: { "types.yaml": TYPES, "a.yaml": TOOL, "b.yaml": TOOL }, expect: { file: "definitions/b.yaml", line: 1, col: 7, code: "TC010", text: /already defined in definitions\/a.yaml/ } },
  // A named type that fails strict mode (no `type: object` beside `required`) is reported once, at the types
  // file, and the tool that uses it never reaches the validator emitter, whose Ajv would throw on it.
  { name: "a named type that strict mode rejects, used by a tool", files: { "types.yaml": edit("    type: object\n", "", TYPES), "t.yaml": TOOL }, expect: { file: "definitions/types.yaml", line: 3, col: 5, code: "TC031", text: /strictTypes/ } },
  { name: "a dangling $ref", files: { "types.yaml": TYPES, "t.yaml": edit("types.yaml#/Item", "types.yaml#/Itme") }, expect: { file: "definitions/t.yaml", line: 13, col: 42, code: "TC020", text: /did you mean `Item`/ } },
  { name: "a $ref to a missing file", files: { "t.yaml": TOOL }, expect: { file: "definitions/t.yaml", line: 13, col: 42, code: "TC020", text: /no types file/ } },
  { name: "an example that breaks its schema", files: { "types.yaml": TYPES, "t.yaml": edit("    input: { query: a }", "    input: { query: 42 }") }, expect: { file: "definitions/t.yaml", line: 17, col: 21, code: "TC050", text: /query must be string/ } },
  { name: "an invalid example that is in fact valid", files: { "types.yaml": TYPES, "t.yaml": `${TOOL}  - name: bad\n    input: { query: fine }\n    invalid: [query]\n` }, expect: { file: "definitions/t.yaml", line: 21, col: 5, code: "TC051" } },
  { name: "an invalid example failing at other paths", files: { "types.yaml": TYPES, "t.yaml": `${TOOL}  - name: bad\n    input: { query: "" }\n    invalid: [other]\n` }, expect: { file: "definitions/t.yaml", line: 21, col: 14, code: "TC052", text: /expected issues at "other", but the issues are at "query"/ } },
  { name: "a retried non-idempotent write", files: { "types.yaml": TYPES, "t.yaml": WRITE_TOOL }, expect: { file: "definitions/t.yaml", line: 5, col: 20, code: "TC040" } },
  { name: "an idempotency key that isn't a required property", files: { "types.yaml": TYPES, "t.yaml": edit("effect: read", "effect: write\nidempotencyKey: requestId") }, expect: { file: "definitions/t.yaml", line: 5, col: 17, code: "TC041", text: /not an input property/ } },
  { name: "an idempotency key that is optional", files: { "types.yaml": TYPES, "t.yaml": edit("effect: read", "effect: write\nidempotencyKey: query", edit("  required: [query]", "  required: []")) }, expect: { file: "definitions/t.yaml", line: 5, col: 17, code: "TC041", text: /not in `input.required`/ } },
  { name: "an array input (an output may have any root)", files: { "types.yaml": TYPES, "t.yaml": edit("input:\n  type: object", "input:\n  type: array") }, expect: { file: "definitions/t.yaml", line: 6, col: 9, code: "TC032", text: /the input root must be `type: object`/ } },
  { name: "a name with a space", files: { "types.yaml": TYPES, "t.yaml": edit("name: list_items", "name: list items") }, expect: { file: "definitions/t.yaml", line: 1, col: 7, code: "TC011" } },
  { name: "if/then", files: { "types.yaml": TYPES, "t.yaml": edit("  required: [query]", "  required: [query]\n  if: { required: [query] }\n  then: { required: [query] }") }, expect: { file: "definitions/t.yaml", line: 10, col: 3, code: "TC030" } },
  { name: "a required property that is not declared", files: { "types.yaml": TYPES, "t.yaml": edit("  required: [query]", "  required: [qeury]") }, expect: { file: "definitions/t.yaml", line: 9, col: 14, code: "TC003", text: /did you mean `query`/ } },
  { name: "an unknown format", files: { "types.yaml": TYPES, "t.yaml": edit("query: { type: string, minLength: 1 }", "query: { type: string, format: colour }") }, expect: { file: "definitions/t.yaml", line: 8, col: 36, code: "TC033", text: /unknown format "colour"; toolc checks date, time, date-time/ } },
  { name: "a missing required field", files: { "types.yaml": TYPES, "t.yaml": edit("description: List items.\n", "") }, expect: { file: "definitions/t.yaml", line: 1, col: 1, code: "TC004", text: /`description`/ } },
  { name: "a duplicate type name", files: { "types.yaml": TYPES, "more.yaml": TYPES, "t.yaml": TOOL }, expect: { file: "definitions/types.yaml", line: 2, col: 3, code: "TC022" } },
  { name: "a default that breaks its own schema", files: { "types.yaml": TYPES, "t.yaml": edit("query: { type: string, minLength: 1 }", "query: { type: string, minLength: 1 }\n    page: { type: integer, minimum: 1, default: 0 }") }, expect: { file: "definitions/t.yaml", line: 9, col: 49, code: "TC034", text: /must be >= 1/ } },
  { name: "a __proto__ key", files: { "types.yaml": TYPES, "t.yaml": edit("query: { type: string, minLength: 1 }", "query: { type: string, minLength: 1 }\n    __proto__: { type: string }") }, expect: { file: "definitions/t.yaml", line: 9, col: 5, code: "TC003", text: /prototype/ } },
  { name: "a map used as a key", files: { "types.yaml": TYPES, "t.yaml": edit("query: { type: string, minLength: 1 }", "query: { type: string, minLength: 1 }\n    ? { a: 1 }\n    : { type: string }") }, expect: { file: "definitions/t.yaml", line: 9, col: 7, code: "TC003", text: /plain string/ } },
  { name: "a comma in an unquoted flow description", files: { "types.yaml": TYPES, "t.yaml": edit("query: { type: string, minLength: 1 }", "query: { type: string, description: Text, e.g. abc }") }, expect: { file: "definitions/t.yaml", line: 8, col: 47, code: "TC002", text: /quote text/ } },
];

describe("bad definitions", () => {
  it.each(cases)("$name → $expect.code at $expect.line:$expect.col", async ({ files, expect: want }) => {
    const dir = projectWith(files);
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "keep.txt"), "user file\n");
    const before = snapshotTree(join(dir, "generated"));
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    const line = `${want.file}:${want.line}:${want.col}: error ${want.code}:`;
    expect(result.stderr).toContain(line);
    if (want.text) expect(result.stderr.split("\n").find((l) => l.startsWith(line))).toMatch(want.text);
    expect(result.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
    expect(result.stderr).toContain("nothing was written");
    expect(snapshotTree(join(dir, "generated"))).toEqual(before);
  });

  it("checks the same default schema in every tool that has it, and a default that refers to a named type", async () => {
    const page = "query: { type: string, minLength: 1 }\n    page: { type: integer, minimum: 1, default: 0 }";
    const good = "query: { type: string, minLength: 1 }\n    page: { type: integer, minimum: 1, default: 1 }";
    const refDefault = 'query: { type: string, minLength: 1 }\n    first: { $ref: "types.yaml#/Item", default: { name: x } }';
    const dir = projectWith({
      "types.yaml": TYPES,
      "a.yaml": edit("query: { type: string, minLength: 1 }", good, edit("name: list_items", "name: a")),
      "b.yaml": edit("query: { type: string, minLength: 1 }", page, edit("name: list_items", "name: b")),
      "c.yaml": edit("query: { type: string, minLength: 1 }", page, edit("name: list_items", "name: c")),
      "d.yaml": edit("query: { type: string, minLength: 1 }", refDefault, edit("name: list_items", "name: d")),
    });
    const result = await runCli(dir, ["check"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("definitions/b.yaml:9:49: error TC034");
    expect(result.stderr).toContain("definitions/c.yaml:9:49: error TC034");
    expect(result.stderr).toMatch(/definitions\/d\.yaml:9:\d+: error TC034: default \{"name":"x"\} does not match its own schema/);
    expect(result.stderr).not.toMatch(/definitions\/a\.yaml:\d+:\d+: error/);
  });

  it("reports every problem in one run, not only the first", async () => {
    const dir = projectWith({ "types.yaml": TYPES, "a.yaml": edit("effect: read", "effect: reed"), "b.yaml": edit("name: list_items", "name: other\nfoo: 1") });
    const result = await runCli(dir, ["check"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("definitions/a.yaml:4:9: error TC003");
    expect(result.stderr).toContain("definitions/b.yaml:2:1: error TC002");
  });

  it("warns, but compiles, a valid MCP name that other providers reject", async () => {
    const dir = projectWith({ "types.yaml": TYPES, "t.yaml": edit("name: list_items", "name: items.list") });
    const result = await runCli(dir, ["generate"]);
    expect(result.stderr).toContain("definitions/t.yaml:1:7: warning TC012");
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, "generated", "index.ts"), "utf8")).toContain('"items.list"');
  });
});
