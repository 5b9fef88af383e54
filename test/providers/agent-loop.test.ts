/**
 * The agent loop of docs/providers.md, per provider, against a scripted fake
 * model that speaks that provider's message shapes: it sends a bad call,
 * reads the INVALID_INPUT result it gets back, corrects itself, and answers
 * from the tool's output. Everything between the model and the handler is
 * the generated code and the real executor.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, FunctionCall, FunctionDeclaration } from "@google/genai";
import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { beforeEach, describe, expect, it } from "vitest";
import type { Handlers } from "../../generated/index.js";
import { anthropic, gemini, openai } from "../../generated/providers.js";

let calls: unknown[] = [];
const handlers: Handlers = {
  get_order: (input) => {
    calls.push(input);
    return { found: true, customerId: input.customerId, orders: [{ id: "ord_1", status: "paid" }] };
  },
};
beforeEach(() => {
  calls = [];
});

/** The script every fake model follows: a broken call, then a corrected one after an INVALID_INPUT, then an answer. */
function nextMove(lastToolResult: string | undefined): "broken" | "corrected" | { answer: string } {
  if (lastToolResult === undefined) return "broken";
  const result = JSON.parse(lastToolResult) as { code?: string; orders?: unknown[] };
  if (result.code === "INVALID_INPUT") return "corrected";
  return { answer: `${result.orders?.length ?? 0} order(s)` };
}

function fakeOpenAI(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[]): ChatCompletionMessage {
  expect(tools.find((t) => t.type === "function" && t.function.name === "get_order")).toMatchObject({ function: { strict: true } });
  const last = messages.at(-1);
  const move = nextMove(last?.role === "tool" ? String(last.content) : undefined);
  const base = { role: "assistant" as const, refusal: null };
  if (typeof move === "object") return { ...base, content: move.answer };
  // A strict model fills every field; a broken one sends truncated JSON.
  const args = move === "broken" ? '{"customerId":"cus_1",' : '{"customerId":"cus_1","includeHistory":null}';
  return { ...base, content: null, tool_calls: [{ id: `call_${messages.length}`, type: "function", function: { name: "get_order", arguments: args } }] };
}

function fakeClaude(messages: Anthropic.MessageParam[], tools: Anthropic.Tool[]): Anthropic.ContentBlock[] {
  expect(tools.map((t) => t.name)).toContain("get_order");
  const last = messages.at(-1);
  const result = Array.isArray(last?.content) ? last.content.find((b) => b.type === "tool_result") : undefined;
  const move = nextMove(result?.type === "tool_result" ? String(result.content) : undefined);
  if (typeof move === "object") return [{ type: "text", text: move.answer, citations: null }];
  const input = move === "broken" ? { customerId: 42 } : { customerId: "cus_1" };
  return [{ type: "tool_use", id: `toolu_${messages.length}`, name: "get_order", input, caller: { type: "direct" } }];
}

function fakeGemini(contents: Content[], declarations: FunctionDeclaration[]): Content {
  expect(declarations.map((d) => d.name)).toContain("get_order");
  const response = contents.at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse?.response;
  const move = nextMove(response === undefined ? undefined : JSON.stringify(response["error"] ?? response["output"]));
  if (typeof move === "object") return { role: "model", parts: [{ text: move.answer }] };
  const functionCall: FunctionCall = { id: `fc_${contents.length}`, name: "get_order", args: move === "broken" ? { customerId: "cus_1", includeDeleted: true } : { customerId: "cus_1" } };
  return { role: "model", parts: [{ functionCall }] };
}

describe("agent loop with a scripted model", () => {
  it("OpenAI Chat Completions", async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "How many orders does cus_1 have?" }];
    for (let turn = 0; turn < 5; turn++) {
      const message = fakeOpenAI(messages, openai.tools);
      messages.push(message);
      if (!message.tool_calls?.length) break;
      for (const call of message.tool_calls) messages.push(await openai.run(call, handlers));
    }
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "1 order(s)" });
    expect(messages.filter((m) => m.role === "tool").map((m) => JSON.parse(String(m.content)).code)).toEqual(["INVALID_INPUT", undefined]);
    expect(calls).toEqual([{ customerId: "cus_1", includeHistory: false }]);
  });

  it("Anthropic Messages", async () => {
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "How many orders does cus_1 have?" }];
    for (let turn = 0; turn < 5; turn++) {
      const content = fakeClaude(messages, anthropic.tools);
      messages.push({ role: "assistant", content });
      const uses = content.filter((b) => b.type === "tool_use");
      if (uses.length === 0) break;
      messages.push({ role: "user", content: await Promise.all(uses.map((b) => anthropic.run(b, handlers))) });
    }
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "1 order(s)" }] });
    const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
    expect(results.map((r) => r.is_error)).toEqual([true, undefined]);
    expect(calls).toEqual([{ customerId: "cus_1", includeHistory: false }]);
  });

  it("Gemini", async () => {
    const contents: Content[] = [{ role: "user", parts: [{ text: "How many orders does cus_1 have?" }] }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = fakeGemini(contents, gemini.functionDeclarations);
      contents.push(reply);
      const functionCalls = (reply.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
      if (functionCalls.length === 0) break;
      const responses = await Promise.all(functionCalls.map((c) => gemini.run(c, handlers)));
      contents.push({ role: "user", parts: responses.map((functionResponse) => ({ functionResponse })) });
    }
    expect(contents.at(-1)).toEqual({ role: "model", parts: [{ text: "1 order(s)" }] });
    expect(calls).toEqual([{ customerId: "cus_1", includeHistory: false }]);
  });
});
