/**
 * Chaos for H2 of the third attack pass (docs/robustness.md): random `$ref`
 * graphs (shared definitions, fan-out, recursion through properties) compile
 * to a validator whose size is bounded by a linear function of the
 * contract's, and `toolc diff` reports a changed leaf at most once per
 * definition, however many paths lead to it. Fixed seed, run counts from
 * config.ts; sizes and counts, never time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { compileYaml } from "../runtime/yaml-contracts.js";
import { fanContract } from "../helpers/fan-contract.js";
import { CHAOS_SEED, runs, timeoutFor } from "./config.js";

/** A `$defs` graph: for each definition but the last, the definitions its properties refer to. */
const graph = fc.integer({ min: 2, max: 18 }).chain((count) =>
  fc.tuple(
    fc.constant(count),
    // Offsets to later definitions, mostly small, so chains are deep and targets shared: the fan-out that doubled.
    fc.array(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 4 }), { minLength: count - 1, maxLength: count - 1 }),
    // Now and then a property back to any definition: recursion, which stays a function.
    fc.array(
      fc.nat({ max: 7 }).map((n) => n === 0),
      { minLength: count - 1, maxLength: count - 1 },
    ),
  ),
);

type Graph = [number, number[][], boolean[]];

/**
 * The contract: d0…d<count-1>; d<i> (i < last) is an object whose properties
 * refer to later definitions (fan-out, shared targets), or, where `back` is
 * set, its last property to any definition (recursion through a property,
 * which a value can end); the last is `leaf`.
 */
function contract([count, targets, back]: Graph, leaf: string): string {
  const defs: string[] = [];
  for (let i = 0; i < count - 1; i++) {
    const props = (targets[i] ?? []).map((pick, j, all) => {
      const recursive = back[i] === true && j === all.length - 1;
      const to = recursive ? pick % count : i + 1 + (pick % (count - 1 - i));
      return `p${j}: { $ref: "#/$defs/d${to}" }`;
    });
    defs.push(`    d${i}: { type: object, properties: { ${props.join(", ")} } }`);
  }
  defs.push(`    d${count - 1}: ${leaf}`);
  return fanContract(defs);
}

const LEAF = "{ type: string, maxLength: 8 }";
/**
 * The bound: a fixed part (a validator module for a tool without refs is
 * about 4 KB), and per character of contract at most what one `$ref` (about
 * 28 characters) may bring in: a copy of at most 400 JSON characters
 * (emit/validators/inline.ts), a few KB of Ajv's code. Seen at seed 29: at
 * most 11 per character; a doubling chain of 16 levels is 2^15 copies.
 */
const FIXED = 8_000;
const PER_CHARACTER = 150;

describe("random $ref graphs", () => {
  const n = runs(4, 20);
  it("compile to a validator bounded by a linear function of the contract's size", { timeout: timeoutFor(n, 400) }, () => {
    fc.assert(
      fc.property(graph, (g) => {
        const yaml = contract(g, LEAF);
        const { tools, diagnostics } = compileYaml({ "fan.yaml": yaml });
        expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const [file] = emitValidators(tools[0]!, "");
        expect(file!.text.length).toBeLessThanOrEqual(FIXED + PER_CHARACTER * yaml.length);
      }),
      { seed: CHAOS_SEED, numRuns: n },
    );
  });

  it("diff reports a changed leaf at most once per definition", { timeout: timeoutFor(n, 400) }, () => {
    fc.assert(
      fc.property(graph, (g) => {
        const side = (leaf: string) => {
          const result = sideFromTexts([{ source: "fan.yaml", display: "fan.yaml", text: contract(g, leaf) }], ".");
          expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          return result.side!;
        };
        const result = diffContracts(side("{ type: integer }"), side(LEAF), EMPTY_DIFF_CONFIG);
        const changed = result.changes.filter((c) => c.rule === "type-changed");
        expect(changed.length).toBeLessThanOrEqual(1);
        expect(result.changes.length).toBeLessThanOrEqual(g[0]);
      }),
      { seed: CHAOS_SEED, numRuns: n },
    );
  });
});
