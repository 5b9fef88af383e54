/**
 * JSON-Schema-Test-Suite (draft 2020-12), for every keyword in toolc's
 * subset and every format it checks, run through generated standalone ES
 * modules in a plain node process. Both configurations run: output
 * validators (no defaults) and input validators (defaults applied).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { KNOWN_FAILURES, knownFailure } from "./known-failures.js";
import { type CaseResult, type Config, FORMAT_FILES, KEYWORD_FILES, runSuite } from "./suite-runner.js";

const FILES = [...KEYWORD_FILES, ...FORMAT_FILES];
const results: Record<Config, CaseResult[]> = { output: [], input: [] };

beforeAll(() => {
  results.output = runSuite(FILES, "output");
  results.input = runSuite(FILES, "input");
});

const label = (r: CaseResult) => `${r.file} | ${r.group} | ${r.test}`;

describe.each(["output", "input"] as const)("JSON-Schema-Test-Suite, %s validators", (config) => {
  it("fails no case outside the known-failures list", () => {
    const unexpected = results[config].filter((r) => r.outcome === "fail" && !knownFailure(r.file, r.group, r.test, config));
    expect(unexpected.map(label)).toEqual([]);
  });

  it("still fails every listed known failure (the list stays tight)", () => {
    for (const f of KNOWN_FAILURES.filter((k) => k.config === undefined || k.config === config)) {
      const covered = results[config].filter((r) => knownFailure(r.file, r.group, r.test, config) === f);
      expect(covered.some((r) => r.outcome === "fail"), f.reason).toBe(true);
      if (f.tests !== "*") for (const r of covered) expect(r.outcome, label(r)).toBe("fail");
    }
  });

  it("runs the bulk of the suite, skipping only schemas outside the subset", () => {
    const ran = results[config].filter((r) => r.outcome !== "skip");
    expect(ran.length).toBeGreaterThan(1200);
    for (const r of results[config].filter((x) => x.outcome === "skip")) {
      expect(r.note, label(r)).toMatch(/outside toolc's subset|remote \$ref|is not supported|enum must have non-empty array/);
    }
  });
});
