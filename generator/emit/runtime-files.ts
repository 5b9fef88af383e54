/**
 * The runtime target: the real, tested sources in generator/runtime/ copied
 * into the output, so generated code imports nothing from toolc. The SDK
 * port (sdk.ts, sdk-http.ts, sdk-testing.ts) is the one set of files that differs by MCP SDK
 * line: generator/runtime/ holds the 1.x port, generator/runtime/sdk2/ the
 * 2.x port, and either is emitted under the same names.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { EmittedFile } from "../ir.js";
import { headerComment } from "./header.js";

/** The MCP SDK lines toolc generates for: 1 is `@modelcontextprotocol/sdk`, 2 is `@modelcontextprotocol/server` and `client`. */
export type McpSdkLine = 1 | 2;

const RUNTIME_DIR = new URL("../../generator/runtime/", import.meta.url);
const PORT_DIRS: Record<McpSdkLine, URL> = { 1: RUNTIME_DIR, 2: new URL("sdk2/", RUNTIME_DIR) };
const PORT_FILES: ReadonlySet<string> = new Set(["sdk.ts", "sdk-http.ts", "sdk-testing.ts"]);

const cached = new Map<McpSdkLine, EmittedFile[]>();

function isRuntimeSource(name: string): boolean {
  return name.endsWith(".ts") && !name.endsWith(".test.ts");
}

/** Runtime files with their header. All are TypeScript, so a consumer's build compiles (and an outDir gets) every one. */
export function emitRuntimeFiles(line: McpSdkLine = 1): EmittedFile[] {
  let files = cached.get(line);
  if (files === undefined) {
    files = readdirSync(RUNTIME_DIR)
      .filter(isRuntimeSource)
      .sort()
      .map((name) => {
        const text = readFileSync(new URL(name, PORT_FILES.has(name) ? PORT_DIRS[line] : RUNTIME_DIR), "utf8");
        return { path: `runtime/${name}`, text: `${headerComment(`toolc runtime/${name}`)}\n${text}`, format: true };
      });
    cached.set(line, files);
  }
  return files;
}
