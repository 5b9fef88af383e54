/**
 * Names that would collide in the generated code, which `generate` would
 * otherwise write and the consumer's build then reject: two names the
 * generated `index.ts` exports (a named type, a tool's types, handler type
 * and contract constant, the index's own API and what it re-exports of the
 * runtime), and two types files that write the same module.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, SourceLocation } from "../ir.js";
import type { YamlSource } from "../load/index.js";
import { INDEX_API_NAMES, INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES, moduleStem, toolExportNames, type ToolExportNames } from "./names.js";
import type { NamedTypes } from "./types-files.js";

/** What a name the index exports stands for, for the message. */
const TOOL_EXPORTS: Readonly<Record<keyof ToolExportNames, string>> = {
  input: "input type",
  resolvedInput: "resolved input type",
  output: "output type",
  reason: "rejection reason type",
  handler: "handler type",
  contract: "contract constant",
};

/** One tool, by what the lint needs of it. */
export interface ToolNames {
  readonly name: string;
  readonly baseName: string;
  readonly at: SourceLocation;
}

/**
 * Every name the generated index would export twice: a tool's clashing with
 * the index's own or another tool's is TC013 at the tool's name, a named
 * type's clashing with any of those is TC024 at the type.
 */
export function lintExportedNames(tools: readonly ToolNames[], types: NamedTypes, out: Diagnostic[]): void {
  const claimed = new Map<string, string>();
  for (const name of [...INDEX_API_NAMES, ...INDEX_RUNTIME_VALUES, ...INDEX_RUNTIME_TYPES]) claimed.set(name, `the generated index's own \`${name}\``);
  const baseNames = new Set<string>();
  for (const tool of tools) {
    // Two tools with one base name are reported once already, by the name lint (TC013).
    if (baseNames.has(tool.baseName)) continue;
    baseNames.add(tool.baseName);
    const names = toolExportNames(tool.baseName);
    const clashes = (Object.keys(names) as (keyof ToolExportNames)[]).filter((k) => claimed.has(names[k]));
    for (const key of clashes) {
      out.push(
        error(
          tool.at,
          Codes.identifierClash,
          `tool \`${tool.name}\`'s ${TOOL_EXPORTS[key]} would be named \`${names[key]}\`, which is already ${claimed.get(names[key])}; rename the tool`,
        ),
      );
    }
    if (clashes.length > 0) continue;
    for (const key of Object.keys(names) as (keyof ToolExportNames)[]) claimed.set(names[key], `tool \`${tool.name}\`'s ${TOOL_EXPORTS[key]}`);
  }
  for (const [name, entry] of types.byName) {
    const owner = claimed.get(name);
    if (owner === undefined) continue;
    out.push(
      error(
        entry.file.locate(["types", name], { key: true }),
        Codes.generatedNameClash,
        `type \`${name}\` has the name of ${owner} in the generated index; rename the type`,
      ),
    );
  }
}

/** Types files whose generated modules (`types/<stem>.ts`, `validators/types/<stem>.ts`) would be the same file, also on a case-insensitive file system: TC023 at the later file. */
export function lintTypeModules(files: readonly YamlSource[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byStem = new Map<string, string>();
  for (const file of files) {
    const stem = moduleStem(file.source);
    const first = byStem.get(stem.toLowerCase());
    if (first === undefined) {
      byStem.set(stem.toLowerCase(), file.source);
      continue;
    }
    out.push(
      error(
        file.locate(["types"], { key: true }),
        Codes.moduleClash,
        `types file ${file.source} would be generated as \`types/${stem}.ts\`, the module of ${first} too; rename one of the files`,
      ),
    );
  }
  return out;
}
