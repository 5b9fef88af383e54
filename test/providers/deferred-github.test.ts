/**
 * Deferred loading's done-when, on GitHub's REST API (1,223 operations):
 * imported once with `toolc import openapi`, generated with every tool
 * deferred (`loading: { default: deferred }` in toolc.config.yaml); each
 * provider's request carries the search tool and the deferred tools in its
 * documented form, and a scripted model finds `issues_create` by search
 * and calls it through the generated border, which answers with a valid
 * envelope (the handler turns the call down with a declared reason, after
 * the input was validated). The Agents SDK's loop runs on the demo
 * (test/deferred-runtimes/agents-loop.test.ts).
 */
import Anthropic from "@anthropic-ai/sdk";
import { generateText, stepCountIs, toolSearch, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../compiler/helpers.js";
import { SPECS } from "../import/openapi/corpus-specs.js";
import { fixtureSpec, importSpec, scratchProject } from "../import/openapi/helpers.js";

interface ToolUseBlock {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
/** What this test reads of the imported project's providers.ts (its types are the project's own). */
interface GithubProviders {
  readonly anthropic: { requestTools: Anthropic.ToolUnion[]; run(block: ToolUseBlock, handlers: object): Promise<Anthropic.ToolResultBlockParam> };
  readonly openai: { requestTools: { type: string; name?: string; defer_loading?: boolean }[]; tools: unknown[] };
  readonly aiSdk: { tools(handlers: object): ToolSet };
}

const ISSUE = { owner: "octocat", repo: "hello-world", title: "Found a bug" };
let dir = "";
let providers: GithubProviders;
const seen: unknown[] = [];
const handlers = {
  issues_create: (input: unknown, ctx: { reject(reason: string): never }) => {
    seen.push(input);
    return ctx.reject("UNPROCESSABLE_CONTENT");
  },
};

beforeAll(async () => {
  dir = scratchProject("deferred-github", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
  await importSpec(fixtureSpec("github", dir), SPECS.github.curation, {}, dir);
  writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nloading: { default: deferred }\n");
  const generate = await runCli(dir, ["generate"]);
  expect(generate.stdout).toContain("1223 tools compiled");
  providers = (await import(join(dir, "generated/providers.ts"))) as GithubProviders;
}, 1_200_000);

afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** A rejection after validation: the envelope names the declared reason, and the handler saw the input. */
function expectRejected(envelope: unknown): void {
  expect(envelope).toMatchObject({ ok: false, code: "REJECTED", reason: "UNPROCESSABLE_CONTENT", tool: "issues_create", retryable: false });
  expect(seen.at(-1)).toMatchObject(ISSUE);
}

describe("GitHub's API with every tool deferred", () => {
  it("Anthropic: the tool search tool and 1,223 tools with defer_loading; the model finds issues_create and calls it", async () => {
    const requests: Anthropic.MessageCreateParams[] = [];
    // The scripted server: its search is the model's regex over the request's deferred tools' names, as the regex tool search reads them.
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as Anthropic.MessageCreateParams;
      requests.push(body);
      const base = {
        id: `msg_${requests.length}`,
        type: "message",
        role: "assistant",
        model: body.model,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      const answered = body.messages.length > 1;
      const found = (body.tools ?? []).flatMap((t) => ("defer_loading" in t && t.defer_loading === true && /^issues_create$/.test(t.name) ? [t.name] : []));
      const content = answered
        ? [{ type: "text", text: "done" }]
        : [
            { type: "server_tool_use", id: "srvtoolu_1", name: "tool_search_tool_regex", input: { pattern: "^issues_create$" } },
            {
              type: "tool_search_tool_result",
              tool_use_id: "srvtoolu_1",
              content: { type: "tool_search_tool_search_result", tool_references: found.map((tool_name) => ({ type: "tool_reference", tool_name })) },
            },
            ...found.map((name) => ({ type: "tool_use", id: "toolu_1", name, input: ISSUE })),
          ];
      return new Response(JSON.stringify({ ...base, content, stop_reason: answered ? "end_turn" : "tool_use" }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
    const client = new Anthropic({ apiKey: "test", maxRetries: 0, fetch });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Open an issue in octocat/hello-world: Found a bug" }];
    const reply = await client.messages.create({ model: "claude-opus-4-5", max_tokens: 1024, messages, tools: providers.anthropic.requestTools });
    const uses = reply.content.filter((b) => b.type === "tool_use");
    expect(uses.map((b) => b.name)).toEqual(["issues_create"]);
    const result = await providers.anthropic.run(uses[0]!, handlers);
    expect(result.is_error).toBe(true);
    expectRejected(JSON.parse(String(result.content)));

    const tools = requests[0]?.tools ?? [];
    expect(tools[0]).toEqual({ type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" });
    expect(tools).toHaveLength(1224);
    expect(tools.slice(1).every((t) => "defer_loading" in t && t.defer_loading === true)).toBe(true);
  });

  it("OpenAI Responses: tool_search first, every function tool with defer_loading; Chat Completions has no tool search", () => {
    const tools = providers.openai.requestTools;
    expect(tools[0]).toEqual({ type: "tool_search" });
    expect(tools).toHaveLength(1224);
    expect(tools.slice(1).every((t) => t.type === "function" && t.defer_loading === true)).toBe(true);
    expect(providers.openai.tools).toHaveLength(1223);
    expect(JSON.stringify(providers.openai.tools)).not.toContain("defer_loading");
  });

  it("AI SDK: toolSearch() finds issues_create among 1,223 deferred tools, and the next step calls it", async () => {
    const offered: number[] = [];
    let step = 0;
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered.push((options.tools ?? []).length);
        step += 1;
        const call = (toolName: string, input: unknown) => ({
          content: [{ type: "tool-call" as const, toolCallId: `c${step}`, toolName, input: JSON.stringify(input) }],
          finishReason: { unified: "tool-calls" as const, raw: undefined },
          usage,
          warnings: [],
        });
        if (step === 1) return call("toolSearch", { query: "issues create" });
        if (step === 2) return call("issues_create", ISSUE);
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      },
    });
    const tools = { ...providers.aiSdk.tools(handlers), toolSearch: toolSearch() };
    const result = await generateText({ model, prompt: "Open an issue", tools, stopWhen: stepCountIs(4) });
    // The first request offers the search tool alone; the found tools join it on the next step.
    expect(offered[0]).toBe(1);
    const found = result.steps[0]?.toolResults[0]?.output as { tools: { name: string }[] };
    expect(found.tools.map((t) => t.name)).toContain("issues_create");
    expect(offered[1]).toBe(1 + found.tools.length);
    expectRejected(result.steps[1]?.toolResults[0]?.output);
  });
});
