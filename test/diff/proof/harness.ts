/**
 * Checks one verdict of `toolc diff` against the validators themselves.
 * A pair is one tool's schema before and after an edit, in one direction.
 * Both sides go through toolc's load and normalize, the diff decides, and
 * then values sampled from the schemas are validated with a real Ajv:
 *
 * - compatible input: every value the old schema accepts, the new one accepts;
 * - compatible output: every value the new schema accepts, the old one accepts
 *   once the old client has dropped the properties it does not know;
 * - breaking: a value exists that shows it (found among the samples).
 *
 * Warnings are the diff saying it cannot decide; they are counted, not checked.
 */
import fc from "fast-check";
import { diffContracts } from "../../../generator/diff/index.js";
import { EMPTY_DIFF_CONFIG } from "../../../generator/diff/config.js";
import { sideFromTexts, type ContractSide } from "../../../generator/diff/sources.js";
import { dropUnknownProperties } from "../../../generator/runtime/unknown-properties.js";
import type { JsonObject } from "../../../generator/ir.js";
import { independentAjv } from "../../fuzz/harness.js";
import { SchemaArbitraries } from "../../soundness/schema-arbitrary.js";

export type Direction = "input" | "output";
export type Verdict = "compatible" | "breaking" | "warning";

export interface Pair {
  readonly label: string;
  readonly direction: Direction;
  readonly base: JsonObject;
  readonly head: JsonObject;
}

export interface Outcome {
  /** undefined when either side does not compile (an edit toolc itself refuses). */
  readonly verdict?: Verdict;
  readonly rules: readonly string[];
  /** Why the verdict is wrong, if it is. */
  readonly failure?: string;
}

const EMPTY_OBJECT = { type: "object" };

/**
 * One Ajv for every pair: a new instance compiles the draft 2020-12
 * meta-schema again before its first schema, which was half of this
 * proof's run time.
 */
const ajv = independentAjv(false);

/** Sides by their text: a corpus schema is the base of many edits, and compiling it is most of the cost. */
const compiled = new Map<string, ContractSide | undefined>();

function sideOf(schema: JsonObject, direction: Direction): ContractSide | undefined {
  const tool = { name: "t", version: 1, description: "t", effect: "read", input: direction === "input" ? schema : EMPTY_OBJECT, output: direction === "output" ? schema : EMPTY_OBJECT };
  const text = JSON.stringify(tool);
  if (!compiled.has(text)) {
    if (compiled.size > 200) compiled.clear();
    compiled.set(text, sideFromTexts([{ source: "t.yaml", display: "t.yaml", text }], ".").side);
  }
  return compiled.get(text);
}

function verdictOf(base: ContractSide, head: ContractSide, direction: Direction): { verdict: Verdict; rules: string[] } {
  const levels = diffContracts(base, head, EMPTY_DIFF_CONFIG).changes.flatMap((c) => c.affects.filter((a) => a.direction === direction).map((a) => ({ rule: c.rule, level: a.level })));
  const rules = levels.filter((l) => l.level !== "info").map((l) => `${l.rule}:${l.level}`);
  if (levels.some((l) => l.level === "breaking")) return { verdict: "breaking", rules };
  // Undecided is the diff saying it cannot tell: counted with the warnings, never as compatible.
  return { verdict: levels.some((l) => l.level === "undecided") ? "warning" : "compatible", rules };
}

const served = (side: ContractSide, direction: Direction): JsonObject => {
  const tool = side.ir.tools[0] as (typeof side.ir.tools)[number];
  return direction === "input" ? tool.inputSchema : tool.outputSchema;
};

/**
 * Values from the side callers produce (old input, new output), each paired
 * with whether the other side accepts it.
 */
function samples(pair: Pair, base: JsonObject, head: JsonObject, runs: number, seed: number): { value: unknown; accepted: boolean }[] {
  const [from, to] = pair.direction === "input" ? [base, head] : [head, base];
  try {
    const validFrom = ajv.compile(from);
    const validTo = ajv.compile(to);
    const values = fc.sample(new SchemaArbitraries(from as never, 5).root$(), { numRuns: runs, seed });
    return values.filter((v) => validFrom(v)).map((value) => {
      const received = structuredClone(value);
      // An old client drops the output properties it does not know before it validates.
      if (pair.direction === "output") dropUnknownProperties(base, received);
      return { value, accepted: validTo(received) };
    });
  } finally {
    // Each pair's schemas leave the instance, so no `$id` of one pair can clash with another's.
    ajv.removeSchema(from);
    ajv.removeSchema(to);
  }
}

export function checkPair(pair: Pair, runs: number, seed = 7): Outcome {
  const base = sideOf(pair.base, pair.direction);
  const head = sideOf(pair.head, pair.direction);
  if (!base || !head) return { rules: [] };
  const { verdict, rules } = verdictOf(base, head, pair.direction);
  if (verdict === "warning") return { verdict, rules };
  const sampled = samples(pair, served(base, pair.direction), served(head, pair.direction), runs, seed);
  if (verdict === "compatible") {
    const refused = sampled.find((s) => !s.accepted);
    return refused ? { verdict, rules, failure: `called compatible, but ${JSON.stringify(refused.value)} is refused` } : { verdict, rules };
  }
  if (sampled.some((s) => !s.accepted)) return { verdict, rules };
  return { verdict, rules, failure: `called breaking (${rules.join(", ")}), but none of ${sampled.length} sampled values shows it` };
}
