/**
 * Recursive unions: time per KB of input against the nesting depth, through
 * toolc's own Ajv configuration, on a body of about 64 KB made of chains
 * `depth` levels deep. A validator linear in its input keeps the time per KB
 * flat as the depth grows. The cases are a tagged union whose branches both
 * recurse into the same property (which Ajv, validating every branch with
 * `allErrors`, took time exponential in the depth for: the "Ajv as written"
 * column, the schema compiled without toolc's discriminator, timed only while
 * that stays under a second) and a union of different JSON types (a JSON
 * value, which Ajv compiles the same either way).
 *
 * Run alone: npx tsx bench/recursive-unions.ts
 */
import { createAjv } from "../generator/ajv.js";
import { withDiscriminators } from "../generator/discriminators.js";
import type { JsonObject } from "../generator/ir.js";
import { copyJson } from "../generator/runtime/json.js";
import { bestOf } from "./lib/measure.js";

const BODY_BYTES = 128 * 1024;
const DEPTHS = [4, 8, 12, 16, 32, 64, 128, 200];
/**
 * Ajv as written multiplies its time with each level (about 2.5× on the
 * tagged case), so it is timed only up to this depth, and not past a body
 * that took longer than AS_WRITTEN_MAX_MS: the next depth would take minutes.
 */
const AS_WRITTEN_MAX_DEPTH = 16;
const AS_WRITTEN_MAX_MS = 1000;

interface Case {
  readonly name: string;
  readonly schema: JsonObject;
  /** One chain `depth` levels deep; `valid: false` spoils its innermost value. */
  readonly chain: (depth: number, valid: boolean) => unknown;
}

const tagged = (kind: string): JsonObject => ({
  type: "object",
  properties: { child: { $ref: "#/$defs/Node" }, kind: { const: kind } },
  required: ["kind"],
  additionalProperties: false,
});

const CASES: readonly Case[] = [
  {
    name: "tagged anyOf, both branches recurse into `child`",
    schema: { $defs: { Node: { anyOf: [tagged("leaf"), tagged("wrap")] } } },
    chain: (depth, valid) => {
      let node: unknown = valid ? { kind: "leaf" } : { kind: "leaf", extra: 1 };
      for (let i = 0; i < depth; i++) node = { kind: "wrap", child: node };
      return node;
    },
  },
  {
    name: "anyOf of JSON types (a JSON value)",
    schema: {
      $defs: {
        Node: {
          anyOf: [
            { type: "string" },
            { type: "number" },
            { type: "null" },
            { type: "array", items: { $ref: "#/$defs/Node" } },
            { type: "object", additionalProperties: { $ref: "#/$defs/Node" } },
          ],
        },
      },
    },
    chain: (depth, valid) => {
      let node: unknown = valid ? 1 : true;
      for (let i = 0; i < depth; i++) node = i % 2 === 0 ? [node] : { a: node };
      return node;
    },
  },
];

function root(schema: JsonObject): JsonObject {
  return {
    type: "object",
    properties: { items: { type: "array", items: { $ref: "#/$defs/Node" } } },
    additionalProperties: false,
    $defs: schema.$defs as JsonObject,
  };
}

/** About BODY_BYTES of JSON: as many chains as fit. */
function body(c: Case, depth: number, valid: boolean): string {
  const one = JSON.stringify(c.chain(depth, true)).length + 1;
  const count = Math.max(1, Math.floor(BODY_BYTES / one));
  return JSON.stringify({ items: Array.from({ length: count }, (_, i) => c.chain(depth, valid || i < count - 1)) });
}

type Validate = (data: unknown) => boolean;

/** ms per KB for parse + copy + validate. */
function msPerKb(validate: Validate, text: string, runs = 9): number {
  const ms = bestOf(runs, () => {
    const copy = copyJson(JSON.parse(text));
    if (copy.ok) validate(copy.value);
  });
  return ms / (text.length / 1024);
}

export function benchRecursiveUnions(print: (line: string) => void = console.log): { name: string; msPerKb: number[] }[] {
  const ajv = createAjv({ applyDefaults: true, copiedData: true });
  const results: { name: string; msPerKb: number[] }[] = [];
  print("| case | depth | body KB | toolc ms/KB, valid | toolc ms/KB, invalid leaf | Ajv as written ms/KB, valid | as written / toolc |");
  print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const c of CASES) {
    const schema = root(c.schema);
    const compiled = withDiscriminators(schema);
    const toolc = ajv.compile(compiled as object) as Validate;
    const asWritten = ajv.compile(schema) as Validate;
    // Without a tagged union the two are one schema: nothing to compare.
    const differs = compiled !== schema;
    const perKb: number[] = [];
    // Warm both up, so the first row does not carry the JIT's start.
    msPerKb(toolc, body(c, DEPTHS[0] as number, true), 20);
    msPerKb(asWritten, body(c, DEPTHS[0] as number, true), 20);
    let timeAsWritten = differs;
    for (const depth of DEPTHS) {
      const valid = body(c, depth, true);
      const t = msPerKb(toolc, valid);
      const bad = msPerKb(toolc, body(c, depth, false));
      const slow = timeAsWritten && depth <= AS_WRITTEN_MAX_DEPTH ? msPerKb(asWritten, valid, 1) : undefined;
      if (slow !== undefined && slow * (valid.length / 1024) > AS_WRITTEN_MAX_MS) timeAsWritten = false;
      perKb.push(t);
      print(
        `| ${c.name} | ${depth} | ${(valid.length / 1024).toFixed(0)} | ${t.toFixed(4)} | ${bad.toFixed(4)} | ${slow === undefined ? "—" : slow.toFixed(4)} | ${slow === undefined ? "—" : `${(slow / t).toFixed(0)}×`} |`,
      );
    }
    results.push({ name: c.name, msPerKb: perKb });
    const flat = Math.max(...perKb) / Math.min(...perKb);
    print(`| ${c.name}: largest ÷ smallest toolc ms/KB over depths ${DEPTHS[0]}–${DEPTHS[DEPTHS.length - 1]} | | | ${flat.toFixed(2)}× | | | |`);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) benchRecursiveUnions();
