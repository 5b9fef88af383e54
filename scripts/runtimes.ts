/**
 * `npm run runtimes`: installs each folder of test runtimes (Node.js
 * binaries, Deno, Bun and wrangler, promptfoo, and the packages some tests
 * run against) from its own committed lockfile, kept out of the root
 * package.json so that a consumer's install never pulls them. One
 * `npm ci --prefix <folder>` each, in order; the first that fails stops the
 * run with its exit code. `--dry-run` prints the commands without running them.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface RuntimeFolder {
  /** The folder, relative to the repository's root. */
  readonly folder: string;
  /** Whether its packages' install scripts run: only where they fetch or unpack what the folder is for. */
  readonly installScripts: boolean;
}

export const RUNTIME_FOLDERS: readonly RuntimeFolder[] = [
  // The Node.js, Deno and Bun packages unpack their binaries in install scripts; so does workerd for wrangler.
  { folder: "test/node-runtimes", installScripts: true },
  { folder: "test/web-runtimes", installScripts: true },
  { folder: "test/evals-runtimes", installScripts: false },
  { folder: "test/codemode-runtimes", installScripts: false },
  { folder: "test/deferred-runtimes", installScripts: false },
  { folder: "test/mcpb-runtimes", installScripts: true },
  { folder: "test/apps-runtimes", installScripts: false },
];

/** The npm arguments that install `entry`. */
export function installArgs(entry: RuntimeFolder): string[] {
  return ["ci", "--prefix", entry.folder, "--no-audit", "--no-fund", ...(entry.installScripts ? [] : ["--ignore-scripts"])];
}

function installAll(dryRun: boolean): number {
  const root = fileURLToPath(new URL("..", import.meta.url));
  for (const entry of RUNTIME_FOLDERS) {
    const args = installArgs(entry);
    process.stdout.write(`npm ${args.join(" ")}\n`);
    if (dryRun) continue;
    const run = spawnSync("npm", args, { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = installAll(process.argv.includes("--dry-run"));
