/**
 * `toolc check`: files toolc did not write in the output folder fail it, and
 * `--diff` prints a unified diff from the disk to what toolc would write.
 */
import { rmSync, writeFileSync, readFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli } from "../compiler/helpers.js";

async function generated(): Promise<string> {
  const dir = copyDemo();
  writeFileSync(join(dir, "toolc.config.yaml"), "tests: test/toolc\n");
  expect((await runCli(dir, ["generate"])).code).toBe(0);
  return dir;
}

describe("toolc check", () => {
  it("fails on a file in the output folder that toolc did not write, but not on dotfiles or on files beside the tests", async () => {
    const dir = await generated();
    writeFileSync(join(dir, "generated/.gitkeep"), "");
    writeFileSync(join(dir, "test/toolc/helpers.ts"), "export {};\n");
    expect((await runCli(dir, ["check"])).code).toBe(0);
    writeFileSync(join(dir, "generated/runtime/patch.ts"), "export const x = 1;\n");
    const result = await runCli(dir, ["check"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("  foreign: generated/runtime/patch.ts\n");
    expect(result.stderr).toContain("1 file in the output folder was not written by toolc");
    expect(result.stdout).toMatch(/, 1 differ /);
  });

  it("--diff prints a unified diff of every change, addition and removal", async () => {
    const dir = await generated();
    const tool = join(dir, "generated/tools/get_order.ts");
    const original = readFileSync(tool, "utf8");
    writeFileSync(tool, original.replace('export type GetOrderReason = "CUSTOMER_BLOCKED";', 'export type GetOrderReason = "BLOCKED";'));
    rmSync(join(dir, "generated/validators/search_orders.ts"));
    appendFileSync(join(dir, "test/toolc/get_order.test.ts"), "// mine\n");
    writeFileSync(join(dir, "generated/notes.txt"), "hello\n");
    const result = await runCli(dir, ["check", "--diff"]);
    expect(result.code).toBe(1);
    const diff = result.stdout;
    expect(diff).toContain('--- a/generated/tools/get_order.ts\n+++ b/generated/tools/get_order.ts\n');
    expect(diff).toContain('\n-export type GetOrderReason = "BLOCKED";\n+export type GetOrderReason = "CUSTOMER_BLOCKED";\n');
    expect(diff).toContain("--- /dev/null\n+++ b/generated/validators/search_orders.ts\n@@ -0,0 +1,");
    expect(diff).toContain("--- a/test/toolc/get_order.test.ts\n+++ b/test/toolc/get_order.test.ts\n");
    expect(diff).toContain("\n-// mine\n");
    expect(diff).toContain("--- a/generated/notes.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-hello\n");
    // Without --diff, only the list.
    expect((await runCli(dir, ["check"])).stdout).not.toContain("@@");
  });

  it("takes --diff only with check, and --watch only with generate", async () => {
    const dir = copyDemo();
    expect((await runCli(dir, ["generate", "--diff"])).code).toBe(2);
    expect((await runCli(dir, ["check", "--watch"])).code).toBe(2);
  });
});

describe("toolc --help", () => {
  it("lists every command, flag and environment switch", async () => {
    const help = (await runCli(copyDemo(), ["--help"])).stdout;
    for (const word of ["toolc init", "toolc generate [--watch]", "toolc check [--diff]", "toolc import", "--config", "--definitions", "--out", "--tests", "--no-tests", "--handlers", "TOOLC_NO_CACHE", "TOOLC_CACHE_DIR", "TOOLC_WORKERS", "toolc.config.yaml"]) {
      expect(help).toContain(word);
    }
  });
});
