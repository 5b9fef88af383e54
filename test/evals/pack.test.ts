/**
 * The eval pack `toolc evals` writes for the demo: every line follows the
 * documented case format, the pack is deterministic, and play.mjs runs every
 * case green with the scripted model against the real generated API (the
 * executor, the loop guard, the validators). A model that misbehaves fails
 * the cases written for it. A real provider plays the model cases when its
 * key is in the environment; otherwise the test says it skipped.
 */
import { describe, expect, it } from "vitest";
import * as api from "../../generated/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { EVAL_SCHEMA, evalPackFiles, type EvalCase } from "../../generator/evals/index.js";
import { readDefinitionTexts } from "../../generator/load/files.js";
import { ROOT } from "../compiler/helpers.js";
// @ts-expect-error: plain JavaScript, written into every pack; its types are the cases'.
import { correctionsOf, parsePack, playCase, scriptedModel } from "../../generator/evals/adapters/play.mjs";

type Call = { tool: string; arguments: unknown } | null;
type Model = (c: EvalCase, envelope?: unknown) => Promise<Call>;
const play = playCase as (c: EvalCase, a: typeof api, m: Model) => Promise<{ pass: boolean; detail: string }>;

function demoPack() {
  const side = sideFromTexts(readDefinitionTexts("definitions", ROOT) ?? [], "definitions");
  if (!side.side) throw new Error("the demo does not compile");
  return evalPackFiles(side.side.ir);
}

const files = demoPack();
const cases = (parsePack as (f: Record<string, string>) => EvalCase[])(Object.fromEntries(files.filter((f) => f.path.endsWith(".jsonl")).map((f) => [f.path, f.text])));
const scripted = (scriptedModel as (c: Record<string, unknown>) => Model)((correctionsOf as (c: EvalCase[]) => Record<string, unknown>)(cases));

/** The documented format (docs/agent-loop.md#the-eval-pack): the keys of each kind, and nothing else. */
const KEYS: Record<EvalCase["kind"], string[]> = {
  call: ["schema", "id", "tool", "contractVersion", "kind", "prompt", "expect"],
  correct: ["schema", "id", "tool", "contractVersion", "kind", "prompt", "first", "paths"],
  refrain: ["schema", "id", "tool", "contractVersion", "kind", "prompt", "why", "mustNotCall"],
  scenario: ["schema", "id", "tool", "contractVersion", "kind", "scenario", "handler", "calls", "steps", "stop"],
};

describe("the demo's eval pack", () => {
  it("writes one JSONL file per tool and the adapters, the same bytes every time", () => {
    expect(files.map((f) => f.path)).toEqual([
      "create_refund.jsonl",
      "delete_customer.jsonl",
      "get_order.jsonl",
      "search_orders.jsonl",
      "play.mjs",
      "promptfoo-tests.mjs",
      "promptfoo-assert.mjs",
      "promptfoo-scripted-provider.mjs",
      "promptfooconfig.yaml",
    ]);
    expect(demoPack()).toEqual(files);
  });

  it("follows the documented case format on every line, with unique ids", () => {
    for (const c of cases) {
      expect(c.schema).toBe(EVAL_SCHEMA);
      expect(Object.keys(c).filter((k) => k !== "output")).toEqual(KEYS[c.kind]);
      expect(c.id.startsWith(`${c.tool}/`)).toBe(true);
    }
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it("derives every kind: the expected calls, a correction, what must not be called, and the five failure scenarios", () => {
    expect(cases.filter((c) => c.kind === "call").map((c) => c.id)).toEqual(["create_refund/call/0", "get_order/call/0", "search_orders/call/0", "search_orders/call/1"]);
    expect(cases.find((c) => c.id === "delete_customer/refrain/0")).toMatchObject({ why: "destructive-without-confirmation", mustNotCall: { tool: "delete_customer" } });
    expect(cases.filter((c) => c.kind === "refrain" && c.why === "repeated-invalid-call").length).toBeGreaterThan(0);
    expect(cases.find((c) => c.id === "create_refund/correct/1")).toMatchObject({ paths: ["amount.amountCents", "amount.currency"] });
    const scenarios = new Set(cases.flatMap((c) => (c.kind === "scenario" ? [c.scenario] : [])));
    expect([...scenarios].sort()).toEqual(["INVALID_INPUT", "INVALID_OUTPUT", "REJECTED", "RETRYABLE", "UNKNOWN_EFFECT"]);
  });

  it("keeps x-sensitive example values out of every prompt (a prompt travels to the provider; scenarios are played locally)", () => {
    expect(cases.flatMap((c) => ("prompt" in c ? [c.prompt] : [])).join("\n")).not.toContain("s3cr3t-token");
    expect(cases.find((c) => c.id === "delete_customer/refrain/0")).toMatchObject({ prompt: expect.stringContaining("The user has not confirmed this yet.") });
  });

  it.each(cases.map((c) => [c.id, c] as const))("plays %s green with the scripted model", async (_id, c) => {
    const result = await play(c, api, scripted);
    expect(result.detail).toBe("");
    expect(result.pass).toBe(true);
  });

  it("fails the cases a misbehaving model breaks: the repeated invalid call, the unconfirmed deletion, a wrong call, no correction", async () => {
    const careless: Model = async (c) => (c.kind === "refrain" ? (c.mustNotCall.arguments === undefined ? { tool: c.mustNotCall.tool, arguments: {} } : { tool: c.mustNotCall.tool, arguments: c.mustNotCall.arguments }) : c.kind === "correct" ? { tool: c.tool, arguments: c.first.arguments } : { tool: c.tool, arguments: {} });
    const failed = [];
    for (const c of cases) if (c.kind !== "scenario" && !(await play(c, api, careless)).pass) failed.push(c.id);
    expect(failed).toEqual(cases.filter((c) => c.kind !== "scenario").map((c) => c.id));
  });
});

describe("a real provider", () => {
  const key = process.env["OPENAI_API_KEY"];
  it.runIf(key === undefined)("is skipped without OPENAI_API_KEY", () => {
    console.log("evals: no OPENAI_API_KEY in the environment; the real-provider run of the eval pack is skipped");
    expect(key).toBeUndefined();
  });

  it.runIf(key !== undefined)("plays the model cases with OpenAI's Chat Completions (OPENAI_API_KEY)", async () => {
    const { default: OpenAI } = await import("openai");
    const { openai } = await import("../../generated/providers.js");
    const client = new OpenAI();
    const model: Model = async (c, envelope) => {
      const messages: { role: "user" | "system"; content: string }[] = [{ role: "user", content: "prompt" in c ? c.prompt : "" }];
      if (envelope !== undefined) messages.push({ role: "user", content: `Your call failed: ${JSON.stringify(envelope)}` });
      const reply = await client.chat.completions.create({ model: process.env["TOOLC_EVALS_MODEL"] ?? "gpt-4.1-mini", messages, tools: openai.tools });
      const call = reply.choices[0]?.message.tool_calls?.find((t) => t.type === "function");
      return call?.type === "function" ? { tool: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : null;
    };
    const results = await Promise.all(cases.filter((c) => c.kind !== "scenario").map(async (c) => [c.id, (await play(c, api, model)).pass] as const));
    console.log(`evals: ${results.filter(([, pass]) => pass).length} of ${results.length} model cases passed with OpenAI`);
    expect(results.length).toBeGreaterThan(0);
  }, 300_000);
});
