/**
 * One run of the differential test: pairs of contracts from a seed, each
 * compiled by toolc, diffed, and checked against the oracle in both
 * directions, tallied per verdict and per rule. Shared by the test and by
 * long runs that report as they go.
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { releaseSharedAjv } from "../../../generator/ajv-shared.js";
import { EMPTY_DIFF_CONFIG } from "../../../generator/diff/config.js";
import { diffContracts } from "../../../generator/diff/index.js";
import { sideFromTexts, type ContractSide } from "../../../generator/diff/sources.js";
import { findWitness, type Direction } from "./oracle.js";
import { pairs as pairsOf, type Contract, type Pair } from "./pairs.js";

/** Heads per base: each base contract is compiled once for this many pairs. */
const HEADS = 2;

function sideOf(c: Contract): ContractSide | undefined {
  const tool = { name: "t", version: 1, description: "t", effect: "read", input: c.input, output: c.output };
  return sideFromTexts([{ source: "t.yaml", display: "t.yaml", text: stringify(tool) }, { source: "types.yaml", display: "types.yaml", text: stringify({ types: c.types }) }], ".").side;
}

type Verdict = "breaking" | "undecided" | "compatible";

/**
 * Rules about what travels beside the values (the `Mcp-Param-*` headers
 * `x-mcp-header` names): the oracle compares only which values each side
 * accepts, so it can neither show nor miss them, and they are left out of the
 * verdict it checks.
 */
const beside = (rule: string): boolean => rule.startsWith("mcp-header-");

function verdicts(base: ContractSide, head: ContractSide, tally: Tally): Record<Direction, { verdict: Verdict; rules: string[] }> {
  const changes = diffContracts(base, head, EMPTY_DIFF_CONFIG).changes;
  for (const c of changes) if (beside(c.rule)) count(tally, c.rule, "beside");
  const of = (direction: Direction) => {
    const levels = changes.filter((c) => !beside(c.rule)).flatMap((c) => c.affects.filter((a) => a.direction === direction).map((a) => ({ rule: c.rule, level: a.level })));
    const breaking = levels.filter((l) => l.level === "breaking").map((l) => l.rule);
    const undecided = levels.filter((l) => l.level === "undecided").map((l) => l.rule);
    return breaking.length > 0 ? { verdict: "breaking" as const, rules: breaking } : undecided.length > 0 ? { verdict: "undecided" as const, rules: undecided } : { verdict: "compatible" as const, rules: [] };
  };
  return { input: of("input"), output: of("output") };
}

export interface Tally {
  pairs: number;
  refused: number;
  checked: number;
  breaking: number;
  undecided: number;
  compatible: number;
  witnessed: number;
  falsePositives: number;
  falseNegatives: string[];
  /** Undecided pair-directions where the oracle found a witness: changes toolc could have called breaking. Counted, not failed on. */
  undecidedWitnessed: number;
  /**
   * Per rule: pair-directions it was breaking in, how many of them had no
   * witness, how many it was undecided in and how many of those had one; and
   * for rules about what travels beside the values, how often it was reported.
   */
  rules: Map<string, RuleCount>;
}

type RuleCount = { breaking: number; falsePositive: number; undecided: number; undecidedWitnessed: number; beside: number };

function count(tally: Tally, rule: string, key: keyof RuleCount): void {
  const entry = tally.rules.get(rule) ?? { breaking: 0, falsePositive: 0, undecided: 0, undecidedWitnessed: 0, beside: 0 };
  entry[key]++;
  tally.rules.set(rule, entry);
}

export function runDifferential(pairs: number, seed: number, progress?: (tally: Tally) => void): Tally {
  const tally: Tally = { pairs: 0, refused: 0, checked: 0, breaking: 0, undecided: 0, compatible: 0, witnessed: 0, falsePositives: 0, falseNegatives: [], undecidedWitnessed: 0, rules: new Map() };
  const groups = fc.sample(pairsOf(HEADS), { numRuns: Math.ceil(pairs / HEADS), seed });
  groups.forEach((group, g) => {
    if (g % 50 === 49) releaseSharedAjv();
    const base = sideOf((group[0] as (typeof group)[number]).base);
    group.forEach((p, k) => checkPair(tally, base, p, g * HEADS + k, seed));
    progress?.(tally);
  });
  return tally;
}

function checkPair(tally: Tally, base: ContractSide | undefined, p: Pair, n: number, seed: number): void {
  {
    tally.pairs++;
    const head = sideOf(p.head);
    if (!base || !head) {
      tally.refused++;
      return;
    }
    const found = verdicts(base, head, tally);
    const served = (side: ContractSide, d: Direction) => (d === "input" ? side.ir.tools[0]?.inputSchema : side.ir.tools[0]?.outputSchema) as never;
    for (const direction of ["input", "output"] as const) {
      const { verdict, rules } = found[direction];
      tally.checked++;
      tally[verdict]++;
      const oracle = findWitness(served(base, direction), served(head, direction), direction, seed + n);
      if (oracle.witness !== undefined) tally.witnessed++;
      for (const rule of new Set(rules)) count(tally, rule, verdict === "breaking" ? "breaking" : "undecided");
      if (verdict === "compatible" && oracle.witness !== undefined) {
        tally.falseNegatives.push(`pair ${n} ${direction}: edits ${p.edits.join("; ")}; witness ${JSON.stringify(oracle.witness)}\nbase ${JSON.stringify(p.base)}\nhead ${JSON.stringify(p.head)}`);
      }
      if (verdict === "undecided" && oracle.witness !== undefined) {
        tally.undecidedWitnessed++;
        for (const rule of new Set(rules)) count(tally, rule, "undecidedWitnessed");
      }
      if (verdict === "breaking" && oracle.witness === undefined) {
        tally.falsePositives++;
        for (const rule of new Set(rules)) count(tally, rule, "falsePositive");
      }
    }
  }
}

export function summary(t: Tally, seed: number): string {
  const line = (rule: string, r: RuleCount) =>
    beside(rule) ? `  ${rule}: reported ${r.beside} (beside the values: the oracle does not see it)` : `  ${rule}: breaking ${r.breaking}, without a witness ${r.falsePositive}, undecided ${r.undecided}, undecided with a witness ${r.undecidedWitnessed}`;
  const rules = [...t.rules].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rule, r]) => line(rule, r));
  return [
    `toolc diff differential: ${t.pairs} pairs (seed ${seed}), ${t.refused} refused by toolc, ${t.checked} pair-directions checked`,
    `  breaking ${t.breaking}, undecided ${t.undecided}, compatible ${t.compatible}; oracle witnesses ${t.witnessed}`,
    `  false negatives ${t.falseNegatives.length}; false positives ${t.falsePositives} (${((100 * t.falsePositives) / Math.max(1, t.breaking)).toFixed(2)}% of breaking); undecided with a witness ${t.undecidedWitnessed} of ${t.undecided}`,
    ...rules,
  ].join("\n");
}

