/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, on
 * Node.js 24) against a toolc server built from the fixture contracts in
 * this folder, per protocol generation and MCP SDK line, over Streamable
 * HTTP on 127.0.0.1, through Node's createHttpHandler, and for SDK 2.x
 * through createFetchHandler on Node and on workerd too.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../compiler/helpers.js";
import { runGenerations } from "./harness.js";
import { currentSection, DOC, renderSection, type GenerationResults } from "./report.js";
import { classified, columnsOf, GENERATIONS, type Column, type Generation } from "./scenarios.js";
import { CONFORMANCE_DIR } from "./server.js";
import { checksNotSucceeding, failureSummary, listServerScenarios, type ScenarioResult } from "./suite.js";

let all: GenerationResults;

function resultOf(generation: Generation, line: Column, scenario: string): ScenarioResult {
  const runs = all.find((g) => g.generation === generation)?.runs;
  const result = runs?.find((r) => r.line === line)?.results.get(scenario);
  if (result === undefined) throw new Error(`${generation.protocol}, ${line}: the suite did not run ${scenario}`);
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
    all = await runGenerations();
  }, 600_000);

  describe.each(GENERATIONS.map((g) => [g.protocol, g] as const))("protocol %s", (_protocol, generation) => {
    it("sorts every server scenario the suite has into required or expected failure, and runs each", async () => {
      expect((await listServerScenarios(generation)).sort()).toEqual(classified(generation));
      for (const line of columnsOf(generation)) {
        const run = all.find((g) => g.generation === generation)?.runs.find((r) => r.line === line);
        expect([...(run?.results.keys() ?? [])].sort()).toEqual(classified(generation));
      }
    });

    describe.each(columnsOf(generation).map((line) => [line]))("%s", (line) => {
      for (const scenario of generation.required) {
        it(`${scenario} passes`, () => {
          const result = resultOf(generation, line, scenario);
          expect(result.passed, failureSummary(result)).toBe(true);
        });
      }
      for (const [scenario, reason] of Object.entries(generation.expectedFailures)) {
        it(`${scenario} fails as expected: ${reason}`, () => {
          const result = resultOf(generation, line, scenario);
          expect(result.passed, `${scenario} now passes on ${line}: take it off the expected failures in scenarios.ts and make it required`).toBe(false);
        });
      }
      for (const [scenario, ids] of Object.entries(generation.requiredChecks)) {
        it(`${scenario}: the checks toolc serves succeed`, () => {
          expect(checksNotSucceeding(resultOf(generation, line, scenario), ids)).toEqual([]);
        });
      }
    });
  });

  it("docs/conformance.md carries these figures", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(currentSection(doc), "run `npx tsx bench/mcp-conformance-report.ts`").toBe(renderSection(all));
  });
});
