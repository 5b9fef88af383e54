/**
 * The ReDoS checker's cost per pattern and per run (docs/robustness.md,
 * "Third attack pass", M2): patterns such as `^(?<x>x)(?:\k<x>|x)+$` took
 * the checker 7.6 s and 400 MB each, and its memory was kept from one
 * pattern to the next (16 held 4.25 GB, 22 ran out of memory). Each is now
 * decided within a step budget, in a worker that releases what a check made
 * when it returns. Checked by the verdicts and by memory, never by timing.
 */
import { describe, expect, it } from "vitest";
import { BACKREFERENCE_STEPS, PATTERN_STEPS, stepBudget } from "../../generator/normalize/redos-check.js";
import { patternProblem } from "../../generator/normalize/patterns.js";
import { projectWith, runCli, snapshotTree } from "./helpers.js";

const COUNT = 25;
/** The i-th pattern: a distinct group name, so no verdict is reused. */
const costly = (i: number): string => `^(?<x${i}>x)(?:\\k<x${i}>|x)+$`;

function toolWithPatterns(count: number): string {
  const lines = ["name: many_patterns", "version: 1", "description: Many patterns.", "effect: read", "input:", "  type: object", "  properties:"];
  for (let i = 0; i < count; i++) lines.push(`    p${i}: { type: string, maxLength: 20, pattern: ${JSON.stringify(costly(i))} }`);
  lines.push("output: { type: object }", "");
  return lines.join("\n");
}

describe("the ReDoS checker's budget", () => {
  it("refuses 25 distinct costly patterns in one run, each located, with the reason and the fix, holding memory bounded", { timeout: 900_000 }, async () => {
    const dir = projectWith({ "t.yaml": toolWithPatterns(COUNT) });
    const before = snapshotTree(dir);
    const rss = process.memoryUsage().rss;
    const result = await runCli(dir, ["generate"]);
    const grown = process.memoryUsage().rss - rss;
    expect(result.code).toBe(1);
    const refusals = result.stderr.split("\n").filter((line) => line.includes("error TC035"));
    expect(refusals).toHaveLength(COUNT);
    refusals.forEach((line, i) => {
      // Line 8 holds p0; the column is where the pattern's value starts.
      expect(line).toMatch(new RegExp(`^definitions/t\\.yaml:${8 + i}:\\d+: error TC035: `));
      expect(line).toContain(`the ReDoS checker gave up: it did not decide within ${BACKREFERENCE_STEPS} steps; a backreference is costly to check`);
      expect(line).toContain("write it without the backreference");
    });
    expect(snapshotTree(dir)).toEqual(before);
    // Without the worker every check's readers stayed alive until the run ended: hundreds of MB per pattern.
    expect(grown).toBeLessThan(400 * 1024 * 1024);
  });

  it("gives the same verdict every time: a step budget, not a clock", () => {
    expect(stepBudget(costly(0))).toBe(BACKREFERENCE_STEPS);
    expect(stepBudget("^[a-z]+(?:-[a-z]+)*$")).toBe(PATTERN_STEPS);
    expect(stepBudget("^[\\1]+$")).toBe(PATTERN_STEPS);
    expect(stepBudget("^(a)\\1$")).toBe(BACKREFERENCE_STEPS);
    const first = patternProblem(costly(0));
    expect(first?.reason).toMatch(/too complex/);
    expect(patternProblem(costly(0))).toEqual(first);
    // The verdicts the checker reaches within its budget are unchanged.
    expect(patternProblem("^(a+)+$")?.reason).toMatch(/can backtrack without bound/);
    expect(patternProblem("^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$")).toBeUndefined();
  });
});
