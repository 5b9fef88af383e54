/**
 * Finding and reading the definition files: the first step of every run, and
 * all a run needs before it can tell from the build cache that nothing
 * changed. So this module imports nothing but node's fs and path: a no-op
 * run must not load the YAML parser, Ajv, prettier or TypeScript.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** Every *.yaml / *.yml file below `dir`, sorted by path for stable output. */
export function findDefinitionFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry.name)) found.push(full);
    }
  };
  walk(dir);
  return found.sort((a, b) => (toPosix(relative(dir, a)) < toPosix(relative(dir, b)) ? -1 : 1));
}

export interface DefinitionText {
  readonly source: string;
  readonly display: string;
  readonly text: string;
}

/** The definition texts in load order, or undefined when the folder is missing or empty (the plain path reports that). */
export function readDefinitionTexts(dir: string, displayRoot: string): DefinitionText[] | undefined {
  let paths: string[];
  try {
    paths = findDefinitionFiles(dir);
  } catch {
    return undefined;
  }
  if (paths.length === 0) return undefined;
  return paths.map((path) => ({ source: toPosix(relative(dir, path)), display: toPosix(relative(displayRoot, path)), text: readFileSync(path, "utf8") }));
}
