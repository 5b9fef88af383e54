import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseDocument } from "yaml";
import { main } from "../../generator/cli.js";

export const ROOT = new URL("../../", import.meta.url).pathname;

/** A fresh project folder with the given definition files. */
export function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-test-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, "definitions", path, ".."), { recursive: true });
    writeFileSync(join(dir, "definitions", path), text);
  }
  return dir;
}

export function copyDemo(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-demo-"));
  cpSync(join(ROOT, "definitions"), join(dir, "definitions"), { recursive: true });
  // The demo's settings: its config (MCP SDK 2.x, the tool-list cache hint) and the package name and version
  // the generated server takes as its defaults, as a consumer project's package.json would give them.
  // Without its `docs:` section: the catalog's changelog reads the repository's git history, which a copy has not (test/docs covers the catalog).
  const config = parseDocument(readFileSync(join(ROOT, "toolc.config.yaml"), "utf8"));
  config.delete("docs");
  writeFileSync(join(dir, "toolc.config.yaml"), String(config));
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: own.name, version: own.version, private: true, dependencies: { "@modelcontextprotocol/server": "2.4.0" } }, null, 2)}\n`);
  return dir;
}

/** Runs the CLI in `cwd` (given to it, not by chdir, so tests in one worker never see each other's directory), capturing its output. */
export async function runCli(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

/** Every file below `dir` with its contents, for before/after comparisons. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}
