/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance)
 * against a toolc server built from the fixture contracts in this folder,
 * on both MCP SDK lines, over Streamable HTTP on 127.0.0.1.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../compiler/helpers.js";
import { LINES, runOnBothLines } from "./harness.js";
import { currentSection, DOC, renderSection, type LineResults } from "./report.js";
import { EXPECTED_FAILURES, REQUIRED } from "./scenarios.js";
import { CONFORMANCE_DIR } from "./server.js";
import { failureSummary, listServerScenarios, type ScenarioResult } from "./suite.js";

const classified = [...REQUIRED, ...Object.keys(EXPECTED_FAILURES)].sort();

let runs: LineResults;

function resultOf(line: string, scenario: string): ScenarioResult {
  const result = runs.find((r) => r.line === line)?.results.get(scenario);
  if (result === undefined) throw new Error(`${line}: the suite did not run ${scenario}`);
  return result;
}

describe("the committed fixture server", () => {
  it("is fresh: toolc check finds nothing to regenerate", async () => {
    const result = await runCli(CONFORMANCE_DIR, ["check"]);
    expect(result.code, `${result.stdout}${result.stderr}\nrun \`npm run generate\``).toBe(0);
  }, 120_000);
});

describe("@modelcontextprotocol/conformance server scenarios", () => {
  beforeAll(async () => {
    runs = await runOnBothLines();
  }, 300_000);

  it("sorts every server scenario the suite has into required or expected failure, and runs each", async () => {
    expect((await listServerScenarios()).sort()).toEqual(classified);
    for (const { results } of runs) expect([...results.keys()].sort()).toEqual(classified);
  });

  for (const line of LINES) {
    describe(line, () => {
      for (const scenario of REQUIRED) {
        it(`${scenario} passes`, () => {
          const result = resultOf(line, scenario);
          expect(result.passed, failureSummary(result)).toBe(true);
        });
      }
      for (const [scenario, reason] of Object.entries(EXPECTED_FAILURES)) {
        it(`${scenario} fails as expected: ${reason}`, () => {
          const result = resultOf(line, scenario);
          expect(result.passed, `${scenario} now passes on ${line}: take it off EXPECTED_FAILURES in scenarios.ts and make it required`).toBe(false);
        });
      }
    });
  }

  it("docs/conformance.md carries these figures", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(currentSection(doc), "run `npx tsx bench/mcp-conformance-report.ts`").toBe(renderSection(runs));
  });
});
