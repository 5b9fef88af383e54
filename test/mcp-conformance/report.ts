/**
 * The MCP section of docs/conformance.md: figures from a run of the official
 * conformance suite against the fixture server, per protocol generation and
 * SDK line. The conformance test renders the same section from its own run
 * and compares, so the figures in the doc are the ones CI sees.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { classified, type Column, type Generation } from "./scenarios.js";
import { checksNotSucceeding, type ScenarioResult } from "./suite.js";

export const DOC = fileURLToPath(new URL("../../docs/conformance.md", import.meta.url));
export const SECTION_START = "<!-- mcp-conformance:start (written by bench/mcp-conformance-report.ts) -->";
export const SECTION_END = "<!-- mcp-conformance:end -->";

/** Results by column (SDK line and entry), in the order the columns are shown. */
export type LineResults = ReadonlyArray<{ line: Column; results: ReadonlyMap<string, ScenarioResult> }>;

/** Every generation's runs, in the order the tables are shown. */
export type GenerationResults = ReadonlyArray<{ generation: Generation; runs: LineResults }>;

function checks(result: ScenarioResult | undefined): string {
  if (result === undefined) return "not run";
  return `${result.succeeded}/${result.succeeded + result.failed + result.warned}`;
}

/** For an expected failure with checks toolc must pass: whether they do on every line. */
function requiredChecksNote(generation: Generation, scenario: string, runs: LineResults): string {
  const ids = generation.requiredChecks[scenario];
  if (ids === undefined) return "";
  const failing = runs.some((r) => checksNotSucceeding(r.results.get(scenario), ids).length > 0);
  return failing ? `; **FAIL** on the ${ids.length} checks toolc serves` : `; the ${ids.length} checks toolc serves pass`;
}

function verdict(generation: Generation, scenario: string, runs: LineResults): string {
  const passedEverywhere = runs.every((r) => r.results.get(scenario)?.passed === true);
  if (generation.required.includes(scenario)) return passedEverywhere ? "pass" : "**FAIL**";
  const passedSomewhere = runs.some((r) => r.results.get(scenario)?.passed === true);
  return `${passedSomewhere ? "**passes, but listed as an expected failure**" : "expected failure"}${requiredChecksNote(generation, scenario, runs)}`;
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

/** The expected failures grouped by their reason, each reason once. */
function reasons(generation: Generation): string[] {
  const byReason = new Map<string, string[]>();
  for (const [scenario, reason] of Object.entries(generation.expectedFailures)) byReason.set(reason, [...(byReason.get(reason) ?? []), scenario]);
  return [...byReason].map(([reason, scenarios]) => `- ${scenarios.map((s) => `\`${s}\``).join(", ")}: ${reason}.`);
}

const HOW: Record<Generation["protocol"], (g: Generation) => string> = {
  "2025-11-25": (g) =>
    `Every server scenario of \`@modelcontextprotocol/conformance\` ${g.suite}, the suite's latest release (\`conformance server --suite all\`); each speaks 2025-11-25 or 2025-06-18. Run against both SDK lines.`,
  "2026-07-28": (g) =>
    `The suite's latest release has no scenario for 2026-07-28, so this run uses its ${g.suite} prerelease with \`--requirements 2026-07-28\`: the scenarios that revision requires, frozen at its release and run at its wire, plus those it runs without scoring (the tasks extension; pending scenarios). Run against the SDK 2.x line only: SDK 1.x has no 2026-07-28 support. Where a scenario also tests what toolc does not serve, it stays an expected failure, and the checks in it that test what toolc does serve are required (listed in \`test/mcp-conformance/scenarios.ts\`).`,
};

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function generationSection({ generation, runs }: GenerationResults[number]): string[] {
  const scenarios = [...generation.required, ...Object.keys(generation.expectedFailures)];
  const summary = runs.map(({ line, results }) => {
    const t = totals(results);
    return `- ${line}: **${t.passed} of ${t.scenarios}** scenarios pass (${t.checksPassed} of ${t.checks} checks).`;
  });
  return [
    `### Protocol ${generation.protocol}`,
    "",
    HOW[generation.protocol](generation),
    "",
    `${count(generation.required.length, "scenario is", "scenarios are")} required to pass; ${classified(generation).length - generation.required.length} are expected to fail.`,
    "",
    ...summary,
    "",
    `| scenario | ${runs.map((r) => `${r.line} checks passed`).join(" | ")} | verdict |`,
    `| --- | ${runs.map(() => "---:").join(" | ")} | --- |`,
    ...scenarios.map((s) => `| ${s} | ${runs.map((r) => checks(r.results.get(s))).join(" | ")} | ${verdict(generation, s, runs)} |`),
    "",
    `Expected failures at ${generation.protocol}, and why:`,
    "",
    ...reasons(generation),
  ];
}

export function renderSection(all: GenerationResults): string {
  return [
    SECTION_START,
    "## MCP: the official conformance suite",
    "",
    "The server scenarios of `@modelcontextprotocol/conformance`, run on Node.js 24 against a toolc server built from the",
    "fixture contracts in `test/mcp-conformance/definitions/` and the handlers in `test/mcp-conformance/handlers.ts`, which",
    "use only the documented contract format and handler API (`ctx.attach`, `ctx.progress`, `ctx.log`, `$schema`,",
    "`x-mcp-header`). It is served over stateless Streamable HTTP on 127.0.0.1 by the generated `createHttpHandler`, once",
    "generated for MCP SDK 2.x (the committed `test/mcp-conformance/generated/`) and once for 1.x; and the SDK 2.x tree",
    "through its `createFetchHandler` too, on Node (`@hono/node-server`), on workerd (`wrangler dev --local`, without",
    "`nodejs_compat`; `test/web-runtimes/conformance-worker.ts`), on Deno (`Deno.serve`, the generated TypeScript run with",
    "`--sloppy-imports`) and on Bun (`Bun.serve`; both `test/web-runtimes/conformance-serve.ts`), with the same options and",
    "the same scenario table.",
    "`npx vitest run test/mcp-conformance` checks these figures; reproduce them with",
    "`npx tsx bench/mcp-conformance-report.ts`.",
    "",
    "The test fails when a required scenario fails, when an expected failure starts passing, and when the suite runs a",
    "scenario listed in neither (`test/mcp-conformance/scenarios.ts`). A scenario passes, as the suite's own baseline mode",
    "counts it, when at least one check succeeds and none fails or warns: `server-sse-polling` and",
    "`server-sse-multiple-streams` at 2025-11-25 report only warnings (no session ID, and no priming event or `retry` field",
    "on a stream that has no session to resume), so they count as failures.",
    "",
    ...all.flatMap((g) => [...generationSection(g), ""]),
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
