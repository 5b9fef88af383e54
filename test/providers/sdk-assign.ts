/**
 * Compiled by test/providers/sdk-types.test.ts with tsc, never run: every
 * provider export is assigned to the official SDK type it stands for, and
 * every `run` takes the SDK's tool-call type and returns what the SDK's next
 * request accepts. A mismatch is a type error.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { FunctionCall, FunctionDeclaration, FunctionResponse, Tool as GeminiTool } from "@google/genai";
import type { ToolSet } from "ai";
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem, Tool as ResponsesTool, ToolSearchTool } from "openai/resources/responses/responses";
import { aiSdk, anthropic, gemini, openai, type Handlers } from "../../generated/providers.js";

declare const handlers: Handlers;

export const chatTools: ChatCompletionTool[] = openai.tools;
export const responsesTools: FunctionTool[] = openai.responsesTools;
// Deferred loading: the request's tools with the hosted tool_search first, deferred tools with defer_loading.
export const responsesRequestTools: ResponsesTool[] = openai.requestTools;
export const responsesToolSearch: ToolSearchTool = { type: "tool_search" } satisfies (typeof openai.requestTools)[number];
declare const toolCall: ChatCompletionMessageToolCall;
const toolMessage: ChatCompletionToolMessageParam = await openai.run(toolCall, handlers);
export const chatHistory: ChatCompletionMessageParam[] = [toolMessage];
declare const functionCall: ResponseFunctionToolCall;
export const responsesInput: ResponseInputItem[] = [await openai.run(functionCall, handlers)];

export const claudeTools: Anthropic.Tool[] = anthropic.tools;
export const claudeToolUnion: Anthropic.ToolUnion[] = anthropic.tools;
// Deferred loading: the tool search tool first, then the tools, deferred ones with defer_loading.
export const claudeRequestTools: Anthropic.ToolUnion[] = anthropic.requestTools;
export const claudeToolSearch: Anthropic.ToolSearchToolRegex20251119 = anthropic.toolSearch;
declare const toolUse: Anthropic.ToolUseBlock;
const toolResult: Anthropic.ToolResultBlockParam = await anthropic.run(toolUse, handlers);
export const claudeTurn: Anthropic.MessageParam = { role: "user", content: [toolResult] };

export const declarations: FunctionDeclaration[] = gemini.functionDeclarations;
export const geminiTools: GeminiTool[] = [{ functionDeclarations: gemini.functionDeclarations }];
declare const call: FunctionCall;
export const functionResponse: FunctionResponse = await gemini.run(call, handlers);

export const toolSet: ToolSet = aiSdk.tools(handlers);
