/**
 * What each provider gets for each tool: its schema in that provider's
 * dialect, whether it is strict and why not, and whether the provider
 * accepts the tool's name at all. The emitter writes this as data; the
 * normalize lint turns its reasons into located warnings. Both read it from
 * here, so they cannot disagree.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonObject, SensitivePaths, ToolIR } from "../ir.js";
import { forEachSensitive } from "../runtime/sensitive.js";
import { ANTHROPIC_LIMITS, ANTHROPIC_NAME, anthropicDialect, type AnthropicDialect } from "./anthropic.js";
import { GEMINI_NAME, geminiDialect } from "./gemini.js";
import { OPENAI_NAME, openaiDialect, type OpenAIDialect } from "./openai.js";
import { withoutAnnotations } from "./schema-facts.js";
import { isJsonObject } from "../schema/json.js";

export interface ProviderEntry {
  readonly tool: ToolIR;
  /** Undefined when OpenAI would refuse the tool's name. */
  readonly openai?: OpenAIDialect;
  readonly anthropic?: AnthropicDialect;
  readonly gemini?: JsonObject;
}

/**
 * The AI SDK's per-tool `strict` and `inputExamples`
 * (https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#strict-mode).
 * The SDK sends a tool's `inputSchema` as it is to whichever provider it
 * calls, and the providers that honour `strict` refuse a schema outside
 * their strict subset; so a tool is strict only when its served schema
 * already is both OpenAI's and Anthropic's strict form, within Anthropic's
 * per-request budgets.
 */
export interface AiSdkEntry {
  readonly strict: boolean;
  /** As the SDK takes them: `{ input }` per example. */
  readonly inputExamples: JsonObject[];
}

export const PROVIDER_NAME_RULES = [
  { provider: "OpenAI", pattern: OPENAI_NAME },
  { provider: "Anthropic", pattern: ANTHROPIC_NAME },
  { provider: "Gemini", pattern: GEMINI_NAME },
] as const;

/** One tool on its own; the per-request budgets that span tools are applied by `providerCatalog`. */
export function providerEntry(tool: ToolIR): ProviderEntry {
  return {
    tool,
    ...(OPENAI_NAME.test(tool.name) ? { openai: openaiDialect(tool) } : {}),
    ...(ANTHROPIC_NAME.test(tool.name) ? { anthropic: anthropicDialect(tool) } : {}),
    ...(GEMINI_NAME.test(tool.name) ? { gemini: geminiDialect(tool) } : {}),
  };
}

/**
 * Anthropic counts strict tools, optional parameters and union-typed
 * parameters over a whole request. Tools are made strict in tools/list
 * order while all three budgets hold; the rest are exported non-strict, and
 * the generated file says which.
 */
function withinAnthropicBudgets(entries: ProviderEntry[]): { entries: ProviderEntry[]; overBudget: string[] } {
  const used = { tools: 0, optional: 0, union: 0 };
  const overBudget: string[] = [];
  const adjusted = entries.map((entry) => {
    const dialect = entry.anthropic;
    if (dialect === undefined || !dialect.strict) return entry;
    const fits =
      used.tools + 1 <= ANTHROPIC_LIMITS.strictTools &&
      used.optional + dialect.optionalParameters <= ANTHROPIC_LIMITS.optionalParameters &&
      used.union + dialect.unionParameters <= ANTHROPIC_LIMITS.unionParameters;
    if (fits) {
      used.tools += 1;
      used.optional += dialect.optionalParameters;
      used.union += dialect.unionParameters;
      return entry;
    }
    overBudget.push(entry.tool.name);
    const served = withoutAnnotations(entry.tool.inputSchema) as AnthropicDialect["inputSchema"];
    return { ...entry, anthropic: { ...dialect, inputSchema: served, strict: false, examplesFit: true } };
  });
  return { entries: adjusted, overBudget };
}

/** The contract's valid examples whose input is an object, which is what a tool call's arguments are. */
function holdsSensitive(input: JsonObject, paths: SensitivePaths): boolean {
  let found = false;
  forEachSensitive(input, paths, () => (found = true));
  return found;
}

/**
 * The valid examples whose input is an object, for the providers' example
 * fields. An example holding an `x-sensitive` value is left out: examples go
 * to the model provider with every request, and a sensitive value never
 * leaves toolc's border, not even a sample one.
 */
export function objectExamples(tool: ToolIR): JsonObject[] {
  const inputs = tool.examples.filter((x) => x.invalid === undefined && x.rejected === undefined && isJsonObject(x.input)).map((x) => x.input as JsonObject);
  return inputs.filter((input) => !holdsSensitive(input, tool.sensitive.input));
}

/** `entry` after the Anthropic budgets: strict for the AI SDK when neither OpenAI's nor Anthropic's strict form had to change the served schema. */
export function aiSdkEntry(entry: ProviderEntry): AiSdkEntry {
  const served = entry.tool.inputSchema;
  const unchanged = (strict: boolean | undefined, schema: JsonObject | undefined): boolean => strict === true && isDeepStrictEqual(schema, served);
  const strict = unchanged(entry.openai?.strict, entry.openai?.parameters) && unchanged(entry.anthropic?.strict, entry.anthropic?.inputSchema);
  return { strict, inputExamples: objectExamples(entry.tool).map((input) => ({ input })) };
}

export function providerCatalog(tools: readonly ToolIR[]): { entries: ProviderEntry[]; anthropicOverBudget: string[] } {
  const { entries, overBudget } = withinAnthropicBudgets(tools.map(providerEntry));
  return { entries, anthropicOverBudget: overBudget };
}
