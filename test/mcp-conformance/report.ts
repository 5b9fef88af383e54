/**
 * The MCP section of docs/conformance.md: figures from a run of the official
 * conformance suite against the fixture server on each SDK line. The
 * conformance test renders the same section from its own run and compares,
 * so the figures in the doc are the ones CI sees.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EXPECTED_FAILURES, REQUIRED, SUITE_VERSION } from "./scenarios.js";
import type { ScenarioResult } from "./suite.js";

export const DOC = fileURLToPath(new URL("../../docs/conformance.md", import.meta.url));
export const SECTION_START = "<!-- mcp-conformance:start (written by bench/mcp-conformance-report.ts) -->";
export const SECTION_END = "<!-- mcp-conformance:end -->";

/** Results by SDK line, in the order the columns are shown. */
export type LineResults = ReadonlyArray<{ line: string; results: ReadonlyMap<string, ScenarioResult> }>;

function checks(result: ScenarioResult | undefined): string {
  if (result === undefined) return "not run";
  return `${result.succeeded}/${result.succeeded + result.failed + result.warned}`;
}

function verdict(scenario: string, runs: LineResults): string {
  const passedEverywhere = runs.every((r) => r.results.get(scenario)?.passed === true);
  if (REQUIRED.includes(scenario)) return passedEverywhere ? "pass" : "**FAIL**";
  return runs.some((r) => r.results.get(scenario)?.passed === true) ? "**passes, but listed as an expected failure**" : "expected failure";
}

function totals(results: ReadonlyMap<string, ScenarioResult>): { scenarios: number; passed: number; checks: number; checksPassed: number } {
  const all = [...results.values()];
  return {
    scenarios: all.length,
    passed: all.filter((r) => r.passed).length,
    checks: all.reduce((n, r) => n + r.succeeded + r.failed + r.warned, 0),
    checksPassed: all.reduce((n, r) => n + r.succeeded, 0),
  };
}

export function renderSection(runs: LineResults): string {
  const scenarios = [...REQUIRED, ...Object.keys(EXPECTED_FAILURES)];
  const summary = runs.map(({ line, results }) => {
    const t = totals(results);
    return `- ${line}: **${t.passed} of ${t.scenarios}** scenarios pass (${t.checksPassed} of ${t.checks} checks).`;
  });
  const required = REQUIRED.length;
  return [
    SECTION_START,
    "## MCP: the official conformance suite",
    "",
    `Every server scenario of \`@modelcontextprotocol/conformance\` ${SUITE_VERSION} (\`conformance server --suite all\`), run against a toolc`,
    "server built from the fixture contracts in `test/mcp-conformance/definitions/` and the handlers in",
    "`test/mcp-conformance/handlers.ts`, which use only the documented handler API (`ctx.attach`, `ctx.progress`,",
    "`ctx.log`, a contract's `$schema`). It is served over stateless Streamable HTTP on 127.0.0.1 by the generated",
    "`createHttpHandler`, once generated for MCP SDK 2.x (the committed `test/mcp-conformance/generated/`) and once for 1.x.",
    "`npx vitest run test/mcp-conformance` checks these figures; reproduce them with `npx tsx bench/mcp-conformance-report.ts`.",
    "",
    `${required} scenarios are required to pass; ${Object.keys(EXPECTED_FAILURES).length} are outside what toolc serves and are expected to fail.`,
    "The test fails when a required scenario fails, when an expected failure starts passing, and when the suite",
    "runs a scenario listed in neither (`test/mcp-conformance/scenarios.ts`).",
    "",
    ...summary,
    "",
    `| scenario | ${runs.map((r) => `${r.line} checks passed`).join(" | ")} | verdict |`,
    `| --- | ${runs.map(() => "---:").join(" | ")} | --- |`,
    ...scenarios.map((s) => `| ${s} | ${runs.map((r) => checks(r.results.get(s))).join(" | ")} | ${verdict(s, runs)} |`),
    "",
    "A scenario passes, as the suite's own baseline mode counts it, when at least one check succeeds and none fails",
    "or warns. `server-sse-polling` and `server-sse-multiple-streams` report only warnings (no session ID, and no priming",
    "event or `retry` field on a stream that has no session to resume), so they count as failures.",
    "",
    "### Expected failures",
    "",
    ...Object.entries(EXPECTED_FAILURES).map(([scenario, reason]) => `- ${scenario}: ${reason}`),
    SECTION_END,
  ].join("\n");
}

/** The MCP section as the doc has it now, or undefined. */
export function currentSection(text: string): string | undefined {
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  if (start < 0 || end < start) return undefined;
  return text.slice(start, end + SECTION_END.length);
}

/** Replaces the MCP section of docs/conformance.md, or appends it. */
export function writeSection(section: string): void {
  const text = readFileSync(DOC, "utf8");
  const current = currentSection(text);
  const next = current === undefined ? `${text.trimEnd()}\n\n${section}\n` : text.replace(current, () => section);
  writeFileSync(DOC, next);
}
