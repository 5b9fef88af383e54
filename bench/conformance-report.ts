/**
 * Writes docs/conformance.md: JSON-Schema-Test-Suite pass counts for the
 * validators toolc generates, from the same runner the conformance test uses.
 *
 * Run: npx tsx bench/conformance-report.ts
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KNOWN_FAILURES, knownFailure } from "../test/conformance/known-failures.js";
import { type CaseResult, type Config, FORMAT_FILES, KEYWORD_FILES, runSuite, SUITE_DIR } from "../test/conformance/suite-runner.js";
import { currentSection } from "../test/mcp-conformance/report.js";

const OUT = new URL("../docs/conformance.md", import.meta.url).pathname;
const FILES = [...KEYWORD_FILES, ...FORMAT_FILES];

interface Row {
  cases: number;
  ran: number;
  passed: number;
  known: number;
  skipped: number;
  relaxed: number;
}

function tally(results: readonly CaseResult[], config: Config): Row {
  const ran = results.filter((r) => r.outcome !== "skip");
  return {
    cases: results.length,
    ran: ran.length,
    passed: ran.filter((r) => r.outcome === "pass").length,
    known: ran.filter((r) => r.outcome === "fail" && knownFailure(r.file, r.group, r.test, config)).length,
    skipped: results.length - ran.length,
    relaxed: ran.filter((r) => r.relaxed).length,
  };
}

const cells = (name: string, r: Row) => `| ${name} | ${r.cases} | ${r.ran} | ${r.passed} | ${r.known} | ${r.skipped} |`;

function table(results: readonly CaseResult[], config: Config): string[] {
  const lines = ["| suite file | cases | run | passed | known failures | skipped |", "| --- | ---: | ---: | ---: | ---: | ---: |"];
  for (const file of FILES)
    lines.push(
      cells(
        file,
        tally(
          results.filter((r) => r.file === file),
          config,
        ),
      ),
    );
  lines.push(cells("**total**", tally(results, config)));
  return lines;
}

function skipReasons(results: readonly CaseResult[]): string[] {
  const counts = new Map<string, number>();
  for (const r of results.filter((x) => x.outcome === "skip")) {
    const key = `${r.file}: ${r.note}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `- ${k} (${n} cases)`);
}

function knownList(): string[] {
  return KNOWN_FAILURES.map((f) => {
    const where = `${f.file}${f.group === "*" ? "" : `, "${f.group}"`}${f.tests === "*" ? "" : ` (${f.tests.length} cases)`}`;
    return `- ${where}${f.config ? ` [${f.config} only]` : ""}${f.deliberate ? " [deliberate]" : ""}: ${f.reason}`;
  });
}

function report(): string {
  const commit = readFileSync(join(SUITE_DIR, "../../SOURCE_COMMIT"), "utf8").trim();
  const output = runSuite(FILES, "output");
  const input = runSuite(FILES, "input");
  const o = tally(output, "output");
  const i = tally(input, "input");
  return [
    "# Conformance: JSON-Schema-Test-Suite and the MCP conformance suite",
    "",
    `The validators toolc generates, run against JSON-Schema-Test-Suite draft 2020-12 (commit ${commit}),`,
    "for every keyword in the supported subset and every format toolc checks. Each test group's schema is",
    "compiled by the validator emitter into a standalone ES module and executed by a plain `node` process.",
    "Reproduce with `npx tsx bench/conformance-report.ts`; `npx vitest run test/conformance` checks the same figures.",
    "",
    `Output validators (no defaults): **${o.passed} of ${o.ran}** cases pass; ${o.known} are known failures; ${o.skipped} skipped.`,
    `Input validators (defaults applied): **${i.passed} of ${i.ran}** pass; ${i.known} are known failures; ${i.skipped} skipped.`,
    "",
    `${o.relaxed} of the run cases use schemas without \`type\` (e.g. a bare \`{"minimum": 1}\`), which toolc's strict mode`,
    "refuses to compile. The harness compiles those with Ajv's `strictTypes`/`strictTuples` off; those options",
    "only reject schemas and do not change the code generated for an accepted one. Everything else is toolc's configuration.",
    "",
    "## Output validators",
    "",
    ...table(output, "output"),
    "",
    "## Input validators",
    "",
    ...table(input, "input"),
    "",
    "## Known failures",
    "",
    "Listed in `test/conformance/known-failures.ts`. Ajv's own draft 2020-12 run skips 8 whole files and 34 further cases.",
    "",
    ...knownList(),
    "",
    "## Skipped: outside toolc's subset",
    "",
    "A contract using these is a compile error, so no generated validator can meet them.",
    "",
    ...skipReasons(output),
    "",
  ].join("\n");
}

// The MCP section comes from another run (bench/mcp-conformance-report.ts); keep it as it is.
const mcpSection = existsSync(OUT) ? currentSection(readFileSync(OUT, "utf8")) : undefined;
writeFileSync(OUT, mcpSection === undefined ? report() : `${report().trimEnd()}\n\n${mcpSection}\n`);
console.log(`wrote ${OUT}`);
