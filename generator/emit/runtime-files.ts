/**
 * The runtime target: the real, tested sources in generator/runtime/ copied
 * into the output, so generated code imports nothing from toolc. The SDK
 * port (sdk.ts, sdk-http.ts, sdk-testing.ts) is the one set of files that differs by MCP SDK
 * line: generator/runtime/ holds the 1.x port, generator/runtime/sdk2/ the
 * 2.x port, and either is emitted under the same names.
 *
 * The runtime is written in prettier's layout (the sources are not). The
 * build formats it once (runtime-prebuild.ts) into a table keyed by each
 * file's source hash, so a generate only copies it; a file whose source
 * changed since the build is formatted during the run, as before.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { EmittedFile } from "../ir.js";
import { headerComment } from "./header.js";

/** The MCP SDK lines toolc generates for: 1 is `@modelcontextprotocol/sdk`, 2 is `@modelcontextprotocol/server` and `client`. */
export type McpSdkLine = 1 | 2;

const RUNTIME_DIR = new URL("../../generator/runtime/", import.meta.url);
const PORT_DIRS: Record<McpSdkLine, URL> = { 1: RUNTIME_DIR, 2: new URL("sdk2/", RUNTIME_DIR) };
const PORT_FILES: ReadonlySet<string> = new Set(["sdk.ts", "sdk-http.ts", "sdk-testing.ts"]);
/**
 * Files of one line alone, emitted only when the project asks for what they
 * do: the 2.x resource server (runtime/auth.ts) imports `jose`, so a project
 * without `auth:` in its config needs neither the file nor the package.
 */
const OPTIONAL_FILES: Readonly<Record<McpSdkLine, readonly string[]>> = { 1: [], 2: ["auth.ts"] };

const cached = new Map<McpSdkLine, EmittedFile[]>();

/** Where the build writes the formatted runtime: per SDK line, per file, the source text's hash and the formatted text. */
export const PREFORMATTED_URL = new URL("../../dist/runtime-formatted.json", import.meta.url);
export type PreformattedRuntime = Partial<Record<`${McpSdkLine}`, Record<string, { readonly sourceHash: string; readonly text: string }>>>;

export const runtimeSourceHash = (text: string): string => createHash("sha256").update(text).digest("hex");

function preformatted(): PreformattedRuntime {
  if (!existsSync(PREFORMATTED_URL)) return {};
  try {
    return JSON.parse(readFileSync(PREFORMATTED_URL, "utf8")) as PreformattedRuntime;
  } catch {
    return {};
  }
}

/** The runtime as its sources are, each file still to be formatted, the line's optional files included. */
export function rawRuntimeFiles(line: McpSdkLine): EmittedFile[] {
  const names = [...readdirSync(RUNTIME_DIR).filter(isRuntimeSource), ...OPTIONAL_FILES[line]].sort();
  return names.map((name) => {
    const dir = PORT_FILES.has(name) || OPTIONAL_FILES[line].includes(name) ? PORT_DIRS[line] : RUNTIME_DIR;
    const text = readFileSync(new URL(name, dir), "utf8");
    return { path: `runtime/${name}`, text: `${headerComment(`toolc runtime/${name}`)}\n${text}`, format: true };
  });
}

function isRuntimeSource(name: string): boolean {
  return name.endsWith(".ts") && !name.endsWith(".test.ts");
}

/**
 * Runtime files with their header, formatted at build time where the build saw the same source. All are TypeScript, so a consumer's build compiles (and an outDir gets) every one.
 * `auth`: the project has an `auth:` section, so the line's resource server is emitted too.
 */
export function emitRuntimeFiles(line: McpSdkLine = 1, auth = false): EmittedFile[] {
  let files = cached.get(line);
  if (files === undefined) {
    const table = preformatted()[`${line}`] ?? {};
    files = rawRuntimeFiles(line).map((file) => {
      const known = table[file.path];
      return known !== undefined && known.sourceHash === runtimeSourceHash(file.text) ? { path: file.path, text: known.text, format: false } : file;
    });
    cached.set(line, files);
  }
  if (auth) return files;
  const optional = new Set(OPTIONAL_FILES[line].map((name) => `runtime/${name}`));
  return files.filter((file) => !optional.has(file.path));
}
