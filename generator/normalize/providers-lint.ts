/**
 * Warnings for what the provider exports (generated/providers.ts) cannot
 * do for a tool: take OpenAI's or Anthropic's strict form, or carry its name
 * at all. The reasons come from the same dialect functions the emitter
 * writes the exports with, located at the contract's YAML.
 */
import { Codes, warning } from "../diagnostics.js";
import { PROVIDER_NAME_RULES, providerEntry } from "../providers/catalog.js";
import type { SchemaProblem } from "../providers/schema-facts.js";
import type { Diagnostic, ToolIR, JsonPath } from "../ir.js";
import type { YamlSource } from "../load/index.js";

/**
 * Where a problem in the served schema sits in the YAML: under `input` at
 * the same path, as far as the YAML goes. A `$defs` entry bundled from a
 * types file has no place under `input`; it is reported at `input`.
 */
function locate(file: YamlSource, path: JsonPath) {
  return file.locate(path[0] === "$defs" && path.length > 1 ? ["input"] : ["input", ...path]);
}

function pathText(path: JsonPath): string {
  return path.length === 0 ? "the input root" : `input.${path.join(".")}`;
}

function notStrict(file: YamlSource, problems: readonly SchemaProblem[], code: string, provider: string): Diagnostic[] {
  const [first, ...rest] = problems;
  if (first === undefined) return [];
  const more = rest.length === 0 ? "" : ` (and ${rest.length} more: ${rest.map((p) => pathText(p.path)).join(", ")})`;
  const message = `exported to ${provider} with strict: false: ${first.message} at ${pathText(first.path)}${more}; toolc still validates every call`;
  return [warning(locate(file, first.path), code as typeof Codes.openaiNotStrict, message)];
}

export function lintProviders(tool: ToolIR, file: YamlSource): Diagnostic[] {
  const entry = providerEntry(tool);
  const out: Diagnostic[] = [];
  for (const rule of PROVIDER_NAME_RULES) {
    if (!rule.pattern.test(tool.name)) {
      out.push(
        warning(
          file.locate(["name"]),
          Codes.providerName,
          `tool name \`${tool.name}\` does not match ${rule.provider}'s ${rule.pattern.source}; it is left out of the ${rule.provider} exports in providers.ts`,
        ),
      );
    }
  }
  if (entry.openai) out.push(...notStrict(file, entry.openai.problems, Codes.openaiNotStrict, "OpenAI"));
  if (entry.anthropic) out.push(...notStrict(file, entry.anthropic.problems, Codes.anthropicNotStrict, "Anthropic"));
  return out;
}
