/**
 * The runtime target: the real, tested sources in generator/runtime/ copied
 * into the output as they are, so generated code imports nothing from toolc
 * and a line in a project's runtime/executor.ts is the same line of toolc's
 * generator/runtime/executor.ts. The sources are kept in the layout a
 * project gets (`npm run format:runtime`), each starting with the line that
 * marks a copy as toolc's (RUNTIME_HEADER). The SDK port (sdk.ts,
 * sdk-http.ts, sdk-testing.ts) is the one set of files that differs by MCP
 * SDK line: generator/runtime/ holds the 1.x port, generator/runtime/sdk2/
 * the 2.x port, and either is emitted under the same names. What both ports
 * share (sdk-port.ts, the types they hand to the rest of the runtime) is an
 * ordinary runtime file: the 2.x port imports it as `./sdk-port.js`, as its
 * copy does, and tsconfig.json's rootDirs resolves that in toolc's tree.
 *
 * A project is given only the modules its generated files reach: what they
 * import (RUNTIME_ROOTS, by what the project generates), then what those
 * import, followed through the sources (runtime-imports.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EmittedFile } from "../ir.js";
import { runtimeImports } from "./runtime-imports.js";

/** The MCP SDK lines toolc generates for: 1 is `@modelcontextprotocol/sdk`, 2 is `@modelcontextprotocol/server` and `client`. */
export type McpSdkLine = 1 | 2;

/** What marks a runtime copy as toolc's, so a later generate may replace or remove it (write/output.ts). */
export const RUNTIME_MARKER = "Part of the toolc runtime";
/** The first line of every runtime source, and so of every copy. */
export const RUNTIME_HEADER = `// ${RUNTIME_MARKER}: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.`;

const RUNTIME_DIR = new URL("../../generator/runtime/", import.meta.url);
const PORT_DIRS: Record<McpSdkLine, URL> = { 1: RUNTIME_DIR, 2: new URL("sdk2/", RUNTIME_DIR) };
const PORT_FILES: ReadonlySet<string> = new Set(["sdk.ts", "sdk-http.ts", "sdk-testing.ts", "apps.ts"]);
/** Files of one line alone: the 2.x resource server (runtime/auth.ts, which imports `jose`) and McpServer host (runtime/tool-host.ts). */
const LINE_FILES: Readonly<Record<McpSdkLine, readonly string[]>> = { 1: [], 2: ["auth.ts", "tool-host.ts"] };
/** The OpenAPI import's runtime, written beside a project's handlers (import/openapi/handlers.ts), in the same layout. */
const OPENAPI_RUNTIME_DIR = new URL("../../generator/openapi-runtime/", import.meta.url);

/** What a project generates, as far as the runtime it needs is concerned. */
export interface RuntimeNeeds {
  readonly mcpSdk?: McpSdkLine;
  /** Contract tests are written (they import runtime/contract-tests.ts). */
  readonly tests?: boolean;
  /** providers.ts is written (`providers: false` turns it off). */
  readonly providers?: boolean;
  /** The config has an `auth:` section: http.ts imports the resource server. */
  readonly auth?: boolean;
  /** codemode.ts is written (`codemode:` in the config). */
  readonly codemode?: boolean;
  /** A contract has a view (`ui.source`): index.ts serves it through runtime/apps.ts. */
  readonly apps?: boolean;
}

/**
 * The runtime modules generated files import, by the part of the output
 * that imports them (each emitter's import lines). The validators' helpers
 * (equal, formats, length, multiple) are written whenever validators are,
 * since which of them a validator imports depends on its schemas.
 */
export const RUNTIME_ROOTS = {
  /** contracts.ts and validators/ (contract, validator-errors and the helpers), index.ts (api, dispatch, sdk), http.ts, fetch.ts (border), chunks/ (json). */
  always: [
    "contract.ts",
    "validator-errors.ts",
    "equal.ts",
    "formats.ts",
    "length.ts",
    "multiple.ts",
    "api.ts",
    "dispatch.ts",
    "sdk.ts",
    "http.ts",
    "border.ts",
    "json.ts",
  ],
  providers: ["providers.ts", "types.ts"],
  tests: ["contract-tests.ts"],
  auth: ["auth.ts"],
  codemode: ["codemode.ts"],
  apps: ["apps.ts", "view.ts"],
} as const satisfies Record<string, readonly string[]>;

function isRuntimeSource(name: string): boolean {
  return name.endsWith(".ts") && !name.endsWith(".test.ts");
}

/** Each runtime file of one SDK line by its name in runtime/, with the source it is copied from. */
function lineSources(line: McpSdkLine): Map<string, URL> {
  const names = [...readdirSync(RUNTIME_DIR).filter(isRuntimeSource), ...LINE_FILES[line]].sort();
  return new Map(names.map((name) => [name, new URL(name, PORT_FILES.has(name) || LINE_FILES[line].includes(name) ? PORT_DIRS[line] : RUNTIME_DIR)]));
}

/** Every runtime source on disk, absolute: both SDK lines' and the OpenAPI import's. */
export function runtimeSourcePaths(): string[] {
  const dirs = [RUNTIME_DIR, PORT_DIRS[2], OPENAPI_RUNTIME_DIR];
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter(isRuntimeSource)
      .sort()
      .map((name) => fileURLToPath(new URL(name, dir))),
  );
}

/** The names in runtime/ a project with these needs imports, directly or through other runtime files. */
export function reachedRuntimeFiles(needs: RuntimeNeeds, sources: ReadonlyMap<string, string>): string[] {
  const roots: string[] = [...RUNTIME_ROOTS.always];
  if (needs.providers !== false) roots.push(...RUNTIME_ROOTS.providers);
  if (needs.tests === true) roots.push(...RUNTIME_ROOTS.tests);
  if (needs.codemode === true) roots.push(...RUNTIME_ROOTS.codemode);
  // SDK 1.x has no resource server (the config refuses `auth:` with it), so its runtime has no auth.ts to give.
  if (needs.auth === true) roots.push(...RUNTIME_ROOTS.auth.filter((name) => sources.has(name)));
  if (needs.apps === true) roots.push(...RUNTIME_ROOTS.apps);
  // mcp-host.ts, on SDK 2.x only: toolc's tools on an application's McpServer.
  if (sources.has("tool-host.ts")) roots.push("tool-host.ts");
  const reached = new Set<string>();
  const visit = (name: string): void => {
    if (reached.has(name)) return;
    const text = sources.get(name);
    if (text === undefined) throw new Error(`runtime/${name} is imported but is not a runtime file of this SDK line`);
    reached.add(name);
    for (const imported of runtimeImports(name, text)) visit(imported);
  };
  roots.forEach(visit);
  return [...reached].sort();
}

const sourceTexts = new Map<McpSdkLine, Map<string, string>>();

function lineTexts(line: McpSdkLine): Map<string, string> {
  let texts = sourceTexts.get(line);
  if (texts === undefined) {
    texts = new Map([...lineSources(line)].map(([name, url]) => [name, readFileSync(url, "utf8")]));
    sourceTexts.set(line, texts);
  }
  return texts;
}

/** The runtime files a project needs, each its source byte for byte. All are TypeScript, so a consumer's build compiles (and an outDir gets) every one. */
export function emitRuntimeFiles(needs: RuntimeNeeds = {}): EmittedFile[] {
  const texts = lineTexts(needs.mcpSdk ?? 1);
  return reachedRuntimeFiles(needs, texts).map((name) => ({ path: `runtime/${name}`, text: texts.get(name)! }));
}
