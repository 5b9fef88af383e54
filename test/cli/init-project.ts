/** Scratch npm projects for `toolc init`, and the starter it sets up. */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli } from "../compiler/helpers.js";

export const ours = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** An existing npm project: package.json indented with tabs, a build script, maybe vitest and a prettier config. */
export function scratch(options: { vitest?: boolean; prettierrc?: object } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-init-"));
  const pkg = {
    name: "my-tools",
    version: "2.3.4",
    type: "module",
    scripts: { build: "tsc", test: "vitest run" },
    devDependencies: { toolc: "file:../toolc.tgz", ...(options.vitest ? { vitest: ours.devDependencies.vitest } : {}) },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, "\t")}\n`);
  if (options.prettierrc) writeFileSync(join(dir, ".prettierrc"), JSON.stringify(options.prettierrc));
  writeFileSync(join(dir, ".gitignore"), "node_modules\ndist\n");
  return dir;
}

export interface CliOutcome {
  readonly code: number;
  readonly stderr: string;
}

/** A project with vitest after `toolc init` and `toolc generate`, toolc's node_modules linked; with both runs' outcomes. */
export async function starterProject(): Promise<{ dir: string; init: CliOutcome; generate: CliOutcome }> {
  const dir = scratch({ vitest: true });
  const { code, stderr } = await runCli(dir, ["init"]);
  const generated = await runCli(dir, ["generate"]);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return { dir, init: { code, stderr }, generate: { code: generated.code, stderr: generated.stderr } };
}

/** The starter's files a consumer compiles. */
export const STARTER_SOURCES = ["src/server.ts", "src/handlers.ts"];
