/**
 * The generated contract tests for the demo pass, and they can fail: each
 * mutation below breaks one promise of the contract in a copy of the
 * generated folder (the runtime, a validator, the server, or the contract
 * itself after the tests were generated), and vitest must report exactly
 * the tests that guard that promise.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { contractCases } from "../../generator/emit/contract-tests/cases.js";
import { demoProject, demoTools, expectedTestCount, generate, linkAllModules, runVitest, TESTS_DIR, type VitestRun } from "./project.js";

const tools = demoTools();
const casesOf = (name: string) => contractCases(tools.find((t) => t.name === name)!);

/** Replaces `from` (which must occur) in a file of the project. */
function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}; update this mutation`);
  writeFileSync(path, text.replace(from, to));
}

let pristine: string;

/** A copy of the pristine project with one mutation applied, run through vitest. */
async function mutated(apply: (dir: string) => void | Promise<void>): Promise<VitestRun> {
  const dir = mkdtempSync(join(tmpdir(), "toolc-ct-mutant-"));
  cpSync(join(pristine, "definitions"), join(dir, "definitions"), { recursive: true });
  cpSync(join(pristine, "generated"), join(dir, "generated"), { recursive: true });
  cpSync(join(pristine, TESTS_DIR), join(dir, TESTS_DIR), { recursive: true });
  cpSync(join(pristine, "package.json"), join(dir, "package.json"));
  linkAllModules(dir);
  await apply(dir);
  return runVitest(dir);
}

beforeAll(async () => {
  pristine = demoProject();
  await generate(pristine);
  linkAllModules(pristine);
});

describe("the demo's generated contract tests", () => {
  it("pass, and run one test per case", async () => {
    const result = await runVitest(pristine);
    expect(result.failed, result.output).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.total).toBe(expectedTestCount(tools, false));
    expect(result.passed).toBe(result.total);
  });
});

describe("the demo's generated contract tests can fail", () => {
  it("when a validator accepts everything: every rejection of that tool fails, and defaults are no longer applied", async () => {
    const result = await mutated((dir) =>
      edit(dir, "generated/validators/get_order.ts", "export const validateInput: ValidateFunction = (", "export const validateInput: ValidateFunction = () => true; const replaced = ("),
    );
    const cases = casesOf("get_order");
    expect(result.code).not.toBe(0);
    // A rejected example's handler, too, no longer gets the input with defaults applied.
    expect(result.failed).toHaveLength(cases.negatives.length + cases.invalidExamples.length + cases.valid.length + cases.rejectedExamples.length);
    expect(result.failed.every((name) => name.startsWith("get_order contract "))).toBe(true);
  });

  it("when the runtime reports a missing property at its parent: each missing-property case fails", async () => {
    const result = await mutated((dir) => edit(dir, "generated/runtime/issues.ts", 'name = p["missingProperty"];', "name = undefined;"));
    // Inside a union the issue is at the union's path either way, so those cases still pass.
    const expected = tools.flatMap((t) => contractCases(t).negatives.filter((n) => n.kind === "missing" && !n.name.includes("reported at")));
    expect(expected.length).toBeGreaterThan(0);
    // Every derived missing-property case fails; an example that omits a required field may fail too.
    expect(result.failed.filter((name) => name.includes("missing required property"))).toHaveLength(expected.length);
  });

  it("when the executor lets output through unvalidated: each bad-output case fails", async () => {
    const result = await mutated((dir) => edit(dir, "generated/runtime/attempt.ts", "if (!validateOutput(plain.value))", "if (false && !validateOutput(plain.value))"));
    const expected = tools.reduce((n, t) => n + contractCases(t).badOutputs.length, 0);
    expect(result.failed).toHaveLength(expected);
    expect(result.failed.every((name) => name.includes("gives INVALID_OUTPUT"))).toBe(true);
  });

  it("when the server lists other annotations than the contract's: each tools/list test fails", async () => {
    const result = await mutated((dir) =>
      edit(dir, "generated/runtime/server.ts", "annotations: contract.annotations,", "annotations: { ...contract.annotations, readOnlyHint: !contract.annotations.readOnlyHint },"),
    );
    expect(result.failed).toHaveLength(tools.length);
    expect(result.failed.every((name) => name.includes("tools/list"))).toBe(true);
  });

  it("when the contract changes under tests generated from the old one: the case it no longer rejects fails", async () => {
    const result = await mutated(async (dir) => {
      const oldTests = mkdtempSync(join(tmpdir(), "toolc-ct-old-"));
      cpSync(join(dir, TESTS_DIR), oldTests, { recursive: true });
      edit(dir, "definitions/get_order.yaml", "customerId: { type: string, minLength: 1,", "customerId: { type: string,");
      await generate(dir);
      cpSync(oldTests, join(dir, TESTS_DIR), { recursive: true });
    });
    expect(result.failed).toEqual([expect.stringContaining("customerId: shorter than minLength 1")]);
  });
});
