/**
 * Deferred loading's documented loops on the demo, whose search_orders is
 * `loading: deferred`, each with a scripted model: the model searches, the
 * search loads the deferred tool, the model calls it, and the call goes
 * through the generated border (validation, envelope) to the handler.
 *
 * - Anthropic: the real SDK client over a scripted transport (its `fetch`),
 *   so the request is the one the SDK sends: the tool search tool first,
 *   search_orders with `defer_loading: true`; the response holds the
 *   server's search, its tool reference, and the `tool_use` of the tool.
 * - AI SDK: `generateText` with the SDK's own `toolSearch()`, which hides
 *   the deferred tool until its search finds it.
 * The OpenAI Agents SDK's loop is in test/deferred-runtimes/, where its
 * package is installed.
 */
import Anthropic from "@anthropic-ai/sdk";
import { generateText, stepCountIs, toolSearch } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Handlers } from "../../generated/index.js";
import { aiSdk, anthropic } from "../../generated/providers.js";

let seen: unknown[] = [];
const handlers: Handlers = {
  get_order: (input) => ({ found: true, customerId: input.customerId, orders: [] }),
  search_orders: (input) => {
    seen.push(input);
    return { orders: [{ id: "ord_1", status: "paid", amountCents: 1200 }], nextCursor: null };
  },
};
beforeEach(() => {
  seen = [];
});

const USAGE = { input_tokens: 10, output_tokens: 5 };

/** Anthropic's scripted side: the server searched and found search_orders, and the model called it; then, given its result, it answers. */
function claudeReply(body: Anthropic.MessageCreateParams): unknown {
  const last = body.messages.at(-1);
  const blocks: Anthropic.ContentBlockParam[] = Array.isArray(last?.content) ? last.content : [];
  const result = blocks.find((b): b is Anthropic.ToolResultBlockParam => b.type === "tool_result");
  const base = { id: `msg_${body.messages.length}`, type: "message", role: "assistant", model: body.model, stop_sequence: null, usage: USAGE };
  if (result !== undefined) return { ...base, content: [{ type: "text", text: `result: ${String(result.content)}` }], stop_reason: "end_turn" };
  return {
    ...base,
    stop_reason: "tool_use",
    content: [
      { type: "server_tool_use", id: "srvtoolu_1", name: "tool_search_tool_regex", input: { pattern: "orders?" } },
      {
        type: "tool_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "search_orders" }] },
      },
      { type: "tool_use", id: "toolu_1", name: "search_orders", input: { filter: { customerId: "cus_1" } } },
    ],
  };
}

describe("deferred loading with a scripted model", () => {
  it("Anthropic Messages: the request carries the tool search tool and the deferred tool; the found tool's call crosses the border", async () => {
    const requests: Anthropic.MessageCreateParams[] = [];
    const client = new Anthropic({
      apiKey: "test",
      maxRetries: 0,
      fetch: async (_url: string | URL | Request, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as Anthropic.MessageCreateParams;
        requests.push(body);
        return new Response(JSON.stringify(claudeReply(body)), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Which orders does cus_1 have?" }];
    for (let turn = 0; turn < 4; turn++) {
      const reply = await client.messages.create({ model: "claude-opus-4-5", max_tokens: 1024, messages, tools: anthropic.requestTools });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((b) => b.type === "tool_use");
      if (uses.length === 0) break;
      messages.push({ role: "user", content: await Promise.all(uses.map((b) => anthropic.run(b, handlers))) });
    }
    const tools = requests[0]?.tools ?? [];
    expect(tools[0]).toEqual({ type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" });
    expect(tools.find((t) => "name" in t && t.name === "search_orders")).toMatchObject({ defer_loading: true });
    expect(tools.find((t) => "name" in t && t.name === "get_order")).not.toHaveProperty("defer_loading");
    expect(seen).toEqual([{ filter: { customerId: "cus_1" }, limit: 20, cursor: null }]);
    const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
    expect(results).toHaveLength(1);
    expect(results[0]).not.toHaveProperty("is_error");
    expect(JSON.parse(String(results[0]?.content))).toMatchObject({ orders: [{ id: "ord_1" }], nextCursor: null });
  });

  it("AI SDK: toolSearch() finds the deferred tool, which the next step offers and the model calls", async () => {
    const offered: string[][] = [];
    let step = 0;
    const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered.push((options.tools ?? []).map((t) => t.name));
        step += 1;
        const call = (toolName: string, input: unknown) => ({
          content: [{ type: "tool-call" as const, toolCallId: `c${step}`, toolName, input: JSON.stringify(input) }],
          finishReason: { unified: "tool-calls" as const, raw: undefined },
          usage,
          warnings: [],
        });
        if (step === 1) return call("toolSearch", { query: "search orders" });
        if (step === 2) return call("search_orders", { filter: { customerId: "cus_1" } });
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      },
    });
    const result = await generateText({
      model,
      prompt: "orders of cus_1",
      tools: { ...aiSdk.tools(handlers), toolSearch: toolSearch() },
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("done");
    expect(offered[0]).toEqual(["get_order", "toolSearch"]);
    expect(offered[1]).toContain("search_orders");
    expect(seen).toEqual([{ filter: { customerId: "cus_1" }, limit: 20, cursor: null }]);
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => ({ tool: r.toolName, output: r.output })));
    expect(outputs[0]).toEqual({ tool: "toolSearch", output: { tools: [{ name: "search_orders", description: expect.any(String) }] } });
    expect(outputs[1]).toEqual({ tool: "search_orders", output: { orders: [{ id: "ord_1", status: "paid", amountCents: 1200 }], nextCursor: null } });
  });
});
