/**
 * A confirmed tool (`confirm: true`) outside MCP, through the generated code
 * of test/fixtures/auth (delete_customer): `execute()`, `openai.run` (Chat
 * Completions and Responses), `anthropic.run`, `gemini.run` and the AI SDK
 * export's `execute` all reach the handler through the executor's border, so
 * none of them runs it without an approval of the exact arguments. Without a
 * `confirm` hook each call is a REJECTED envelope (CONFIRMATION_UNAVAILABLE,
 * effect none) the model reads; with one, the hook sees the question and
 * decides; the AI SDK asks through its own `needsApproval`.
 */
import { generateText, stepCountIs, type ModelMessage, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authProject, load } from "./auth/harness.js";

type Options = { confirm?: (request: { tool: string; arguments: unknown; question: string }) => boolean | Promise<boolean> };
type Run<C, R> = (call: C, handlers: unknown, options?: Options) => Promise<R>;
interface Index {
  execute(tool: string, input: unknown, handlers: unknown, options?: Options): Promise<Record<string, unknown>>;
}
interface Providers {
  openai: { run: Run<unknown, { content?: string; output?: string }> };
  anthropic: { run: Run<unknown, { content: string; is_error?: boolean }> };
  gemini: { run: Run<unknown, { response: { error?: unknown; output?: unknown } }> };
  aiSdk: { tools(handlers: unknown, options?: Options): Record<string, { needsApproval?: boolean; execute(input: unknown, options: Record<string, unknown>): Promise<unknown> }> };
}

let dir: string;
let index: Index;
let providers: Providers;
let ran: unknown[] = [];
const handlers = { delete_customer: (input: { customerId: string }) => (ran.push(input), { deleted: input.customerId }) };

beforeAll(async () => {
  dir = await authProject();
  index = await load<Index>(dir, "index.ts");
  providers = await load<Providers>(dir, "providers.ts");
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  ran = [];
});

const ARGS = { customerId: "cus_7", reason: "asked to leave", pin: "4821" };
const UNAVAILABLE = { ok: false, code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", attempts: 0, retryable: false, tool: "delete_customer" };

/** Each entry point, as a function of the options, returning the envelope (or the output) it gave the model. */
const entryPoints: Record<string, (options?: Options) => Promise<unknown>> = {
  "execute()": async (options) => {
    const result = await index.execute("delete_customer", ARGS, handlers, options);
    return result["ok"] === true ? result["data"] : result;
  },
  "openai.run (Chat Completions)": async (options) =>
    JSON.parse((await providers.openai.run({ id: "call_1", type: "function", function: { name: "delete_customer", arguments: JSON.stringify(ARGS) } }, handlers, options)).content ?? ""),
  "openai.run (Responses)": async (options) =>
    JSON.parse((await providers.openai.run({ type: "function_call", call_id: "call_2", name: "delete_customer", arguments: JSON.stringify(ARGS) }, handlers, options)).output ?? ""),
  "anthropic.run": async (options) => JSON.parse((await providers.anthropic.run({ id: "toolu_1", name: "delete_customer", input: ARGS }, handlers, options)).content),
  "gemini.run": async (options) => {
    const { response } = await providers.gemini.run({ id: "g1", name: "delete_customer", args: ARGS }, handlers, options);
    return response.error ?? response.output;
  },
  "the AI SDK tool's execute, called directly": (options) =>
    providers.aiSdk.tools(handlers, options)["delete_customer"]!.execute(ARGS, { toolCallId: "c1", messages: [] }),
};

describe.each(Object.entries(entryPoints))("%s", (_name, call) => {
  it("without a confirm hook, refuses 5 calls out of 5 with CONFIRMATION_UNAVAILABLE, and the handler never runs", async () => {
    for (let i = 0; i < 5; i++) expect(await call()).toMatchObject(UNAVAILABLE);
    expect(ran).toEqual([]);
  });

  it("with a hook: a decline runs nothing; an approval runs the handler once, after the user saw every argument", async () => {
    const asked: { tool: string; arguments: unknown; question: string }[] = [];
    expect(await call({ confirm: (request) => (asked.push(request), false) })).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED", effect: "none" });
    expect(ran).toEqual([]);
    expect(await call({ confirm: (request) => (asked.push(request), true) })).toEqual({ deleted: "cus_7" });
    expect(ran).toEqual([ARGS]);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatchObject({ tool: "delete_customer", arguments: ARGS });
    // The contract's order, each argument in full; the x-sensitive PIN masked by its path.
    expect(asked[1]?.question).toBe(
      'Allow Delete customer (delete_customer)?\nPermanently delete a customer. Each call is confirmed by the user.\n\nArguments:\ncustomerId: "cus_7"\nreason: "asked to leave"\npin: [REDACTED]',
    );
  });

  it("a hook that throws refuses the call with CONFIRMATION_UNAVAILABLE", async () => {
    const result = await call({
      confirm: () => {
        throw new Error("no UI");
      },
    });
    expect(result).toMatchObject(UNAVAILABLE);
    expect(ran).toEqual([]);
  });
});

/** A model that calls delete_customer once, then answers "done". */
function modelCalling(input: unknown) {
  let step = 0;
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step += 1;
      if (step === 1) return { content: [{ type: "tool-call", toolCallId: "c1", toolName: "delete_customer", input: JSON.stringify(input) }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}

describe("the AI SDK's own approval (needsApproval)", () => {
  it("marks the confirmed tool needsApproval; the SDK stops for the user, and runs the handler once after an approval", async () => {
    const tools = providers.aiSdk.tools(handlers) as unknown as ToolSet;
    expect((tools["delete_customer"] as { needsApproval?: boolean }).needsApproval).toBe(true);
    const model = modelCalling(ARGS);
    const prompt: ModelMessage[] = [{ role: "user", content: "delete cus_7" }];
    const first = await generateText({ model, messages: prompt, tools, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request).toBeDefined();
    expect(ran).toEqual([]);
    const approval: ModelMessage = { role: "tool", content: [{ type: "tool-approval-response", approvalId: (request as { approvalId: string }).approvalId, approved: true }] };
    const second = await generateText({ model, messages: [...prompt, ...first.response.messages, approval], tools, stopWhen: stepCountIs(5) });
    expect(second.text).toBe("done");
    expect(ran).toEqual([ARGS]);
  });

  it("a declined approval runs nothing", async () => {
    const tools = providers.aiSdk.tools(handlers) as unknown as ToolSet;
    const model = modelCalling(ARGS);
    const prompt: ModelMessage[] = [{ role: "user", content: "delete cus_7" }];
    const first = await generateText({ model, messages: prompt, tools, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === "tool-approval-request") as { approvalId: string };
    const denial: ModelMessage = { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: false }] };
    await generateText({ model, messages: [...prompt, ...first.response.messages, denial], tools, stopWhen: stepCountIs(5) });
    expect(ran).toEqual([]);
  });

  it("an application toolApproval that skips the user cannot run the handler: the border refuses", async () => {
    const tools = providers.aiSdk.tools(handlers) as unknown as ToolSet;
    for (const status of ["not-applicable", "approved"] as const) {
      const result = await generateText({ model: modelCalling(ARGS), prompt: "delete cus_7", tools, toolApproval: { delete_customer: status }, stopWhen: stepCountIs(5) });
      expect(result.steps[0]?.toolResults[0]?.output).toMatchObject(UNAVAILABLE);
    }
    expect(ran).toEqual([]);
  });

  it("an approval in the messages is bound to its call: other arguments or another call id are not approved", async () => {
    const execute = providers.aiSdk.tools(handlers)["delete_customer"]!.execute;
    const messages = [
      { role: "user", content: "delete cus_7" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "delete_customer", input: ARGS }, { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" }] },
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: "a1", approved: true }] },
    ];
    expect(await execute({ ...ARGS, customerId: "cus_ATTACKER" }, { toolCallId: "c1", messages })).toMatchObject(UNAVAILABLE);
    expect(await execute(ARGS, { toolCallId: "c2", messages })).toMatchObject(UNAVAILABLE);
    expect(ran).toEqual([]);
    expect(await execute(ARGS, { toolCallId: "c1", messages })).toEqual({ deleted: "cus_7" });
    expect(ran).toEqual([ARGS]);
  });
});
