// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Model-API dispatch: a tool call as OpenAI, Anthropic, Gemini or the Vercel
 * AI SDK delivers it goes through the same executor as an MCP call (same
 * validation, policy, retries and redaction), and comes back as that
 * provider's tool-result message. A failure is the envelope, as JSON, so the
 * model can correct itself. Nothing here throws on what a model sends.
 *
 * The shapes below are structural copies of the providers' documented wire
 * types, so generated code needs none of their SDKs; a test assigns them to
 * the SDK types with tsc.
 */
import type { ContractMap, JsonSchemaObject } from "./contract.js";
import { executeByName } from "./dispatch.js";
import {
  SDK_APPROVED,
  sdkApproved,
  type AiSdkExecuteOptions,
} from "./ai-sdk-approval.js";
import type { NullPlanSet } from "./provider-nulls.js";
import { resultText, runParsed, text } from "./provider-calls.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

export type { NullPlan, NullPlanSet } from "./provider-nulls.js";
export type { AiSdkExecuteOptions };

/** OpenAI Chat Completions: an element of `tools`. */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: JsonSchemaObject;
    strict: boolean;
  };
}

/** OpenAI Responses API: a `FunctionTool`; `defer_loading` leaves it out of the model's context until tool search loads it. */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description?: string;
  parameters: JsonSchemaObject;
  strict: boolean;
  defer_loading?: boolean;
}

/** OpenAI Responses API: the hosted `tool_search` tool, which loads deferred function tools on demand. */
export interface OpenAIResponsesToolSearch {
  type: "tool_search";
}

/** `message.tool_calls[i]` from Chat Completions; a custom (non-function) call has no `function`. */
export interface OpenAIChatToolCall {
  readonly id: string;
  readonly type: string;
  readonly function?: { readonly name: string; readonly arguments: string };
}

/** A `function_call` output item from the Responses API. */
export interface OpenAIResponsesFunctionCall {
  readonly type: "function_call";
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The Chat Completions message that answers a tool call. */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** The Responses API input item that answers a function call. */
export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

export type OpenAIRunResult<C> = C extends OpenAIResponsesFunctionCall
  ? OpenAIFunctionCallOutput
  : OpenAIToolMessage;

/** Anthropic Messages API: a custom tool; `defer_loading` leaves it out of the model's context until tool search returns a reference to it. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
  input_examples?: { [key: string]: unknown }[];
  defer_loading?: boolean;
}

/** Anthropic Messages API: the server-side tool search tool (regex variant), which finds deferred tools by name and description. */
export interface AnthropicToolSearchTool {
  type: "tool_search_tool_regex_20251119";
  name: "tool_search_tool_regex";
}

/** A `tool_use` content block. */
export interface AnthropicToolUseBlock {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A `tool_result` content block, for the next user message. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Gemini: a `FunctionDeclaration` with its parameters as JSON Schema. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: JsonSchemaObject;
}

/** Gemini: a `FunctionCall` part of the model's response. */
export interface GeminiFunctionCall {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly args?: { readonly [key: string]: unknown } | undefined;
}

/** Gemini: the `FunctionResponse` that answers a call; `output` on success, `error` on failure, as Gemini's docs ask. */
export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: { [key: string]: unknown };
}

const isResponsesCall = (
  call: OpenAIChatToolCall | OpenAIResponsesFunctionCall,
): call is OpenAIResponsesFunctionCall =>
  call.type === "function_call" && "call_id" in call;

/**
 * Runs one OpenAI tool call: a Chat Completions `tool_calls[i]` answers with
 * a `role: "tool"` message, a Responses `function_call` with a
 * `function_call_output`. Arguments that are not JSON are INVALID_INPUT.
 */
export async function runOpenAIToolCall<
  M extends ContractMap,
  C extends OpenAIChatToolCall | OpenAIResponsesFunctionCall,
>(
  contracts: M,
  nullPlans: { readonly [tool: string]: NullPlanSet },
  call: C,
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Promise<OpenAIRunResult<C>> {
  const all = handlers as HandlersFor<ContractMap>;
  if (isResponsesCall(call)) {
    const result = await runParsed(
      contracts,
      nullPlans,
      text(call.name),
      call.arguments,
      all,
      options,
    );
    const output: OpenAIFunctionCallOutput = {
      type: "function_call_output",
      call_id: text(call.call_id),
      output: resultText(result),
    };
    return output as OpenAIRunResult<C>;
  }
  const fn = call.function;
  const result =
    fn === undefined
      ? await executeByName(
          contracts,
          `${text(call.type)} tool call`,
          undefined,
          all,
          options,
        )
      : await runParsed(
          contracts,
          nullPlans,
          text(fn.name),
          fn.arguments,
          all,
          options,
        );
  const message: OpenAIToolMessage = {
    role: "tool",
    tool_call_id: text(call.id),
    content: resultText(result),
  };
  return message as OpenAIRunResult<C>;
}

/**
 * The Chat Completions tools in the Responses API's flat `FunctionTool`
 * shape, the `deferred` ones with `defer_loading: true` (Chat Completions
 * has no tool search, so only this shape carries it).
 */
export function openAIResponsesTools(
  tools: readonly OpenAIChatTool[],
  deferred: readonly string[] = [],
): OpenAIResponsesTool[] {
  return tools.map(({ function: fn }) => {
    const tool: OpenAIResponsesTool = {
      type: "function",
      name: fn.name,
      parameters: fn.parameters,
      strict: fn.strict,
    };
    if (fn.description !== undefined) tool.description = fn.description;
    if (deferred.includes(fn.name)) tool.defer_loading = true;
    return tool;
  });
}

/** Runs one Anthropic `tool_use` block; the `tool_result` block has `is_error: true` on failure. */
export async function runAnthropicToolUse<M extends ContractMap>(
  contracts: M,
  block: AnthropicToolUseBlock,
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Promise<AnthropicToolResultBlock> {
  const result = await executeByName(
    contracts,
    text(block.name),
    block.input,
    handlers as HandlersFor<ContractMap>,
    options,
  );
  const reply: AnthropicToolResultBlock = {
    type: "tool_result",
    tool_use_id: text(block.id),
    content: resultText(result),
  };
  if (!result.ok) reply.is_error = true;
  return reply;
}

/** Runs one Gemini `functionCall`; the response holds `output` on success and `error` (the envelope) on failure. */
export async function runGeminiFunctionCall<M extends ContractMap>(
  contracts: M,
  call: GeminiFunctionCall,
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Promise<GeminiFunctionResponse> {
  const name = text(call.name);
  // Gemini leaves `args` out for a call without arguments.
  const args = call.args === undefined ? {} : call.args;
  const result = await executeByName(
    contracts,
    name,
    args,
    handlers as HandlersFor<ContractMap>,
    options,
  );
  const response: GeminiFunctionResponse = {
    name,
    response: result.ok ? { output: result.data } : { error: result },
  };
  if (typeof call.id === "string") response.id = call.id;
  return response;
}

/**
 * A schema in the Standard Schema shape (standardschema.dev, v1, with the
 * Standard JSON Schema converter), which the AI SDK accepts as a tool's
 * `inputSchema`. `validate` accepts every value on purpose: the executor
 * validates, so an invalid call reaches the model as an INVALID_INPUT result
 * it can correct, not as an SDK error.
 */
export interface StandardJsonSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: unknown };
    readonly jsonSchema: {
      readonly input: (options: {
        readonly target: string;
      }) => Record<string, unknown>;
      readonly output: (options: {
        readonly target: string;
      }) => Record<string, unknown>;
    };
  };
}

/** One AI SDK tool: its description, input schema, strict flag and examples, and an `execute` that goes through the executor. */
export interface AiSdkTool {
  description?: string;
  inputSchema: StandardJsonSchema;
  strict: boolean;
  inputExamples?: { input: { [key: string]: unknown } }[];
  /** For a confirmed tool (`confirm: true`): the SDK asks the user to approve each call before it runs `execute`. */
  needsApproval?: boolean;
  /** For a deferred tool (`loading: deferred`): left out of the model's tools until the SDK's `toolSearch()` finds it. */
  deferLoading?: boolean;
  execute: (input: unknown, options: AiSdkExecuteOptions) => Promise<unknown>;
}

/**
 * What the compiler decided for one AI SDK tool: `strict` when the served
 * schema, which the SDK sends as it is to whichever provider it calls, is
 * already in both OpenAI's and Anthropic's strict subsets; the contract's
 * valid examples as `inputExamples`.
 */
export interface AiSdkToolSettings {
  readonly strict: boolean;
  readonly deferLoading?: true;
  readonly inputExamples?: readonly {
    readonly input: { readonly [key: string]: unknown };
  }[];
}

function standardJsonSchema(schema: JsonSchemaObject): StandardJsonSchema {
  const toJson = (): Record<string, unknown> => structuredClone(schema);
  return {
    "~standard": {
      version: 1,
      vendor: "toolc",
      validate: (value) => ({ value }),
      jsonSchema: { input: toJson, output: toJson },
    },
  };
}

/**
 * A Vercel AI SDK `ToolSet` for every tool that has a handler: `execute`
 * returns the output on success and the failure envelope otherwise, and the
 * SDK's abort signal cancels the call. A confirmed tool has `needsApproval`,
 * and its handler runs only for a call the user approved through the SDK
 * (or that `options.confirm` approves). Each call gets its own copy of the
 * examples, so nothing the caller does to one tool set reaches another.
 */
export function aiSdkToolSet<M extends ContractMap>(
  contracts: M,
  settings: { readonly [tool: string]: AiSdkToolSettings },
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Record<string, AiSdkTool> {
  const tools: Record<string, AiSdkTool> = {};
  for (const [name, contract] of Object.entries(contracts)) {
    if (!Object.hasOwn(handlers, name)) continue;
    const decided = Object.hasOwn(settings, name) ? settings[name] : undefined;
    const tool: AiSdkTool = {
      inputSchema: standardJsonSchema(contract.inputSchema),
      strict: decided?.strict === true,
      execute: async (input, callOptions) => {
        const signal = callOptions.abortSignal ?? options?.signal;
        const confirm =
          contract.confirm === true && sdkApproved(name, input, callOptions)
            ? SDK_APPROVED
            : options?.confirm;
        const guard = options?.guard;
        // One guard per conversation: the AI SDK hands every call the conversation's messages, so the first one tells conversations apart.
        if (
          guard !== undefined &&
          Array.isArray(callOptions.messages) &&
          callOptions.messages.length > 0 &&
          !guard.bind(callOptions.messages[0])
        )
          return guard.refuseShared(contract, name, options?.onTrace);
        const result = await executeByName(contracts, name, input, handlers, {
          ...options,
          ...(signal === undefined ? {} : { signal }),
          ...(confirm === undefined ? {} : { confirm }),
        });
        return result.ok ? result.data : result;
      },
    };
    if (contract.confirm === true) tool.needsApproval = true;
    if (decided?.deferLoading === true) tool.deferLoading = true;
    if (contract.description !== undefined)
      tool.description = contract.description;
    if (
      decided?.inputExamples !== undefined &&
      decided.inputExamples.length > 0
    )
      tool.inputExamples = structuredClone(decided.inputExamples) as {
        input: { [key: string]: unknown };
      }[];
    Object.defineProperty(tools, name, {
      value: tool,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return tools;
}

/**
 * A schema as Anthropic's `input_schema`: the served schema where Anthropic's
 * form is the served schema itself, or its strict or unannotated form
 * (provider-dialects.ts) derived from it at load. Every input schema toolc
 * serves has `type: "object"`, and so does each form of it.
 */
export function anthropicInputSchema(
  schema: JsonSchemaObject,
): AnthropicTool["input_schema"] {
  return schema as AnthropicTool["input_schema"];
}

export { openAIAgentsTools } from "./provider-agents.js";
export {
  anthropicTool,
  geminiDeclaration,
  openaiChatTool,
} from "./provider-entries.js";
export {
  anthropicStrictSchema,
  geminiParameters,
  openaiStrictParameters,
  unannotatedSchema,
} from "./provider-dialects.js";
export type {
  OpenAIAgentsFunctionTool,
  OpenAIAgentsParameters,
} from "./provider-agents.js";
