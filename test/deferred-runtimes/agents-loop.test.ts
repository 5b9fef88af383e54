/**
 * The OpenAI Agents SDK's deferred loading (@openai/agents, installed in
 * this folder by `npm run runtimes`): the demo's function tools from
 * `openai.agentsTools`, search_orders deferred, beside the SDK's
 * `toolSearchTool()`, run by the SDK's own Runner and Responses model over
 * a scripted transport (the OpenAI client's `fetch`). The request is the
 * one the SDK sends (the `tool_search` tool, search_orders with
 * `defer_loading: true`); the scripted server searches, loads the tool and
 * calls it; the call goes through the generated border to the handler.
 */
import { Agent, run } from "@openai/agents";
import { OpenAIResponsesModel, toolSearchTool } from "@openai/agents-openai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Handlers } from "../../generated/index.js";
import { openai } from "../../generated/providers.js";

interface ResponsesBody {
  readonly tools?: readonly { readonly type: string; readonly name?: string; readonly defer_loading?: boolean }[];
  readonly input: readonly { readonly type?: string; readonly output?: unknown }[] | string;
}

const base = (n: number) => ({
  id: `resp_${n}`,
  object: "response",
  created_at: 1,
  model: "gpt-5.4",
  status: "completed",
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
});

/** The scripted server: first a search that loads search_orders and a call of it; once it has the call's output, an answer. */
function reply(body: ResponsesBody, n: number): unknown {
  const outputs = typeof body.input === "string" ? [] : body.input.filter((item) => item.type === "function_call_output");
  if (outputs.length > 0) {
    return {
      ...base(n),
      output: [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: `result: ${String(outputs[0]?.output)}`, annotations: [] }],
        },
      ],
    };
  }
  const loaded = body.tools?.find((t) => t.name === "search_orders");
  return {
    ...base(n),
    output: [
      { type: "tool_search_call", id: "ts_1", call_id: null, execution: "server", status: "completed", arguments: { query: "search orders" } },
      { type: "tool_search_output", id: "tso_1", call_id: null, execution: "server", status: "completed", tools: [loaded] },
      {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "search_orders",
        arguments: JSON.stringify({ filter: { customerId: "cus_1" }, limit: null, cursor: null }),
        status: "completed",
      },
    ],
  };
}

describe("OpenAI Agents SDK with a scripted model", () => {
  it("sends tool_search and the deferred tool; the tool the search loads is called through the border", async () => {
    const requests: ResponsesBody[] = [];
    const client = new OpenAI({
      apiKey: "test",
      maxRetries: 0,
      fetch: async (_url: string | URL | Request, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as ResponsesBody;
        requests.push(body);
        return new Response(JSON.stringify(reply(body, requests.length)), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    const seen: unknown[] = [];
    const handlers: Handlers = {
      get_order: (input) => ({ found: true, customerId: input.customerId, orders: [] }),
      search_orders: (input) => {
        seen.push(input);
        return { orders: [{ id: "ord_1", status: "paid", amountCents: 1200 }], nextCursor: null };
      },
    };
    const agent = new Agent({ name: "orders", model: new OpenAIResponsesModel(client, "gpt-5.4"), tools: [toolSearchTool(), ...openai.agentsTools(handlers)] });
    const result = await run(agent, "Which orders does cus_1 have?");

    const tools = requests[0]?.tools ?? [];
    expect(tools.find((t) => t.type === "tool_search")).toBeDefined();
    expect(tools.find((t) => "name" in t && t.name === "search_orders")).toMatchObject({ type: "function", defer_loading: true });
    expect(tools.find((t) => "name" in t && t.name === "get_order")).not.toHaveProperty("defer_loading");
    // Strict: the model's nulls for absent optionals are removed before the border, so defaults apply.
    expect(seen).toEqual([{ filter: { customerId: "cus_1" }, limit: 20, cursor: null }]);
    expect(result.finalOutput).toBe(`result: ${JSON.stringify({ orders: [{ id: "ord_1", status: "paid", amountCents: 1200 }], nextCursor: null })}`);
  });
});
