/**
 * Usage errors name what was meant: a mistyped command or flag gets the
 * nearest one, as a mistyped YAML key does. In-process: nothing is read or
 * written before the arguments are checked.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../compiler/helpers.js";

const cwd = mkdtempSync(join(tmpdir(), "toolc-usage-"));

/** The first line of stderr: the usage text follows it. */
async function firstError(args: string[]): Promise<{ code: number; line: string }> {
  const { code, stderr } = await runCli(cwd, args);
  return { code, line: stderr.split("\n")[0] ?? "" };
}

describe("usage errors", () => {
  it.each([
    [["generat"], 'toolc: unknown command "generat"; did you mean `generate`?'],
    [["chekc"], 'toolc: unknown command "chekc"; did you mean `check`?'],
    [["frobnicate"], 'toolc: unknown command "frobnicate"'],
    [["generate", "--wach"], "toolc: unknown option --wach; did you mean `--watch`?"],
    [["check", "--defintions", "x"], "toolc: unknown option --defintions; did you mean `--definitions`?"],
    [["diff", "--bsae", "git:HEAD"], "toolc diff: unknown option --bsae; did you mean `--base`?"],
    [["docs", "--titel", "x"], "toolc docs: unknown option --titel; did you mean `--title`?"],
  ])("%j: %s", async (args, expected) => {
    const { code, line } = await firstError(args);
    expect(code).toBe(2);
    expect(line).toBe(expected);
  });
});
