/**
 * Which runtime files each runtime source imports, as TypeScript's own
 * pre-processor reads them (`ts.preProcessFile`: every import and export
 * declaration, `import()` and `import type`). The build reads every source
 * once (runtime-prebuild.ts) into a table keyed by the text's hash, so a
 * generate only looks the answer up; a source that changed since the build
 * (toolc's own tests run from the sources) is read at once, with the
 * TypeScript that a checkout of toolc has.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { posix } from "node:path";

/** Where the build writes the table: a source text's hash → the runtime files it imports. */
export const RUNTIME_IMPORTS_URL = new URL("../../dist/runtime-imports.json", import.meta.url);
export type RuntimeImportTable = Record<string, readonly string[]>;

export const runtimeSourceHash = (text: string): string => createHash("sha256").update(text).digest("hex");

let table: RuntimeImportTable | undefined;

function builtTable(): RuntimeImportTable {
  if (table === undefined) {
    try {
      table = JSON.parse(readFileSync(RUNTIME_IMPORTS_URL, "utf8")) as RuntimeImportTable;
    } catch {
      table = {};
    }
  }
  return table;
}

function loadTypeScript(name: string): typeof import("typescript") {
  try {
    return createRequire(import.meta.url)("typescript") as typeof import("typescript");
  } catch {
    throw new Error(
      `runtime/${name} is not in toolc's table of runtime imports (dist/runtime-imports.json), and TypeScript is not installed to read it: rebuild toolc (npm run build)`,
    );
  }
}

/** The runtime files (names in runtime/) that `text`, the source of runtime/`name`, imports; package imports are not counted. */
export function readRuntimeImports(name: string, text: string): string[] {
  const ts = loadTypeScript(name);
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const files = new Set<string>();
  for (const specifier of specifiers.filter((s) => s.startsWith("."))) {
    const file = posix.normalize(specifier).replace(/\.js$/, ".ts");
    if (file.includes("/")) throw new Error(`runtime/${name} imports ${specifier}, outside runtime/: a project's copy could not resolve it`);
    files.add(file);
  }
  return [...files].sort();
}

export function runtimeImports(name: string, text: string): readonly string[] {
  return builtTable()[runtimeSourceHash(text)] ?? readRuntimeImports(name, text);
}
