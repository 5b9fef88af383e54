/**
 * The "after" figures of docs/robustness.md's second attack pass, for the
 * rows the compiler and the validators close: how long toolc takes to refuse
 * each unreadable pattern (which now never reaches a validator), how many
 * property reads the attack's recursive unions take, how many exact decimal
 * multiples are rejected, and what the name collisions get. Counts, except
 * the pattern rows; one-off figures, not a benchmark.
 *
 * Run alone: npx tsx bench/second-pass-compiler.ts
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { createAjv } from "../generator/ajv.js";
import { withDiscriminators } from "../generator/discriminators.js";
import type { JsonSchema } from "../generator/ir.js";
import { patternProblem } from "../generator/normalize/patterns.js";
import { compileYaml, toolYaml } from "../test/runtime/yaml-contracts.js";

type Print = (line: string) => void;

/** The attack's patterns, and an inline modifier where this Node's RegExp has them. */
function unreadablePatterns(): string[] {
  const patterns = ["(?<word>[a-z0-9]+)+$", "^(?<id>\\w+)*-$", "^(?<a>a+)\\k<a>+$", "^(?<a>a)(?:\\k<a>|a)+$"];
  try {
    new RegExp("(?i:a)", "u");
    patterns.push("^(?i:a+)+$");
  } catch {
    // Node 22 and older: the pattern is invalid there, TC003.
  }
  return patterns;
}

function patternRows(print: Print): void {
  patternProblem("^[a-z]+$"); // loads and warms the checker, so the first row does not pay for it
  for (const pattern of unreadablePatterns()) {
    const t0 = performance.now();
    const problem = patternProblem(pattern);
    const ms = performance.now() - t0;
    print(
      `| pattern \`${pattern.replace(/\|/g, "\\|")}\` | ${problem === undefined ? "accepted" : `refused, TC035 (${problem.reason.split(" (")[0]})`} | ${ms.toFixed(0)} ms to decide |`,
    );
  }
}

/** The unit test's attack: a union whose two branches both recurse into `child`, tagged by `kind`. */
const UNION_INPUT = (() => {
  const branch = (kind: string) => ({
    type: "object",
    properties: { child: { $ref: "#/$defs/Node" }, kind: { const: kind } },
    required: ["kind"],
    additionalProperties: false,
  });
  return {
    type: "object",
    properties: { node: { $ref: "#/$defs/Node" } },
    additionalProperties: false,
    $defs: { Node: { anyOf: [branch("leaf"), branch("wrap")] } },
  };
})();

function chain(depth: number, leaf: object): unknown {
  let node: unknown = leaf;
  for (let i = 0; i < depth; i++) node = { kind: "wrap", child: node };
  return { node };
}

/** Property reads and key listings `validate` makes on `data`. */
function reads(validate: (data: unknown) => boolean, data: unknown): number {
  let count = 0;
  const watch = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    const target = Array.isArray(value) ? value.map(watch) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, watch(v)]));
    return new Proxy(target, { get: (t, k, r) => (count++, Reflect.get(t, k, r)), ownKeys: (t) => (count++, Reflect.ownKeys(t)) });
  };
  validate(watch(data));
  return count;
}

function unionRows(print: Print): void {
  const validate = createAjv({ applyDefaults: true }).compile(withDiscriminators(UNION_INPUT as JsonSchema));
  print(`| recursive union, valid 24-level chain | ${reads(validate, chain(24, { kind: "leaf" })).toLocaleString("en")} property reads |`);
  print(`| recursive union, 16 levels, invalid leaf | ${reads(validate, chain(16, { kind: "leaf", extra: 1 })).toLocaleString("en")} property reads |`);
}

/** Of the 100,001 two-decimal values 0.00 to 1000.00, how many `multipleOf: 0.01` rejects: Ajv's float division, then toolc. */
function multipleOfRows(print: Print): void {
  const schema = { type: "number", multipleOf: 0.01 };
  const floatDivision = new Ajv2020().compile(schema);
  const toolc = createAjv({ applyDefaults: false }).compile(schema);
  let before = 0;
  let after = 0;
  for (let k = 0; k <= 100_000; k++) {
    const value = Number(`${Math.floor(k / 100)}.${String(k % 100).padStart(2, "0")}`);
    if (!floatDivision(value)) before++;
    if (!toolc(value)) after++;
  }
  print(`| multipleOf 0.01 over 0.00–1000.00 | float division rejects ${before.toLocaleString("en")} of 100,001 exact multiples; toolc ${after} |`);
}

const QUERY_TOOL = toolYaml(
  "list_items",
  "effect: read\ninput:\n  type: object\n  properties:\n    query: { type: string, maxLength: 9 }\noutput:\n  type: object\n  properties:\n    count: { type: integer }\n",
);

function collisionRows(print: Print): void {
  const cases: Record<string, Record<string, string>> = {
    "a.b.yaml beside a_b.yaml": {
      "a.b.yaml": "types:\n  Foo: { type: string, maxLength: 5 }\n",
      "a_b.yaml": "types:\n  Bar: { type: integer }\n",
      "t.yaml": QUERY_TOOL,
    },
    "named type ListItemsOutput beside tool list_items": {
      "types.yaml": "types:\n  ListItemsOutput: { type: integer }\n",
      "t.yaml": QUERY_TOOL.replace("count: { type: integer }", 'count: { $ref: "types.yaml#/ListItemsOutput" }'),
    },
    "tools list_items and list_items_resolved": { "t.yaml": QUERY_TOOL, "u.yaml": QUERY_TOOL.replace("name: list_items", "name: list_items_resolved") },
  };
  for (const [name, files] of Object.entries(cases)) {
    const codes = compileYaml(files)
      .diagnostics.filter((d) => d.severity === "error")
      .map((d) => d.code);
    print(`| ${name} | ${codes.length === 0 ? "compiles" : `refused at generate: ${codes.join(", ")}`} |`);
  }
}

export function benchSecondPassCompiler(print: Print = console.log): void {
  patternRows(print);
  unionRows(print);
  multipleOfRows(print);
  collisionRows(print);
}

if (import.meta.url === `file://${process.argv[1]}`) benchSecondPassCompiler();
