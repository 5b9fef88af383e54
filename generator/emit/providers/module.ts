/**
 * `providers.ts`: the contracts as OpenAI, Anthropic, Gemini and Vercel AI
 * SDK tools, and a `run` per provider bound to the runtime's dispatch. Only
 * callers who use it import it; `index.ts` does not.
 *
 * No provider schema is written out: each tool's refers to its contract's
 * served `inputSchema`, as it is where the provider's form is the served
 * schema (key order included), else through the runtime function that
 * derives the provider's form from it at load (runtime/provider-dialects.ts:
 * OpenAI's and Anthropic's strict rewrites, Gemini's subset, the served
 * schema without `x-` annotations). The compiler computes each form with the
 * same functions (generator/providers/), to decide strictness and write its
 * warnings, and chooses which one a tool's export calls; the values are the
 * same at run time (test/providers/module-values.test.ts).
 */
import type { ContractIR, EmittedFile, JsonObject, JsonValue, ToolIR } from "../../ir.js";
import { CONTRACTS_PART_BYTES, contractConstName, packed } from "../contracts-module.js";
import { code, FileBuilder, joinCode, typeSymbol, valueSymbol, type Code, type ImportSymbol } from "../../printer/file-builder.js";
import { runtimeSpecifier, runtimeValue, type RuntimeExport } from "../runtime-symbols.js";
import { headerComment } from "../../printer/header.js";
import { jsDoc, literal, LiteralReference, propertyKey } from "../../printer/literal.js";
import { aiSdkEntry, objectExamples, providerCatalog, type ProviderEntry } from "../../providers/catalog.js";

const PROVIDERS_RUNTIME = runtimeSpecifier("providers");
const runtime = (name: RuntimeExport<"providers">): ImportSymbol => runtimeValue("providers", name);
const runtimeType = (name: string, up: Up = "./"): ImportSymbol => typeSymbol(name, runtimeSpecifier("providers", up));
const HANDLERS = typeSymbol("Handlers", "./index.js");
const EXECUTE_OPTIONS = typeSymbol("ExecuteOptions", "./runtime/types.js");

/** The runtime's provider types a caller of providers.ts may name, re-exported from it. */
const REEXPORTED_TYPES = [
  "AiSdkTool",
  "AnthropicTool",
  "AnthropicToolResultBlock",
  "AnthropicToolSearchTool",
  "AnthropicToolUseBlock",
  "GeminiFunctionCall",
  "GeminiFunctionDeclaration",
  "GeminiFunctionResponse",
  "OpenAIChatTool",
  "OpenAIAgentsFunctionTool",
  "OpenAIChatToolCall",
  "OpenAIResponsesFunctionCall",
  "OpenAIResponsesTool",
  "OpenAIResponsesToolSearch",
  "OpenAIRunResult",
];

/** Every name providers.ts declares: an import never takes one of them. */
const DECLARED = [
  "toolContracts",
  "openaiContracts",
  "openaiChatTools",
  "openaiNulls",
  "openaiDeferred",
  "openaiResponsesTools",
  "openai",
  "anthropicContracts",
  "anthropicTools",
  "anthropicToolSearch",
  "anthropic",
  "geminiContracts",
  "geminiDeclarations",
  "gemini",
  "aiSdkContracts",
  "aiSdkSettings",
  "aiSdk",
];

/** The runtime function (runtime/provider-dialects.ts) that derives a provider's form of a served schema. */
type Form = "openaiStrictParameters" | "anthropicStrictSchema" | "geminiParameters" | "unannotatedSchema";

/**
 * A provider's form of a tool's input schema, `schema` as the compiler
 * computed it with `form`: a reference to the served schema when it is that
 * schema (JSON-equal with the same key order, so the two serialize to the
 * same bytes), else a call of `form` on it.
 */
type Schemas = (tool: ToolIR, schema: JsonObject, form: Form) => LiteralReference;

/** Where the output folder's root is, seen from the file being printed: `./` from providers.ts, `../` from a part. */
type Up = "./" | "../";

/** The parts' folder beside `providers.ts`. */
const PARTS_FOLDER = "providers";

function schemasIn(file: FileBuilder, up: Up = "./"): Schemas {
  const served = new Map<ToolIR, string>();
  return (tool, schema, form) => {
    let text = served.get(tool);
    if (text === undefined) served.set(tool, (text = JSON.stringify(tool.inputSchema)));
    const input = `${contractIn(file, tool, up)}.inputSchema`;
    return new LiteralReference(JSON.stringify(schema) === text ? input : `${file.use(runtimeValue("providers", form, up))}(${input})`);
  };
}

/** The tool's contract constant, imported into `file`. */
function contractIn(file: FileBuilder, tool: ToolIR, up: Up): string {
  return file.use(valueSymbol(contractConstName(tool), `${up}contracts.js`));
}

function doc(text: string): string {
  return jsDoc([text])!;
}

/** The map of every tool's contract by name, written once: a provider that accepts every tool's name uses it as its own. */
const TOOL_CONTRACTS = "toolContracts";

function contractMap(name: string, entries: readonly ProviderEntry[], text: string): Code {
  const lines = entries.map((e) => code`  ${propertyKey(e.tool.name)}: ${valueSymbol(contractConstName(e.tool), "./contracts.js")},`);
  return code`${doc(text)}\nconst ${name} = {\n${joinCode(lines)}\n} as const;`;
}

/** A provider's contract map: `toolContracts` when it lists every tool (the common case), else a map of its own. */
function providerContracts(name: string, listed: readonly ProviderEntry[], entries: readonly ProviderEntry[], text: string): Code {
  return listed.length === entries.length ? code`${doc(text)}\nconst ${name} = ${TOOL_CONTRACTS};` : contractMap(name, listed, text);
}

function data(name: string, type: Code, value: JsonValue, text: string): Code {
  return code`${doc(text)}\nconst ${name}: ${type} = ${literal(value)};`;
}

/**
 * What a provider's form of one tool adds to its contract's name and
 * description, as data; `schemas` writes a schema that is the served one as
 * a reference to it.
 */
type ToolValue = (entry: ProviderEntry, schemas: Schemas) => unknown;

/**
 * The element type of a provider's tool list and the runtime function
 * (runtime/provider-entries.ts) that builds one element from its contract
 * and a tool's ToolValue.
 */
interface ListElement {
  readonly name: RuntimeExport<"providers">;
  readonly type: string;
}

/** One element of a list: its contract, and what the provider's form adds. */
interface ListItem {
  readonly tool: ToolIR;
  readonly value: unknown;
}

/**
 * Writes a provider's tool list `name` for `entries`: in providers.ts
 * (wholeLists), or cut into parts under `providers/` past the size budget
 * (splitLists, see emitProvidersFiles).
 */
type ToolList = (name: string, element: ListElement, entries: readonly ProviderEntry[], value: ToolValue, text: string) => Code;

/**
 * A provider's tool list, each tool built by the runtime's function for one
 * element from its contract (name, description) and what the provider's form
 * adds: a call's type is its return type, so the array is not a union of a
 * thousand object literals (TS2590), and each literal is still checked,
 * excess properties included (runtime/provider-entries.ts).
 */
function toolArray(file: FileBuilder, name: string, element: ListElement, items: readonly ListItem[], text: string, up: Up = "./", exported = false): Code {
  const type = file.use(runtimeType(element.type, up));
  const declared = `${exported ? "export " : ""}const ${name}: ${type}[]`;
  if (items.length === 0) return code`${doc(text)}\n${declared} = [];`;
  const build = file.use(runtimeValue("providers", element.name, up));
  const calls = items.map(({ tool, value }) => `  ${build}(${contractIn(file, tool, up)}, ${literal(value, 1)}),`);
  return code`${doc(text)}
${declared} = [\n${calls.join("\n")}\n];`;
}

function wholeLists(file: FileBuilder): ToolList {
  const schemas = schemasIn(file);
  return (name, element, entries, value, text) =>
    toolArray(
      file,
      name,
      element,
      entries.map((e) => ({ tool: e.tool, value: value(e, schemas) })),
      text,
    );
}

const isDeferred = (entry: ProviderEntry): boolean => entry.tool.loading === "deferred";

/**
 * The Responses API's tool list for a request: the hosted `tool_search` tool
 * first when some tool is deferred (the API refuses deferred tools without
 * it), then every function tool. Chat Completions has no tool search, so its
 * `tools` carry every tool in full.
 */
function openaiRequestTools(anyDeferred: boolean): Code {
  if (!anyDeferred) return code`openaiResponsesTools`;
  return code`[{ type: "tool_search" } satisfies ${runtimeType("OpenAIResponsesToolSearch")}, ...openaiResponsesTools]`;
}

function openaiSection(entries: readonly ProviderEntry[], toolList: ToolList): Code[] {
  const listed = entries.filter((e) => e.openai !== undefined);
  const deferred = listed.filter(isDeferred).map((e) => e.tool.name);
  const tool: ToolValue = (e, schemas) => ({
    parameters: schemas(e.tool, e.openai?.parameters ?? {}, e.openai?.strict === true ? "openaiStrictParameters" : "unannotatedSchema"),
    strict: e.openai?.strict ?? false,
  });
  const nulls = Object.fromEntries(listed.flatMap((e) => (e.openai?.nulls === undefined ? [] : [[e.tool.name, e.openai.nulls as unknown as JsonValue]])));
  return [
    providerContracts("openaiContracts", listed, entries, "The tools OpenAI may call: every tool whose name OpenAI accepts."),
    toolList(
      "openaiChatTools",
      { name: "openaiChatTool", type: "OpenAIChatTool" },
      listed,
      tool,
      "Chat Completions tools: strict where the contract fits OpenAI's strict mode.",
    ),
    data(
      "openaiNulls",
      code`{ readonly [tool: string]: ${runtimeType("NullPlanSet")} }`,
      nulls,
      "Per strict tool: the optional properties sent as null, which `run` removes so defaults apply.",
    ),
    data(
      "openaiDeferred",
      code`readonly string[]`,
      deferred,
      "The tools found by tool search (`loading: deferred`) rather than sent in full with every Responses request.",
    ),
    code`${doc("Responses API function tools, the deferred ones with `defer_loading: true`.")}
const openaiResponsesTools: ${runtimeType("OpenAIResponsesTool")}[] = ${runtime("openAIResponsesTools")}(openaiChatTools, openaiDeferred);`,
    code`/**
 * OpenAI: \`tools\` for Chat Completions, \`responsesTools\` for the Responses API (\`requestTools\` with the
 * \`tool_search\` tool when some tool is deferred), \`agentsTools\` for the Agents SDK, and \`run\` for one tool call.
 */
export const openai = {
  tools: openaiChatTools,
  responsesTools: openaiResponsesTools,
  /** The Responses API request's \`tools\`: \`{ type: "tool_search" }\` first when some tool is deferred, then \`responsesTools\`. */
  requestTools: ${openaiRequestTools(deferred.length > 0)} as (${runtimeType("OpenAIResponsesTool")} | ${runtimeType("OpenAIResponsesToolSearch")})[],
  /** Agents SDK function tools (deferred ones with \`deferLoading\`; add the SDK's \`toolSearchTool()\` beside them); each call goes through the executor. */
  agentsTools(handlers: ${HANDLERS}, options?: ${EXECUTE_OPTIONS}): ${runtimeType("OpenAIAgentsFunctionTool")}[] {
    return ${runtime("openAIAgentsTools")}(openaiContracts, openaiNulls, openaiResponsesTools, handlers, options);
  },
  /** Runs \`tool_calls[i]\` (or a Responses \`function_call\`) through the executor; never throws. */
  run<C extends ${runtimeType("OpenAIChatToolCall")} | ${runtimeType("OpenAIResponsesFunctionCall")}>(call: C, handlers: ${HANDLERS}, options?: ${EXECUTE_OPTIONS}): Promise<${runtimeType("OpenAIRunResult")}<C>> {
    return ${runtime("runOpenAIToolCall")}(openaiContracts, openaiNulls, call, handlers, options);
  },
};`,
  ];
}

function anthropicSection(entries: readonly ProviderEntry[], overBudget: readonly string[], toolList: ToolList): Code[] {
  const listed = entries.filter((e) => e.anthropic !== undefined);
  const tool: ToolValue = (e, schemas) => {
    const examples = !e.anthropic?.examplesFit ? [] : objectExamples(e.tool);
    return {
      input_schema: schemas(
        e.tool,
        e.anthropic?.inputSchema ?? { type: "object" },
        e.anthropic?.strict === true ? "anthropicStrictSchema" : "unannotatedSchema",
      ),
      ...(e.anthropic?.strict === true ? { strict: true } : {}),
      ...(examples.length > 0 ? { input_examples: examples } : {}),
      ...(isDeferred(e) ? { defer_loading: true } : {}),
    };
  };
  const anyDeferred = listed.some(isDeferred);
  const budgetNote =
    overBudget.length === 0
      ? ""
      : ` Not strict because a request holds at most 20 strict tools, 24 optional and 16 union-typed parameters: ${overBudget.join(", ")}.`;
  return [
    providerContracts("anthropicContracts", listed, entries, "The tools Anthropic may call: every tool whose name Anthropic accepts."),
    toolList(
      "anthropicTools",
      { name: "anthropicTool", type: "AnthropicTool" },
      listed,
      tool,
      `Messages API tools, strict where the contract fits Anthropic's strict subset.${budgetNote}`,
    ),
    code`${doc("Anthropic's server-side tool search (regex over tool names and descriptions), which loads the tools with `defer_loading`.")}
const anthropicToolSearch: ${runtimeType("AnthropicToolSearchTool")} = { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };`,
    code`/** Anthropic: \`tools\` for the Messages API (\`requestTools\` with the tool search tool when some tool is deferred) and \`run\` for one \`tool_use\` block. */
export const anthropic = {
  tools: anthropicTools,
  /** The Messages request's \`tools\`: the tool search tool first when some tool has \`defer_loading\`, then \`tools\`. */
  requestTools: ${anyDeferred ? "[anthropicToolSearch, ...anthropicTools]" : "anthropicTools"} as (${runtimeType("AnthropicTool")} | ${runtimeType("AnthropicToolSearchTool")})[],
  toolSearch: anthropicToolSearch,
  /** Runs a \`tool_use\` block through the executor; the \`tool_result\` has \`is_error: true\` on failure. Never throws. */
  run(block: ${runtimeType("AnthropicToolUseBlock")}, handlers: ${HANDLERS}, options?: ${EXECUTE_OPTIONS}): Promise<${runtimeType("AnthropicToolResultBlock")}> {
    return ${runtime("runAnthropicToolUse")}(anthropicContracts, block, handlers, options);
  },
};`,
  ];
}

function geminiSection(entries: readonly ProviderEntry[], toolList: ToolList): Code[] {
  const listed = entries.filter((e) => e.gemini !== undefined);
  const declaration: ToolValue = (e, schemas) => ({
    parametersJsonSchema: schemas(e.tool, e.gemini ?? {}, "geminiParameters"),
  });
  return [
    providerContracts("geminiContracts", listed, entries, "The tools Gemini may call: every tool whose name Gemini accepts."),
    toolList(
      "geminiDeclarations",
      { name: "geminiDeclaration", type: "GeminiFunctionDeclaration" },
      listed,
      declaration,
      "Function declarations in Gemini's JSON Schema subset.",
    ),
    code`/** Gemini: \`functionDeclarations\` for a tool, and \`run\` for one \`functionCall\`. */
export const gemini = {
  functionDeclarations: geminiDeclarations,
  /** Runs a \`functionCall\` through the executor; the response holds \`output\`, or \`error\` with the envelope. Never throws. */
  run(call: ${runtimeType("GeminiFunctionCall")}, handlers: ${HANDLERS}, options?: ${EXECUTE_OPTIONS}): Promise<${runtimeType("GeminiFunctionResponse")}> {
    return ${runtime("runGeminiFunctionCall")}(geminiContracts, call, handlers, options);
  },
};`,
  ];
}

function aiSdkSection(entries: readonly ProviderEntry[]): Code[] {
  const settings = Object.fromEntries(
    entries.map((e) => {
      const { strict, inputExamples } = aiSdkEntry(e);
      return [e.tool.name, { strict, ...(isDeferred(e) ? { deferLoading: true } : {}), ...(inputExamples.length > 0 ? { inputExamples } : {}) }];
    }),
  );
  return [
    providerContracts("aiSdkContracts", entries, entries, "Every tool: the AI SDK passes names on to whichever provider it calls."),
    data(
      "aiSdkSettings",
      code`{ readonly [tool: string]: ${runtimeType("AiSdkToolSettings")} }`,
      settings,
      "Per tool: strict where the served schema is already OpenAI's and Anthropic's strict form, and the contract's valid examples.",
    ),
    code`/** Vercel AI SDK: a \`ToolSet\` of the tools that have a handler (deferred ones with \`deferLoading\`: add the SDK's \`toolSearch()\` beside them); each \`execute\` goes through the executor. */
export const aiSdk = {
  tools(handlers: ${HANDLERS}, options?: ${EXECUTE_OPTIONS}): Record<string, ${runtimeType("AiSdkTool")}> {
    return ${runtime("aiSdkToolSet")}(aiSdkContracts, aiSdkSettings, handlers, options);
  },
};`,
  ];
}

/** providers.ts with its tool lists written by `lists` (in the file, or in parts). */
function providersModule(ir: ContractIR, lists: (file: FileBuilder) => ToolList): EmittedFile {
  const { entries, anthropicOverBudget } = providerCatalog(ir.tools);
  // Written already formatted, as contracts.ts is: prettier over every tool's schemas four times over would dominate a large generate.
  const file = new FileBuilder("providers.ts", headerComment("the definitions folder"), { typeImports: "split", wrap: false });
  file.reserve(...DECLARED);
  const reexports = [
    file.print({ kind: "exportFrom", typeOnly: true, names: ["Handlers"], from: "./index.js" }),
    file.print({ kind: "exportFrom", typeOnly: true, names: REEXPORTED_TYPES, from: PROVIDERS_RUNTIME }),
  ];
  file.add(reexports.join("\n"));
  const toolList = lists(file);
  file.add(
    contractMap(TOOL_CONTRACTS, entries, "Every tool's contract, by name."),
    ...openaiSection(entries, toolList),
    ...anthropicSection(entries, anthropicOverBudget, toolList),
    ...geminiSection(entries, toolList),
    ...aiSdkSection(entries),
  );
  return { path: file.path, text: file.toText() };
}

export function emitProvidersModule(ir: ContractIR): EmittedFile {
  return providersModule(ir, wholeLists);
}

/** The largest `providers.ts` written as one file, in bytes (UTF-16 units, as printed), as for contracts.ts; past it, the tool lists go into parts. */
export const PROVIDERS_PART_BYTES = CONTRACTS_PART_BYTES;

/**
 * `providers.ts`, and past `budget` bytes its tool lists in parts:
 * `providers/<provider>-<n>.ts` each export a run of a list's tools, under
 * the budget, which providers.ts joins into the same list. Its exports and
 * their values are the same either way (test/providers/parts.test.ts); a
 * reviewer's tool will not open a 6 MB file (GitHub's 1,223 tools, #42).
 */
export function emitProvidersFiles(ir: ContractIR, budget = PROVIDERS_PART_BYTES): EmittedFile[] {
  const whole = emitProvidersModule(ir);
  if (whole.text.length <= budget) return [whole];
  const parts: EmittedFile[] = [];
  const lists = (file: FileBuilder): ToolList => {
    // Sized with a file of its own: a reference written into providers.ts would import what it no longer uses.
    const sizing = schemasIn(new FileBuilder(`${PARTS_FOLDER}/sizing.ts`, "", { typeImports: "split", wrap: false }), "../");
    return (name, element, entries, value, text) => {
      // Its data, the call of the element function around it, and the import of its contract (about 100 bytes); a part's head is under 2 KB.
      const sized = entries.map((entry) => ({
        entry,
        bytes: literal(value(entry, sizing), 1).length + element.name.length + 2 * contractConstName(entry.tool).length + 100,
      }));
      const stem = name.replace(/[A-Z].*$/, "");
      const names = packed(sized, (t) => t.bytes, budget - 2_000).map((run, i) => {
        const exportName = `${name}${i + 1}`;
        const part = new FileBuilder(`${PARTS_FOLDER}/${stem}-${i + 1}.ts`, headerComment("the definitions folder"), { typeImports: "split", wrap: false });
        part.reserve(exportName);
        const schemas = schemasIn(part, "../");
        const items = run.map(({ entry }) => ({ tool: entry.tool, value: value(entry, schemas) }));
        part.add(toolArray(part, exportName, element, items, `Part ${i + 1} of \`${name}\` in providers.ts.`, "../", true));
        parts.push({ path: part.path, text: part.toText() });
        return file.importValue(exportName, `./${PARTS_FOLDER}/${stem}-${i + 1}.js`);
      });
      const type = file.use(runtimeType(element.type));
      return code`${doc(text)}\nconst ${name}: ${type}[] = [${names.map((n) => `...${n}`).join(", ")}];`;
    };
  };
  return [providersModule(ir, lists), ...parts];
}
