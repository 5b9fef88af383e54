/**
 * A tagged union whose tag names no branch is reported at the tag, however
 * many branches it has: `filter.kind`, where a one-branch `oneOf` said
 * `filter` and a two-branch one `filter.kind`. Through the real pipeline:
 * the contract compiled by load and normalize, its validators emitted as
 * `toolc generate` writes them, the executor mapping their errors.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { standaloneModule } from "../../generator/emit/validators.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { writeValidatorRuntime } from "../helpers/transpile.js";
import { compileYaml, contractOf, toolYaml } from "./yaml-contracts.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const branch = (kind: string): string => `{ type: object, properties: { kind: { const: ${kind} }, q: { type: string } }, required: [kind], additionalProperties: false }`;

/** The `search` tool with `filter: { oneOf: branches }`, with the validators generate emits for it. */
async function search(branches: string[]): Promise<AnyToolContract> {
  const yaml = toolYaml("search", `effect: read\ninput:\n  type: object\n  properties:\n    filter:\n      oneOf: [${branches.join(", ")}]\n  required: [filter]\noutput: { type: object }\n`);
  const { tools, diagnostics } = compileYaml({ "search.yaml": yaml });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const tool = tools[0]!;
  const dir = mkdtempSync(join(tmpdir(), "toolc-tagged-"));
  dirs.push(dir);
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(new URL("../../", import.meta.url).pathname, "node_modules"), join(dir, "node_modules"), "dir");
  writeValidatorRuntime(dir);
  mkdirSync(join(dir, "validators"));
  writeFileSync(
    join(dir, "validators/search.js"),
    standaloneModule([
      { exportName: "validateInput", schema: tool.inputSchema, applyDefaults: true },
      { exportName: "validateOutput", schema: tool.outputSchema, applyDefaults: false },
    ]),
  );
  return { ...contractOf(tool), validators: await import(pathToFileURL(join(dir, "validators/search.js")).href) };
}

describe("a wrong tag", () => {
  it.each([
    ["one branch", [branch("text")]],
    ["two branches", [branch("text"), branch("date")]],
  ])("%s: one issue, at the tag", async (_name, branches) => {
    const tool = await search(branches);
    const result = await executeTool(tool, { filter: { kind: "nope" } }, () => ({}));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "filter.kind", message: "must select one of the allowed shapes" }] });
    // A right tag with a wrong field is reported at the field.
    const field = await executeTool(tool, { filter: { kind: "text", q: 1 } }, () => ({}));
    expect(field).toMatchObject({ ok: false, issues: [{ path: "filter.q" }] });
  });
});
