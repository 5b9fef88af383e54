/**
 * The demo generated with code mode on, in a folder of its own that links
 * toolc's node_modules: what the code-mode tests import, type-check and load
 * into sandboxes.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { copyDemo, runCli } from "../compiler/helpers.js";
import { linkAllModules } from "../contract-tests/project.js";

export async function codeModeProject(section = "codemode: true"): Promise<string> {
  const dir = copyDemo();
  appendFileSync(join(dir, "toolc.config.yaml"), `\ntests: false\n${section}\n`);
  linkAllModules(dir);
  const generated = await runCli(dir, ["generate"]);
  if (generated.code !== 0) throw new Error(`generate failed: ${generated.stderr}`);
  return dir;
}
