/**
 * The guarded agent loops of docs/providers.md, per provider (OpenAI Chat
 * Completions and Responses, Anthropic, Gemini, the AI SDK's generateText),
 * against a scripted model that speaks that provider's shapes, and the typed
 * MCP client over the SDK's client and server. Each plays the same scripts:
 * an invalid payload resent unchanged is refused without the handler running,
 * one correction is allowed, and the loop stops with evidence; a loop is
 * stopped after INVALID_OUTPUT; a write whose effect is unknown is never
 * called twice, even by a loop that ignores `guard.stop`.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, FunctionCall } from "@google/genai";
import { createServer as createNodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generateText, stepCountIs, type StopCondition, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ChatCompletionMessage, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseFunctionToolCall, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { createHttpHandler } from "../../generated/http.js";
import { createClient, createLoopGuard, type Handlers, type LoopGuard } from "../../generated/index.js";
import { aiSdk, anthropic, gemini, openai } from "../../generated/providers.js";

/** One model turn: the tool calls it makes (none: it answers). */
type Turn = readonly { tool: string; args: Record<string, unknown> }[];

interface Played {
  /** What each tool call came back with: the output, or the envelope. */
  results: { code?: string; reason?: string; [key: string]: unknown }[];
  /** How many times the loop asked the model. */
  turns: number;
}

/** A loop as docs/providers.md writes it for one provider; `honourStop: false` is a loop that never reads guard.stop. */
type Loop = (script: readonly Turn[], handlers: Handlers, guard: LoopGuard, honourStop: boolean) => Promise<Played>;

const parse = (text: unknown): Played["results"][number] => JSON.parse(String(text)) as Played["results"][number];
const goOn = (guard: LoopGuard, honourStop: boolean): boolean => !honourStop || guard.stop === undefined;

const openaiChat: Loop = async (script, handlers, guard, honourStop) => {
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "go" }];
  const results: Played["results"] = [];
  let turns = 0;
  for (let turn = 0; turn < 10 && goOn(guard, honourStop); turn++) {
    const moves = script[turns++] ?? [];
    const reply: ChatCompletionMessage = { role: "assistant", refusal: null, content: moves.length === 0 ? "done" : null };
    if (moves.length > 0) reply.tool_calls = moves.map((m, i) => ({ id: `call_${turn}_${i}`, type: "function", function: { name: m.tool, arguments: JSON.stringify(m.args) } }));
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const message = await openai.run(call, handlers, { guard });
      results.push(parse(message.content));
      messages.push(message);
    }
  }
  return { results, turns };
};

const openaiResponses: Loop = async (script, handlers, guard, honourStop) => {
  const input: ResponseInputItem[] = [{ role: "user", content: "go" }];
  const results: Played["results"] = [];
  let turns = 0;
  for (let turn = 0; turn < 10 && goOn(guard, honourStop); turn++) {
    const moves = script[turns++] ?? [];
    const calls: ResponseFunctionToolCall[] = moves.map((m, i) => ({ type: "function_call", call_id: `fc_${turn}_${i}`, name: m.tool, arguments: JSON.stringify(m.args) }));
    input.push(...calls);
    if (calls.length === 0) break;
    for (const call of calls) {
      const item = await openai.run(call, handlers, { guard });
      results.push(parse(item.output));
      input.push(item);
    }
  }
  return { results, turns };
};

const anthropicMessages: Loop = async (script, handlers, guard, honourStop) => {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "go" }];
  const results: Played["results"] = [];
  let turns = 0;
  for (let turn = 0; turn < 10 && goOn(guard, honourStop); turn++) {
    const moves = script[turns++] ?? [];
    const content: Anthropic.ContentBlock[] =
      moves.length === 0 ? [{ type: "text", text: "done", citations: null }] : moves.map((m, i) => ({ type: "tool_use", id: `toolu_${turn}_${i}`, name: m.tool, input: m.args, caller: { type: "direct" } }));
    messages.push({ role: "assistant", content });
    const uses = content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) break;
    // One at a time, as the model sent them: a refusal decided by an earlier call in the same turn is then visible.
    const replies: Anthropic.ToolResultBlockParam[] = [];
    for (const block of uses) replies.push(await anthropic.run(block, handlers, { guard }));
    results.push(...replies.map((r) => parse(r.content)));
    messages.push({ role: "user", content: replies });
  }
  return { results, turns };
};

const geminiContents: Loop = async (script, handlers, guard, honourStop) => {
  const contents: Content[] = [{ role: "user", parts: [{ text: "go" }] }];
  const results: Played["results"] = [];
  let turns = 0;
  for (let turn = 0; turn < 10 && goOn(guard, honourStop); turn++) {
    const moves = script[turns++] ?? [];
    const functionCalls: FunctionCall[] = moves.map((m, i) => ({ id: `g_${turn}_${i}`, name: m.tool, args: m.args }));
    contents.push({ role: "model", parts: functionCalls.length === 0 ? [{ text: "done" }] : functionCalls.map((functionCall) => ({ functionCall })) });
    if (functionCalls.length === 0) break;
    const responses = [];
    for (const call of functionCalls) responses.push(await gemini.run(call, handlers, { guard }));
    results.push(...responses.map((r) => (r.response["error"] ?? r.response["output"]) as Played["results"][number]));
    contents.push({ role: "user", parts: responses.map((functionResponse) => ({ functionResponse })) });
  }
  return { results, turns };
};

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A scripted AI SDK model: each step plays the next turn of the script. */
function scriptedModel(script: readonly Turn[], counter: { turns: number }): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const moves = script[counter.turns++] ?? [];
      if (moves.length === 0) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      return {
        content: moves.map((m, i) => ({ type: "tool-call" as const, toolCallId: `ai_${counter.turns}_${i}`, toolName: m.tool, input: JSON.stringify(m.args) })),
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const aiSdkLoop: Loop = async (script, handlers, guard, honourStop) => {
  const counter = { turns: 0 };
  const stopWhen: StopCondition<ToolSet>[] = honourStop ? [stepCountIs(10), () => guard.stopped] : [stepCountIs(10)];
  const result = await generateText({ model: scriptedModel(script, counter), tools: aiSdk.tools(handlers, { guard }), stopWhen, prompt: "go" });
  const results = result.steps.flatMap((step) => step.toolResults.map((r) => r.output as Played["results"][number]));
  return { results, turns: counter.turns };
};

const LOOPS: [string, Loop][] = [
  ["OpenAI Chat Completions", openaiChat],
  ["OpenAI Responses", openaiResponses],
  ["Anthropic Messages", anthropicMessages],
  ["Gemini", geminiContents],
  ["AI SDK generateText", aiSdkLoop],
];

const order = { found: true, customerId: "cus_1", orders: [{ id: "ord_1", status: "paid" as const }] };
const refund = { requestId: "0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10", orderId: "ord_1", amount: { amountCents: 1200, currency: "EUR" } };

function counted(overrides: Partial<{ getOrder: () => unknown; createRefund: () => unknown }> = {}) {
  const ran = { get_order: 0, create_refund: 0 };
  const handlers: Handlers = {
    get_order: () => {
      ran.get_order++;
      return (overrides.getOrder?.() ?? order) as typeof order;
    },
    create_refund: () => {
      ran.create_refund++;
      return overrides.createRefund?.() as never;
    },
  };
  return { ran, handlers };
}

describe.each(LOOPS)("%s, guarded", (_name, loop) => {
  it("refuses an invalid payload resent unchanged without running the handler, allows one correction, and stops with evidence", async () => {
    const { ran, handlers } = counted();
    const guard = createLoopGuard();
    const script: Turn[] = [
      [{ tool: "get_order", args: { customerId: "" } }],
      [{ tool: "get_order", args: { customerId: "" } }],
      [{ tool: "get_order", args: { customerId: "x".repeat(65) } }],
      [{ tool: "get_order", args: { customerId: "cus_1" } }],
    ];
    const played = await loop(script, handlers, guard, true);
    expect(played.results.map((r) => [r.code, r.reason])).toEqual([
      ["INVALID_INPUT", undefined],
      ["REJECTED", "REPEATED_CALL"],
      ["INVALID_INPUT", undefined],
    ]);
    expect(played.results[1]).toMatchObject({ issues: [{ path: "customerId" }] });
    expect(ran.get_order).toBe(0);
    expect(played.turns).toBe(3);
    expect(guard.stop).toMatchObject({ reason: "CORRECTIONS_SPENT", tool: "get_order", version: 1 });
    expect(guard.stop?.evidence.map((e) => [e.code, e.refused])).toEqual([
      ["INVALID_INPUT", undefined],
      ["REJECTED", "REPEATED_CALL"],
      ["INVALID_INPUT", undefined],
    ]);
  });

  it("lets a correction through, and the conversation goes on", async () => {
    const { ran, handlers } = counted();
    const guard = createLoopGuard();
    const script: Turn[] = [[{ tool: "get_order", args: { customerId: "" } }], [{ tool: "get_order", args: { customerId: "cus_1" } }], []];
    const played = await loop(script, handlers, guard, true);
    expect(played.results.map((r) => r.code)).toEqual(["INVALID_INPUT", undefined]);
    expect(ran.get_order).toBe(1);
    expect(guard.stop).toBeUndefined();
  });

  it("stops the loop after INVALID_OUTPUT: the model is not asked again", async () => {
    const { ran, handlers } = counted({ getOrder: () => ({ wrong: true }) });
    const guard = createLoopGuard();
    const script: Turn[] = [[{ tool: "get_order", args: { customerId: "cus_1" } }], [{ tool: "get_order", args: { customerId: "cus_2" } }]];
    const played = await loop(script, handlers, guard, true);
    expect(played.results.map((r) => r.code)).toEqual(["INVALID_OUTPUT"]);
    expect(played.turns).toBe(1);
    expect(ran.get_order).toBe(1);
    expect(guard.stop).toMatchObject({ reason: "INVALID_OUTPUT", tool: "get_order" });
  });

  it("never calls a write with an unknown effect twice, even in a loop that ignores guard.stop", async () => {
    const { ran, handlers } = counted({
      createRefund: () => {
        throw new Error("connection reset after the request was sent");
      },
    });
    const guard = createLoopGuard();
    const script: Turn[] = [
      [{ tool: "create_refund", args: refund }],
      [{ tool: "create_refund", args: refund }],
      [{ tool: "create_refund", args: { ...refund, requestId: "1b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10" } }],
      [],
    ];
    const played = await loop(script, handlers, guard, false);
    expect(played.results.map((r) => [r.code, r.effect, r.reason])).toEqual([
      ["FAILED", "unknown", undefined],
      ["REJECTED", "none", "LOOP_STOPPED"],
      ["REJECTED", "none", "LOOP_STOPPED"],
    ]);
    expect(ran.create_refund).toBe(1);
    expect(guard.stop).toMatchObject({ reason: "UNKNOWN_EFFECT", tool: "create_refund", summary: expect.stringContaining("Check the write's status") });
  });
});

describe("AI SDK: one tool set shared by two conversations", () => {
  it("binds the guard to the first conversation; a call from the second is refused and the guard stops", async () => {
    const { ran, handlers } = counted();
    const guard = createLoopGuard();
    const tools = aiSdk.tools(handlers, { guard });
    const script: Turn[] = [[{ tool: "get_order", args: { customerId: "cus_1" } }], []];
    const first = await generateText({ model: scriptedModel(script, { turns: 0 }), tools, stopWhen: [stepCountIs(5), () => guard.stopped], prompt: "first" });
    expect(first.steps.flatMap((s) => s.toolResults.map((r) => r.output))).toEqual([order]);
    const second = await generateText({ model: scriptedModel(script, { turns: 0 }), tools, stopWhen: [stepCountIs(5), () => guard.stopped], prompt: "second" });
    expect(second.steps.flatMap((s) => s.toolResults.map((r) => r.output))).toEqual([expect.objectContaining({ code: "REJECTED", reason: "LOOP_STOPPED" })]);
    expect(guard.stop?.reason).toBe("SHARED_GUARD");
    expect(ran.get_order).toBe(1);
  });
});

describe("the typed MCP client, given a guard", () => {
  /** The generated Streamable HTTP entry on a loopback port, and the SDK's own client over HTTP. */
  async function connected(handlers: Handlers) {
    const handle = createHttpHandler(handlers);
    const http = createNodeServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const { port } = http.address() as AddressInfo;
    const client = new Client({ name: "guarded", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    return {
      tools: createClient(client),
      close: async () => {
        await client.close();
        await new Promise((resolve) => http.close(resolve));
      },
    };
  }

  it("sends no call the guard refuses, and stops after a write's unknown effect", async () => {
    const { ran, handlers } = counted({
      createRefund: () => {
        throw new Error("connection reset");
      },
    });
    const { tools, close } = await connected(handlers);
    try {
      const events: unknown[] = [];
      const guard = createLoopGuard({ onTrace: (event) => events.push(event) });
      expect(await tools.get_order({ customerId: "" }, { guard })).toMatchObject({ code: "INVALID_INPUT" });
      expect(await tools.get_order({ customerId: "" }, { guard })).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL" });
      expect(await tools.get_order({ customerId: "cus_1" }, { guard })).toMatchObject({ ok: true });
      expect(await tools.create_refund(refund, { guard })).toMatchObject({ code: "FAILED", effect: "unknown" });
      expect(await tools.create_refund(refund, { guard })).toMatchObject({ code: "REJECTED", reason: "LOOP_STOPPED" });
      expect(ran).toEqual({ get_order: 1, create_refund: 1 });
      expect(guard.stop?.reason).toBe("UNKNOWN_EFFECT");
      expect(events).toEqual([
        expect.objectContaining({ tool: "get_order", guard: { action: "refused", reason: "REPEATED_CALL" } }),
        expect.objectContaining({ tool: "create_refund", code: "FAILED", effect: "unknown", guard: { action: "stopped", reason: "UNKNOWN_EFFECT" } }),
        expect.objectContaining({ tool: "create_refund", guard: { action: "refused", reason: "LOOP_STOPPED" } }),
      ]);
    } finally {
      await close();
    }
  });
});
