/**
 * `providers.ts`: the contracts as OpenAI, Anthropic, Gemini and Vercel AI
 * SDK tools, with each provider's schemas computed here at compile time and
 * written as data, and a `run` per provider bound to the runtime's dispatch.
 * Only callers who use it import it; `index.ts` does not.
 */
import type { ContractIR, EmittedFile, JsonObject, JsonValue } from "../../ir.js";
import { contractConstName } from "../contracts-module.js";
import { headerComment } from "../header.js";
import { propertyKey, tsLiteral } from "../literal.js";
import { aiSdkEntry, objectExamples, providerCatalog, type ProviderEntry } from "../../providers/catalog.js";

const RUNTIME_VALUES = ["aiSdkToolSet", "openAIResponsesTools", "runAnthropicToolUse", "runGeminiFunctionCall", "runOpenAIToolCall"];
const RUNTIME_TYPES = [
  "AiSdkTool", "AiSdkToolSettings", "AnthropicTool", "AnthropicToolResultBlock", "AnthropicToolUseBlock", "GeminiFunctionCall", "GeminiFunctionDeclaration", "GeminiFunctionResponse",
  "NullPlanSet", "OpenAIChatTool", "OpenAIChatToolCall", "OpenAIResponsesFunctionCall", "OpenAIResponsesTool", "OpenAIRunResult",
];

function description(entry: ProviderEntry): JsonObject {
  return entry.tool.description === undefined ? {} : { description: entry.tool.description };
}

function contractMap(name: string, entries: readonly ProviderEntry[], doc: string): string {
  const lines = entries.map((e) => `  ${propertyKey(e.tool.name)}: ${contractConstName(e.tool)},`);
  return `/** ${doc} */\nconst ${name} = {\n${lines.join("\n")}\n} as const;`;
}

function data(name: string, type: string, value: JsonValue, doc: string): string {
  return `/** ${doc} */\nconst ${name}: ${type} = ${tsLiteral(value)};`;
}

/**
 * A provider's tool list, each tool passed through a function typed for one
 * element. TypeScript types an array literal as the union of its elements'
 * types, reduced pairwise, and gives up on a thousand or so object literals
 * (TS2590) whatever the declared type; a call's type is its return type, so
 * the union is one type, and each tool is still checked against it, excess
 * properties included.
 */
function toolArray(name: string, element: { readonly name: string; readonly type: string }, values: readonly JsonValue[], doc: string): string {
  if (values.length === 0) return `/** ${doc} */\nconst ${name}: ${element.type}[] = [];`;
  const calls = values.map((value) => `  ${element.name}(${tsLiteral(value).replace(/\n/g, "\n  ")}),`);
  return [
    `/** One element of \`${name}\`, checked on its own (an array of many object literals is too large a union for TypeScript). */`,
    `const ${element.name} = (tool: ${element.type}): ${element.type} => tool;`,
    "",
    `/** ${doc} */`,
    `const ${name}: ${element.type}[] = [\n${calls.join("\n")}\n];`,
  ].join("\n");
}

function openaiSection(entries: readonly ProviderEntry[]): string[] {
  const listed = entries.filter((e) => e.openai !== undefined);
  const tools = listed.map((e) => ({ type: "function", function: { name: e.tool.name, ...description(e), parameters: e.openai?.parameters ?? {}, strict: e.openai?.strict ?? false } }));
  const nulls = Object.fromEntries(listed.flatMap((e) => (e.openai?.nulls === undefined ? [] : [[e.tool.name, e.openai.nulls as unknown as JsonValue]])));
  return [
    contractMap("openaiContracts", listed, "The tools OpenAI may call: every tool whose name OpenAI accepts."),
    toolArray("openaiChatTools", { name: "openaiChatTool", type: "OpenAIChatTool" }, tools, "Chat Completions tools: strict where the contract fits OpenAI's strict mode."),
    data("openaiNulls", "{ readonly [tool: string]: NullPlanSet }", nulls, "Per strict tool: the optional properties sent as null, which `run` removes so defaults apply."),
    `/** OpenAI: \`tools\` for Chat Completions, \`responsesTools\` for the Responses API, and \`run\` for one tool call of either. */
export const openai = {
  tools: openaiChatTools,
  responsesTools: openAIResponsesTools(openaiChatTools) satisfies OpenAIResponsesTool[],
  /** Runs \`tool_calls[i]\` (or a Responses \`function_call\`) through the executor; never throws. */
  run<C extends OpenAIChatToolCall | OpenAIResponsesFunctionCall>(call: C, handlers: Handlers, options?: ExecuteOptions): Promise<OpenAIRunResult<C>> {
    return runOpenAIToolCall(openaiContracts, openaiNulls, call, handlers, options);
  },
};`,
  ];
}

function anthropicSection(entries: readonly ProviderEntry[], overBudget: readonly string[]): string[] {
  const listed = entries.filter((e) => e.anthropic !== undefined);
  const tools = listed.map((e) => {
    const examples = !e.anthropic?.examplesFit ? [] : objectExamples(e.tool);
    return {
      name: e.tool.name,
      ...description(e),
      input_schema: e.anthropic?.inputSchema ?? { type: "object" },
      ...(e.anthropic?.strict === true ? { strict: true } : {}),
      ...(examples.length > 0 ? { input_examples: examples } : {}),
    };
  });
  const budgetNote = overBudget.length === 0 ? "" : ` Not strict because a request holds at most 20 strict tools, 24 optional and 16 union-typed parameters: ${overBudget.join(", ")}.`;
  return [
    contractMap("anthropicContracts", listed, "The tools Anthropic may call: every tool whose name Anthropic accepts."),
    toolArray("anthropicTools", { name: "anthropicTool", type: "AnthropicTool" }, tools, `Messages API tools, strict where the contract fits Anthropic's strict subset.${budgetNote}`),
    `/** Anthropic: \`tools\` for the Messages API and \`run\` for one \`tool_use\` block. */
export const anthropic = {
  tools: anthropicTools,
  /** Runs a \`tool_use\` block through the executor; the \`tool_result\` has \`is_error: true\` on failure. Never throws. */
  run(block: AnthropicToolUseBlock, handlers: Handlers, options?: ExecuteOptions): Promise<AnthropicToolResultBlock> {
    return runAnthropicToolUse(anthropicContracts, block, handlers, options);
  },
};`,
  ];
}

function geminiSection(entries: readonly ProviderEntry[]): string[] {
  const listed = entries.filter((e) => e.gemini !== undefined);
  const declarations = listed.map((e) => ({ name: e.tool.name, ...description(e), parametersJsonSchema: e.gemini ?? {} }));
  return [
    contractMap("geminiContracts", listed, "The tools Gemini may call: every tool whose name Gemini accepts."),
    toolArray("geminiDeclarations", { name: "geminiDeclaration", type: "GeminiFunctionDeclaration" }, declarations, "Function declarations in Gemini's JSON Schema subset."),
    `/** Gemini: \`functionDeclarations\` for a tool, and \`run\` for one \`functionCall\`. */
export const gemini = {
  functionDeclarations: geminiDeclarations,
  /** Runs a \`functionCall\` through the executor; the response holds \`output\`, or \`error\` with the envelope. Never throws. */
  run(call: GeminiFunctionCall, handlers: Handlers, options?: ExecuteOptions): Promise<GeminiFunctionResponse> {
    return runGeminiFunctionCall(geminiContracts, call, handlers, options);
  },
};`,
  ];
}

function aiSdkSection(entries: readonly ProviderEntry[]): string[] {
  const settings = Object.fromEntries(
    entries.map((e) => {
      const { strict, inputExamples } = aiSdkEntry(e);
      return [e.tool.name, { strict, ...(inputExamples.length > 0 ? { inputExamples } : {}) }];
    }),
  );
  return [
    contractMap("aiSdkContracts", entries, "Every tool: the AI SDK passes names on to whichever provider it calls."),
    data("aiSdkSettings", "{ readonly [tool: string]: AiSdkToolSettings }", settings, "Per tool: strict where the served schema is already OpenAI's and Anthropic's strict form, and the contract's valid examples."),
    `/** Vercel AI SDK: a \`ToolSet\` of the tools that have a handler; each \`execute\` goes through the executor. */
export const aiSdk = {
  tools(handlers: Handlers, options?: ExecuteOptions): Record<string, AiSdkTool> {
    return aiSdkToolSet(aiSdkContracts, aiSdkSettings, handlers, options);
  },
};`,
  ];
}

function imports(ir: ContractIR): string[] {
  const contracts = ir.tools.map(contractConstName).sort();
  return [
    `import { ${contracts.join(", ")} } from "./contracts.js";`,
    `import type { Handlers } from "./index.js";`,
    `import { ${RUNTIME_VALUES.join(", ")} } from "./runtime/providers.js";`,
    `import type { ${RUNTIME_TYPES.join(", ")} } from "./runtime/providers.js";`,
    `import type { ExecuteOptions } from "./runtime/types.js";`,
    "",
    `export type { Handlers } from "./index.js";`,
    `export type { ${RUNTIME_TYPES.filter((t) => t !== "NullPlanSet" && t !== "AiSdkToolSettings").join(", ")} } from "./runtime/providers.js";`,
  ];
}

export function emitProvidersModule(ir: ContractIR): EmittedFile {
  const { entries, anthropicOverBudget } = providerCatalog(ir.tools);
  const sections = [...openaiSection(entries), ...anthropicSection(entries, anthropicOverBudget), ...geminiSection(entries), ...aiSdkSection(entries)];
  const text = [headerComment("the definitions folder"), "", ...imports(ir), "", sections.join("\n\n"), ""].join("\n");
  // Written already formatted, as contracts.ts is: prettier over every tool's schemas four times over would dominate a large generate.
  return { path: "providers.ts", text, format: false };
}
