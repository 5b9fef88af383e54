/**
 * promptfoo's own CLI runs the demo's eval pack: the pack's promptfooconfig.yaml,
 * its test loader, assertion and scripted provider, as a user runs them
 * (`promptfoo eval -c promptfooconfig.yaml`). promptfoo is installed apart
 * (test/evals-runtimes, by `npm run runtimes`; it asks for Node.js 22.22 or
 * later, so it runs on test/node-runtimes' Node.js 22). Narrow on purpose:
 * the install is about 1.9 GB.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { evalPackFiles } from "../../generator/evals/index.js";
import { readDefinitionTexts } from "../../generator/load/files.js";
import { ROOT } from "../compiler/helpers.js";
import { nodeBin } from "../helpers/node-runtimes.js";

const run = promisify(execFile);
const PROMPTFOO = join(ROOT, "test/evals-runtimes/node_modules/promptfoo/dist/src/entrypoint.js");
const installed = existsSync(PROMPTFOO);
const dir = mkdtempSync(join(tmpdir(), "toolc-evals-promptfoo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.runIf(!installed)("is skipped when promptfoo is not installed", () => {
  console.log("evals: promptfoo is not installed (npm run runtimes installs it in test/evals-runtimes); its CLI run is skipped");
  expect(installed).toBe(false);
});

it.runIf(installed)("passes every model case of the demo's pack with the scripted provider, and fails them with a provider that calls what it must not", async () => {
  const side = sideFromTexts(readDefinitionTexts("definitions", ROOT) ?? [], "definitions");
  const files = evalPackFiles(side.side!.ir);
  for (const file of files) writeFileSync(join(dir, file.path), file.text);
  const modelCases = files
    .filter((f) => f.path.endsWith(".jsonl"))
    .flatMap((f) => f.text.trim().split("\n").map((line) => JSON.parse(line) as { kind: string; id: string }))
    .filter((c) => c.kind === "call" || c.kind === "refrain");
  const env = { ...process.env, PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(dir, ".promptfoo"), NO_COLOR: "1" };
  const evaluate = async (config: string, output: string) => {
    await run(nodeBin(22), [PROMPTFOO, "eval", "-c", config, "--no-cache", "--no-progress-bar", "-o", output], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).catch((e: { code?: number }) => {
      // promptfoo exits 100 when a test fails; the results file says which.
      if (e.code !== 100) throw e;
    });
    const results = JSON.parse(readFileSync(join(dir, output), "utf8")) as { results: { results: { success: boolean; testCase: { description: string } }[] } };
    return results.results.results.map((r) => [r.testCase.description, r.success] as const).sort();
  };
  expect(await evaluate("promptfooconfig.yaml", "scripted.json")).toEqual(modelCases.map((c) => [c.id, true]).sort());
  // The same pack with a provider that makes the forbidden call, or a wrong one, everywhere: every case fails.
  writeFileSync(
    join(dir, "careless-provider.mjs"),
    `export default class { id() { return "careless"; } async callApi(_p, context) { const c = JSON.parse(context.vars.case); return { output: JSON.stringify(c.kind === "refrain" ? { tool: c.mustNotCall.tool, arguments: c.mustNotCall.arguments ?? {} } : { tool: c.tool, arguments: {} }) }; } }\n`,
  );
  writeFileSync(join(dir, "careless.yaml"), readFileSync(join(dir, "promptfooconfig.yaml"), "utf8").replace("file://promptfoo-scripted-provider.mjs", "file://careless-provider.mjs"));
  expect(await evaluate("careless.yaml", "careless.json")).toEqual(modelCases.map((c) => [c.id, false]).sort());
}, 600_000);
