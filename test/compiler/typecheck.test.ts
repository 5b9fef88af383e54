/**
 * Everything toolc writes compiles with every TypeScript version it supports
 * (5.9, 6.0, 7.0), under every strict flag consumers use, in ESM and
 * CommonJS packages, with NodeNext, Node16 and bundler resolution, and with
 * skipLibCheck on and off (test/typecheck/matrix.ts lists the fixtures and
 * configurations). The global setup runs one tsc program per version and
 * configuration over all the fixture outputs; each test reads the
 * diagnostics of its own fixture. Broken copies of the demo output sit in
 * the same programs, and their tests check that the programs report them.
 */
import { describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput } from "../typecheck/fixtures.js";
import { BREAKAGES, brokenCheck, CONFIGURATIONS, FIXTURES, matrixCheck, type BrokenCopy } from "../typecheck/matrix.js";

const CASES = CONFIGURATIONS.flatMap((config, i) => config.trees.flatMap((tree) => (config.fixtures ?? FIXTURES).map((fixture) => [config.name, tree, fixture, i] as const)));

function brokenOutput(name: BrokenCopy, version: string): string {
  const { program, check } = brokenCheck(name);
  return tscOutput(program, version, check);
}

describe.each(TYPESCRIPTS)("TypeScript $version", ({ version }) => {
  it.each(CASES)("%s: %s/%s compiles", (_, tree, fixture, i) => {
    expect(tscOutput(`matrix${i}`, version, matrixCheck(tree, fixture))).toBe("");
  });
});

describe.each(TYPESCRIPTS)("the matrix fails when generated code breaks a strict flag or needs Node, TypeScript $version", ({ version }) => {
  it("reports each strict-flag breakage, in its file", () => {
    const output = brokenOutput("strict", version);
    for (const b of BREAKAGES) expect(output).toContain(`esm/demo/${b.file}`);
    for (const b of BREAKAGES) expect(output).toContain(`error ${b.code}`);
  });

  it("reports a Node global outside the HTTP entry in the configuration without Node's types", () => {
    const output = brokenOutput("nodeGlobal", version);
    expect(output).toMatch(/esm\/demo\/runtime\/errors\.ts\(\d+,\d+\): error TS\d+: Cannot find name 'process'/);
  });

  it("reports the HTTP entry without its reference directive, which then needs a `types` entry", () => {
    const output = brokenOutput("httpReference", version);
    expect(output).toMatch(/esm\/demo\/http\.ts\(\d+,\d+\): error TS\d+: Cannot find (name|module) 'node:http'/);
  });
});
