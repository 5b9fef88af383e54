/**
 * Provider dispatch through the real executor and validators: recorded tool
 * calls in each provider's wire shape (test/providers/payloads/) run through
 * generated/providers.ts. The handlers record what reaches them.
 */
import { readFileSync } from "node:fs";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { beforeEach, describe, expect, it } from "vitest";
import { contracts, type Handlers } from "../../generated/index.js";
import { aiSdk, anthropic, gemini, openai } from "../../generated/providers.js";

const payload = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./payloads/${name}.json`, import.meta.url), "utf8")) as T;

let seen: { tool: string; input: unknown }[] = [];
const handlers: Handlers = {
  get_order: (input) => {
    seen.push({ tool: "get_order", input });
    return { found: true, customerId: input.customerId, orders: [] };
  },
  search_orders: (input) => {
    seen.push({ tool: "search_orders", input });
    return { orders: [], nextCursor: null };
  },
};

beforeEach(() => {
  seen = [];
});

interface ChatPayload {
  choices: { message: { tool_calls: { id: string; type: "function"; function: { name: string; arguments: string } }[] } }[];
}

describe("OpenAI", () => {
  const calls = payload<ChatPayload>("openai-chat").choices[0]?.message.tool_calls ?? [];

  it("a strict call with every optional field null reaches the handler with them absent and defaults applied", async () => {
    const message = await openai.run(calls[0]!, handlers);
    expect(seen).toEqual([{ tool: "get_order", input: { customerId: "cus_1", includeHistory: false } }]);
    expect(message).toEqual({ role: "tool", tool_call_id: "call_8kQm2vX1", content: JSON.stringify({ found: true, customerId: "cus_1", orders: [] }) });
  });

  it("malformed argument JSON is an INVALID_INPUT tool message, and the handler never runs", async () => {
    const message = await openai.run(calls[1]!, handlers);
    const envelope = JSON.parse(message.content);
    expect(envelope).toMatchObject({ ok: false, code: "INVALID_INPUT", tool: "get_order", version: 1, attempts: 0, retryable: false, effect: "none" });
    expect(message.tool_call_id).toBe("call_3nT0pZr7");
    expect(seen).toEqual([]);
  });

  it("arguments that break the schema are an INVALID_INPUT tool message naming the field", async () => {
    const envelope = JSON.parse((await openai.run(calls[2]!, handlers)).content);
    expect(envelope.code).toBe("INVALID_INPUT");
    expect(envelope.issues.map((i: { path: string }) => i.path)).toEqual(["customerId"]);
    expect(seen).toEqual([]);
  });

  it("a null stays null where the property's own schema allows null", async () => {
    await openai.run(calls[3]!, handlers);
    expect(seen).toEqual([{ tool: "search_orders", input: { filter: { status: ["paid"], placedAfter: null }, limit: 20, cursor: null } }]);
  });

  it("a Responses API function_call comes back as a function_call_output", async () => {
    const [call] = payload<{ output: [{ type: "function_call"; call_id: string; name: string; arguments: string }] }>("openai-responses").output;
    expect(await openai.run(call, handlers)).toEqual({
      type: "function_call_output",
      call_id: "call_Vq2n8Ls1",
      output: JSON.stringify({ found: true, customerId: "cus_1", orders: [] }),
    });
    expect(seen).toEqual([{ tool: "get_order", input: { customerId: "cus_1", includeHistory: true } }]);
  });

  it("an unknown tool is a FAILED tool message, not a throw", async () => {
    const message = await openai.run({ id: "call_x", type: "function", function: { name: "drop_tables", arguments: "{}" } }, handlers);
    expect(JSON.parse(message.content)).toMatchObject({ ok: false, code: "FAILED" });
  });
});

describe("Anthropic", () => {
  const blocks = payload<{ content: { type: string; id: string; name: string; input: unknown }[] }>("anthropic").content.filter((b) => b.type === "tool_use");

  it("a tool_use block runs through the executor and answers with a tool_result", async () => {
    expect(await anthropic.run(blocks[0]!, handlers)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01A09q90qw90lq917835lq9",
      content: JSON.stringify({ found: true, customerId: "cus_1", orders: [] }),
    });
    expect(seen).toEqual([{ tool: "get_order", input: { customerId: "cus_1", includeHistory: false } }]);
  });

  it("invalid input is a tool_result with is_error and the envelope", async () => {
    const result = await anthropic.run(blocks[1]!, handlers);
    expect(result.is_error).toBe(true);
    expect(JSON.parse(result.content)).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "customerId" }] });
    expect(seen).toEqual([]);
  });

  it("tools carry the contract's valid examples as input_examples", () => {
    expect(anthropic.tools.find((t) => t.name === "get_order")?.input_examples).toEqual([{ customerId: "cus_1" }]);
  });
});

describe("Gemini", () => {
  const calls = payload<{ candidates: { content: { parts: { functionCall: { id?: string; name: string; args: Record<string, unknown> } }[] } }[] }>(
    "gemini",
  ).candidates[0]!.content.parts.map((p) => p.functionCall);

  it("a functionCall answers with a FunctionResponse holding the output", async () => {
    expect(await gemini.run(calls[0]!, handlers)).toEqual({
      id: "fc-7d2e",
      name: "get_order",
      response: { output: { found: true, customerId: "cus_1", orders: [] } },
    });
  });

  it("an undeclared property is an error response with the envelope, and the handler never runs", async () => {
    const response = await gemini.run(calls[1]!, handlers);
    expect(response.response["error"]).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "includeDeleted" }] });
    expect(seen).toEqual([]);
  });
});

describe("Vercel AI SDK", () => {
  it("generateText calls the tools through the executor and feeds results back", async () => {
    let step = 0;
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        step += 1;
        const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
        if (step === 1) {
          return {
            content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", input: JSON.stringify({ customerId: "" }) }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        }
        if (step === 2) {
          return {
            content: [{ type: "tool-call", toolCallId: "c2", toolName: "get_order", input: JSON.stringify({ customerId: "cus_1" }) }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        }
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      },
    });
    const result = await generateText({ model, prompt: "orders of cus_1", tools: aiSdk.tools(handlers), stopWhen: stepCountIs(5) });
    expect(result.text).toBe("done");
    expect(seen).toEqual([{ tool: "get_order", input: { customerId: "cus_1", includeHistory: false } }]);
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output));
    expect(outputs[0]).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(outputs[1]).toEqual({ found: true, customerId: "cus_1", orders: [] });
    expect(JSON.stringify(prompts[2])).toContain("INVALID_INPUT");
  });

  it("offers the model each eager tool's served schema, its strict flag and the contract's valid examples", async () => {
    const offered: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered.push(...(options.tools ?? []));
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: undefined },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        };
      },
    });
    await generateText({ model, prompt: "hello", tools: aiSdk.tools(handlers) });
    // search_orders is `loading: deferred`: the SDK offers it once its toolSearch() finds it (deferred-loops.test.ts).
    expect(offered).toEqual([
      {
        type: "function",
        name: "get_order",
        description: contracts.get_order.description,
        inputSchema: contracts.get_order.inputSchema,
        strict: false,
        inputExamples: [{ input: { customerId: "cus_1" } }],
      },
    ]);
    expect(aiSdk.tools(handlers).search_orders).toMatchObject({
      deferLoading: true,
      description: contracts.search_orders.description,
      strict: false,
      inputExamples: [
        { input: { filter: { customerId: "cus_1" } } },
        { input: { filter: { status: ["paid", "pending"], placedAfter: "2026-01-01T00:00:00Z" }, limit: 5 } },
      ],
    });
  });
});

describe("whatever a model sends, run answers and never throws", () => {
  const hostile: unknown[] = [
    { id: "c", type: "function", function: { name: "get_order", arguments: 42 } },
    { id: "c", type: "function", function: { name: "__proto__", arguments: "{}" } },
    { id: "c", type: "custom", custom: { name: "get_order", input: "x" } },
    { id: "c", type: "function", function: { name: "get_order", arguments: "[".repeat(100_000) + "]".repeat(100_000) } },
    {
      id: "c",
      type: "function",
      function: { name: "search_orders", arguments: JSON.stringify({ filter: { __proto__: null, status: null }, limit: null, cursor: null }) },
    },
  ];

  it.each(hostile.map((call, i) => ({ i, call })))("OpenAI call $i", async ({ call }) => {
    const message = await openai.run(call as Parameters<typeof openai.run>[0], handlers);
    expect(JSON.parse((message as { content: string }).content)).toMatchObject({ ok: false });
    expect(seen).toEqual([]);
  });

  it("Anthropic and Gemini calls with missing or odd fields", async () => {
    const block = { id: "t", name: 7, input: undefined } as unknown as Parameters<typeof anthropic.run>[0];
    expect((await anthropic.run(block, handlers)).is_error).toBe(true);
    expect((await gemini.run({}, handlers)).response["error"]).toMatchObject({ code: "FAILED" });
    expect((await gemini.run({ name: "get_order", args: null } as unknown as Parameters<typeof gemini.run>[0], handlers)).response["error"]).toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(seen).toEqual([]);
  });
});
