/**
 * Run by `npm run build` after tsc: reads the runtime sources' imports once,
 * into the table runtime-imports.ts looks them up in, so no generate needs
 * TypeScript (a dependency of toolc's build, not of toolc).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimeSourcePaths } from "./runtime-files.js";
import { readRuntimeImports, RUNTIME_IMPORTS_URL, runtimeSourceHash, type RuntimeImportTable } from "./runtime-imports.js";

export function runtimeImportTable(): RuntimeImportTable {
  const table: RuntimeImportTable = {};
  for (const path of runtimeSourcePaths()) {
    const text = readFileSync(path, "utf8");
    table[runtimeSourceHash(text)] = readRuntimeImports(basename(path), text);
  }
  return table;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(RUNTIME_IMPORTS_URL, `${JSON.stringify(runtimeImportTable())}\n`);
}
