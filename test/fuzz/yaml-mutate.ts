/**
 * Mutated contract definitions: the demo's files plus a small contract, with
 * one file changed by line-level edits (delete, duplicate, swap, re-indent,
 * inject a keyword, garbage or unicode). Most mutants are invalid; some stay
 * valid, which keeps the "compiles" path in the mix.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

const DEMO = join(new URL("../../", import.meta.url).pathname, "definitions");
/** The demo's view sources (get_order's `ui.source`): assets beside the contracts, copied as they are, never mutated. */
export const DEMO_VIEWS = join(DEMO, "views");

const SMALL = `name: ping
version: 1
description: Answers pong.
effect: read
input:
  type: object
  properties:
    n: { type: integer, minimum: 0, default: 1 }
    tags: { type: array, items: { type: string }, maxItems: 3 }
output:
  type: object
  properties:
    pong: { const: true }
  required: [pong]
`;

export const SEEDS: Record<string, string> = {
  ...Object.fromEntries(
    readdirSync(DEMO)
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => [f, readFileSync(join(DEMO, f), "utf8")]),
  ),
  "ping.yaml": SMALL,
};

/** YAML aliases that do not resolve or expand too far: yaml's toJS throws on them, and the loader must locate that. */
const ALIASES = ["<<: *missing", "x: *nope", "a: &a [1]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]"];

const INJECTIONS = [
  "not: { type: string }",
  '$ref: "#/nope"',
  '$ref: "types.yaml#/Missing"',
  "unevaluatedProperties: false",
  "if: {}",
  "type: strnig",
  "required: [ghost]",
  "default: 12",
  "minimum: .nan",
  "maximum: .inf",
  'pattern: "(["',
  "format: bogus",
  "additionalProperties: 3",
  "x-sensitive: yes",
  "&a [*a]",
  "!!binary AAAA",
  "- - -",
  "? complex\n: key",
  ...ALIASES,
  "\t\ttabs: here",
  'name: ""',
  "version: -1",
  "effect: explode",
  "retry: { attempts: 9 }",
  "idempotencyKey: nothere",
  "examples: [{ name: x, input: 5 }]",
  'types: { A: { $ref: "#/types/A" } }',
  "\u0000",
  "\uFEFFbom: 1",
  'emoji: "😀\u202e"',
  'key: "unterminated',
  "{",
  "]",
  "%YAML 1.1",
  "---",
  "...",
];

type Edit = {
  op: "delete" | "duplicate" | "swap" | "indent" | "dedent" | "inject" | "garbage" | "truncate" | "value";
  at: number;
  other: number;
  text: string;
};

const edit: fc.Arbitrary<Edit> = fc.record({
  op: fc.constantFrom("delete", "duplicate", "swap", "indent", "dedent", "inject", "garbage", "truncate", "value"),
  at: fc.nat(),
  other: fc.nat(),
  text: fc.oneof(fc.constantFrom(...INJECTIONS), fc.string({ unit: "binary", maxLength: 12 }), fc.string({ maxLength: 12 })),
});

/** Replaces the value after the first `: ` on a line (a swapped value, in effect). */
function replaceValue(line: string, text: string): string {
  const i = line.indexOf(": ");
  return i < 0 ? line : `${line.slice(0, i + 2)}${text}`;
}

function apply(lines: string[], e: Edit): string[] {
  const out = [...lines];
  const n = out.length;
  if (n === 0) return [e.text];
  const i = e.at % n;
  const j = e.other % n;
  switch (e.op) {
    case "delete":
      out.splice(i, 1);
      break;
    case "duplicate":
      out.splice(i, 0, out[i]);
      break;
    case "swap":
      [out[i], out[j]] = [out[j], out[i]];
      break;
    case "indent":
      out[i] = `  ${out[i]}`;
      break;
    case "dedent":
      out[i] = out[i].replace(/^ {1,2}/, "");
      break;
    case "inject":
      out.splice(i, 0, `${out[i].match(/^\s*/)?.[0] ?? ""}${e.text}`);
      break;
    case "garbage":
      out[i] = `${out[i].slice(0, e.other % (out[i].length + 1))}${e.text}${out[i].slice(e.other % (out[i].length + 1))}`;
      break;
    case "truncate":
      out.splice(i);
      break;
    case "value":
      out[i] = replaceValue(out[i], out[j].split(": ").pop() ?? e.text);
      break;
  }
  return out;
}

/** The seeds with one file mutated by 1-4 edits. */
export const mutatedDefinitions: fc.Arbitrary<Record<string, string>> = fc
  .tuple(fc.constantFrom(...Object.keys(SEEDS)), fc.array(edit, { minLength: 1, maxLength: 4 }))
  .map(([file, edits]) => ({ ...SEEDS, [file]: edits.reduce(apply, SEEDS[file].split("\n")).join("\n") }));
