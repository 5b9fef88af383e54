/**
 * The proof on API descriptions nobody here wrote (fixtures/README.md): the
 * GitHub REST API (OpenAPI 3.0, 1,223 operations), Blockfrost (OpenAPI 3.0
 * in YAML, `nullable` and `allOf`, an API key) and the Slack Web API
 * (Swagger 2.0, form bodies, OAuth). Each is imported whole and compiled
 * with `toolc generate`, and everything a consumer's tsc compiles (the
 * output folder, the handlers and their runtime) is type-checked under every
 * strict flag. The figures asserted here are the ones docs/import.md reports.
 *
 * Blockfrost and Slack are built by the global setup and checked in its
 * shared `consumer` program with TypeScript 5.9, 6.0 and 7.0 (no tsc
 * process of their own). GitHub is built here, once, and checked with
 * TypeScript 7.0: its output is 1.5 million lines, which the JavaScript
 * compilers take minutes over; the large-project fixture of the setup
 * (test/providers/many-tools.ts) checks a providers module of more tools
 * than GitHub's with all three.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STRICTEST, TYPESCRIPTS } from "../../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../../typecheck/fixtures.js";
import { buildCorpusSpec, projectModules, SPECS, type CorpusSpec, type ImportedSpec } from "./corpus-specs.js";

function expectImported(spec: CorpusSpec, imported: ImportedSpec): void {
  expect(imported.errors).toEqual([]);
  expect(imported.operations).toBe(spec.operations);
  expect(imported.tools).toBe(spec.tools);
  expect(imported.warnings).toBe(spec.warnings);
  // An answer that is not an object is the output as it is; none is wrapped.
  expect({ "array output": imported.conversions["array output"] ?? 0, "non-object output": imported.conversions["non-object output"] ?? 0 }).toEqual(spec.outputs);
  // More tools than VS Code takes: the warning names the curation options.
  if (spec.tools > 128) expect(imported.messages.join("\n")).toMatch(/more than 128 .*`include`\/`exclude`.*`groups`/);
}

function expectGenerated(spec: CorpusSpec, imported: ImportedSpec): void {
  expect(imported.generate.stderr.split("\n").filter((l) => / error /.test(l))).toEqual([]);
  expect(imported.generate.code).toBe(0);
  expect(imported.generate.stdout).toContain(`${spec.tools} tools compiled`);
}

describe.each([SPECS.blockfrost, SPECS.slack])("$name", (spec) => {
  const imported = (): ImportedSpec => typecheckFixture("openapi")[spec.name as "blockfrost" | "slack"];

  it(`imports its ${spec.operations} operations with no errors`, () => expectImported(spec, imported()));

  it("compiles with toolc generate, without errors", () => expectGenerated(spec, imported()));

  it.each(TYPESCRIPTS)("type-checks under every strict flag with TypeScript $version", ({ version }) => {
    expect(tscOutput("consumer", version, `openapi/${spec.name}`)).toBe("");
  });
});

describe("github", () => {
  const spec = SPECS.github;
  let imported: ImportedSpec;

  it(`imports all ${spec.operations} operations with no errors, and compiles them with toolc generate`, { timeout: 900_000 }, async () => {
    imported = await buildCorpusSpec(spec);
    expectImported(spec, imported);
    expectGenerated(spec, imported);
  });

  it("type-checks under every strict flag with TypeScript 7.0, the whole output folder", { timeout: 900_000 }, () => {
    const { bin, args } = TYPESCRIPTS.find((ts) => ts.version === "7.0")!;
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023"], types: ["node"], noEmit: true, skipLibCheck: true, ...STRICTEST };
    writeFileSync(join(imported.dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: projectModules(imported.dir) }, null, 2));
    const run = spawnSync(process.execPath, [bin, ...args, "-p", imported.dir], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
