/**
 * Names that would collide in the generated TypeScript, which `generate`
 * would otherwise write and the consumer's build then reject: two names the
 * generated `index.ts` exports (a named type, a tool's types, handler type
 * and contract constant, the index's own API and what it re-exports of the
 * runtime), and two types files that write the same module. The TypeScript
 * targets run them as their `Target.lint` (the MCP target owns the index,
 * the types target the types modules); the IR carries the locations.
 */
import { Codes, error } from "../diagnostics.js";
import type { ContractIR, Diagnostic, ToolIR } from "../ir.js";
import { INDEX_API_NAMES, INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES, toolExportNames, toolTypeName, type ToolExportNames } from "./ts-names.js";

/** What a name the index exports stands for, for the message. */
const TOOL_EXPORTS: Readonly<Record<keyof ToolExportNames, string>> = {
  input: "input type",
  resolvedInput: "resolved input type",
  output: "output type",
  reason: "rejection reason type",
  handler: "handler type",
  contract: "contract constant",
};

/** The tools as the definitions folder lists them (by source path), so a clash is reported at the later file's tool. */
function inLoadOrder(tools: readonly ToolIR[]): ToolIR[] {
  return [...tools].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/**
 * Every name the generated index would export twice: a tool's clashing with
 * the index's own or an earlier tool's is TC013 at the tool's name, a named
 * type's clashing with any of those is TC024 at the type.
 */
export function lintIndexExports(ir: ContractIR): Diagnostic[] {
  const out: Diagnostic[] = [];
  const claimed = new Map<string, string>();
  for (const name of [...INDEX_API_NAMES, ...INDEX_RUNTIME_VALUES, ...INDEX_RUNTIME_TYPES]) claimed.set(name, `the generated index's own \`${name}\``);
  const byBaseName = new Map<string, string>();
  const seen = new Set<string>();
  for (const tool of inLoadOrder(ir.tools)) {
    // A name defined twice is normalize's error (TC010), not a clash of TypeScript names.
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const baseName = toolTypeName(tool);
    const first = byBaseName.get(baseName);
    if (first !== undefined) {
      // `get-order` and `get_order` are two contracts, but one `GetOrderInput`, `GetOrderHandler`...: once, not per export.
      out.push(
        error(tool.nameAt, Codes.identifierClash, `tool name \`${tool.name}\` maps to the same generated name as \`${first}\` (${baseName}); rename one`),
      );
      continue;
    }
    byBaseName.set(baseName, tool.name);
    const names = toolExportNames(baseName);
    const clashes = (Object.keys(names) as (keyof ToolExportNames)[]).filter((k) => claimed.has(names[k]));
    for (const key of clashes) {
      out.push(
        error(
          tool.nameAt,
          Codes.identifierClash,
          `tool \`${tool.name}\`'s ${TOOL_EXPORTS[key]} would be named \`${names[key]}\`, which is already ${claimed.get(names[key])}; rename the tool`,
        ),
      );
    }
    if (clashes.length > 0) continue;
    for (const key of Object.keys(names) as (keyof ToolExportNames)[]) claimed.set(names[key], `tool \`${tool.name}\`'s ${TOOL_EXPORTS[key]}`);
  }
  for (const type of ir.typeFiles.flatMap((file) => file.types)) {
    const owner = claimed.get(type.name);
    if (owner === undefined) continue;
    out.push(error(type.nameAt, Codes.generatedNameClash, `type \`${type.name}\` has the name of ${owner} in the generated index; rename the type`));
  }
  return out;
}

/** Types files whose generated modules (`types/<stem>.ts`, `validators/types/<stem>.ts`) would be the same file, also on a case-insensitive file system: TC023 at the later file. */
export function lintTypeModules(ir: ContractIR): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byStem = new Map<string, string>();
  for (const file of ir.typeFiles) {
    const first = byStem.get(file.module.toLowerCase());
    if (first === undefined) {
      byStem.set(file.module.toLowerCase(), file.source);
      continue;
    }
    out.push(
      error(
        file.typesAt,
        Codes.moduleClash,
        `types file ${file.source} would be generated as \`types/${file.module}.ts\`, the module of ${first} too; rename one of the files`,
      ),
    );
  }
  return out;
}
