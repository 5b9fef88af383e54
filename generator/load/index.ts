/**
 * Phase 1, load: read every `*.yaml` under the definitions folder, keep
 * positions, and check each file against the meta-schema.
 */
import { readFileSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic } from "../ir.js";
import { checkFileFormats } from "./formats.js";
import { checkAgainstMetaSchema } from "./meta-schema.js";
import { parseYamlSource, type YamlSource } from "./yaml-source.js";

export type { JsonPath } from "../ir.js";
export type { YamlSource } from "./yaml-source.js";
import { findDefinitionFiles } from "./files.js";

export { findDefinitionFiles };

export interface LoadedDefinitions {
  /** Files that parsed and passed the meta-schema, sorted by source path. */
  readonly files: readonly YamlSource[];
  readonly diagnostics: readonly Diagnostic[];
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

export interface LoadOptions {
  /** Paths in diagnostics are printed relative to this folder (default: the working directory). */
  readonly displayRoot?: string;
}

export function loadDefinitionsFromTexts(entries: readonly { source: string; display: string; text: string }[]): LoadedDefinitions {
  const files: YamlSource[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    const parsed = parseYamlSource(entry.text, entry.source, entry.display);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.diagnostics.length > 0) continue;
    const problems = checkAgainstMetaSchema(parsed.file);
    diagnostics.push(...problems);
    if (problems.length === 0) files.push(parsed.file);
    // A file that goes no further still has its formats checked, so they are reported with its other problems (normalize checks the rest).
    else diagnostics.push(...checkFileFormats(parsed.file));
  }
  return { files, diagnostics };
}

export function loadDefinitions(dir: string, options: LoadOptions = {}): LoadedDefinitions {
  const displayRoot = options.displayRoot ?? process.cwd();
  let paths: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    paths = findDefinitionFiles(dir);
  } catch {
    const file = toPosix(relative(displayRoot, dir)) || ".";
    return { files: [], diagnostics: [error({ file, line: 1, col: 1 }, Codes.emptyDefinitions, `definitions folder not found: ${file}`)] };
  }
  if (paths.length === 0) {
    const file = toPosix(relative(displayRoot, dir)) || ".";
    return { files: [], diagnostics: [error({ file, line: 1, col: 1 }, Codes.emptyDefinitions, `no *.yaml definitions found in ${file}`)] };
  }
  return loadDefinitionsFromTexts(
    paths.map((path) => ({ source: toPosix(relative(dir, path)), display: toPosix(relative(displayRoot, path)), text: readFileSync(path, "utf8") })),
  );
}
