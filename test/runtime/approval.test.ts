/**
 * The border of a confirmed tool (runtime/approval.ts, through executeTool):
 * no hook, no run; the hook sees a question that shows every argument the
 * handler will get, in full and in the contract's order, with x-sensitive
 * values masked by their schema path and invisible characters escaped; a
 * question too long to show whole refuses the call rather than being cut.
 */
import { describe, expect, it } from "vitest";
import { confirmationQuestion, escapeInvisible, MAX_QUESTION, type ConfirmationRequest } from "../../generator/runtime/approval.js";
import { executeTool } from "../../generator/runtime/executor.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { transfer, type Transfer } from "./transfer-contract.js";

const HEAD = "Allow Title of transfer (transfer)?\nDescription of transfer.\n\nArguments:\n";

function recorder() {
  const ran: unknown[] = [];
  const asked: ConfirmationRequest[] = [];
  return {
    ran,
    asked,
    handler: (input: Transfer) => (ran.push(input), { sent: true }),
    approve: (request: ConfirmationRequest) => (asked.push(request), true),
  };
}

describe("the border", () => {
  it("without a hook: REJECTED, CONFIRMATION_UNAVAILABLE, effect none, traced, and the handler never runs", async () => {
    const r = recorder();
    const traces: TraceEvent[] = [];
    const result = await executeTool(transfer, { to: "acct_1", amount: { value: 5, currency: "EUR" } }, r.handler, { onTrace: (e) => traces.push(e) });
    expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", attempts: 0, retryable: false });
    expect(r.ran).toEqual([]);
    expect(traces).toEqual([{ tool: "transfer", version: 2, attempt: 0, durationMs: 0, code: "REJECTED", effect: "none", issuePaths: [] }]);
  });

  it("invalid input is INVALID_INPUT before anyone is asked", async () => {
    const r = recorder();
    const result = await executeTool(transfer, { to: 5 }, r.handler, { confirm: r.approve });
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(r.asked).toEqual([]);
  });

  it("the hook gets the resolved arguments as a copy: changing them does not change what the handler gets", async () => {
    const r = recorder();
    const result = await executeTool(transfer, { to: "acct_1", amount: { value: 5, currency: "EUR" } }, r.handler, {
      confirm: (request) => {
        (request.arguments as Transfer).to = "acct_ATTACKER";
        return true;
      },
    });
    expect(result).toEqual({ ok: true, data: { sent: true } });
    expect(r.ran).toEqual([{ to: "acct_1", amount: { value: 5, currency: "EUR" }, priority: "normal" }]);
  });

  it("only `true` approves: a truthy answer that is not true declines", async () => {
    const r = recorder();
    const result = await executeTool(transfer, { to: "acct_1", amount: { value: 5, currency: "EUR" } }, r.handler, { confirm: () => "yes" as unknown as boolean });
    expect(result).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
    expect(r.ran).toEqual([]);
  });
});

describe("the question (H3)", () => {
  it("a long memo sent first hides nothing: the recipient and the amount come first, in the contract's order, and everything shows in full", async () => {
    const r = recorder();
    const memo = "Invoice 2231. ".repeat(100).trim();
    await executeTool(transfer, { memo, amount: { currency: "EUR", value: 950000 }, to: "acct_ATTACKER_991" }, r.handler, { confirm: r.approve });
    expect(r.asked[0]?.question).toBe(
      `${HEAD}to: "acct_ATTACKER_991"\namount: {\n  "value": 950000,\n  "currency": "EUR"\n}\nmemo: ${JSON.stringify(memo)}\npriority: "normal"`,
    );
    expect(r.ran).toHaveLength(1);
  });

  it("a question that would pass the limit refuses the call, and the hook is never asked a cut question", async () => {
    const r = recorder();
    const memo = "x".repeat(MAX_QUESTION);
    const result = await executeTool(transfer, { memo, to: "acct_ATTACKER_991", amount: { value: 950000, currency: "EUR" } }, r.handler, { confirm: r.approve });
    expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", message: expect.stringContaining("too long to show the user in full") });
    expect(r.asked).toEqual([]);
    expect(r.ran).toEqual([]);
  });

  it("a sensitive value is masked by its path, so a public argument with the same text still shows", () => {
    const question = confirmationQuestion(transfer, { to: "acct_ATTACKER_991", amount: { value: 1, currency: "EUR" }, pin: "acct_ATTACKER_991" });
    expect(question).toEqual({ ok: true, text: `${HEAD}to: "acct_ATTACKER_991"\namount: {\n  "value": 1,\n  "currency": "EUR"\n}\npin: [REDACTED]` });
  });

  it("bidi overrides, isolates, zero-width and other invisible characters are escaped where they can be seen, in values and in keys", () => {
    const hidden = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200B", "\u200C", "\u200D", "\u200E", "\u200F", "\u2028", "\u2029", "\uFEFF", "\u00AD", "\u0007", "\u00A0", "\u{E0041}"];
    const question = confirmationQuestion(transfer, { to: `acct_${hidden.join("")}_1`, amount: { value: 1, currency: "EUR" }, [`note\u202E`]: "x" });
    expect(question.ok).toBe(true);
    const text = question.ok ? question.text : "";
    for (const char of hidden) expect(text).not.toContain(char);
    expect(text).toContain('to: "acct_\\u{202A}\\u{202B}\\u{202C}\\u{202D}\\u{202E}\\u{2066}\\u{2067}\\u{2068}\\u{2069}\\u{200B}\\u{200C}\\u{200D}\\u{200E}\\u{200F}\\u{2028}\\u{2029}\\u{FEFF}\\u{00AD}\\u0007\\u{00A0}\\u{E0041}_1"');
    expect(text).toContain('"note\\u{202E}": "x"');
  });

  it("undeclared properties follow the declared ones, sorted, whatever order they were sent in", () => {
    const a = confirmationQuestion(transfer, { zeta: "1", to: "t", alpha: "2", amount: { value: 1, currency: "EUR" } });
    const b = confirmationQuestion(transfer, { alpha: "2", amount: { currency: "EUR", value: 1 }, zeta: "1", to: "t" });
    expect(a).toEqual(b);
    expect(a.ok && a.text.endsWith('currency": "EUR"\n}\nalpha: "2"\nzeta: "1"')).toBe(true);
  });

  it("escapeInvisible leaves printable text, emoji and spaces alone", () => {
    expect(escapeInvisible("Zoë paid €5 🙂 ok")).toBe("Zoë paid €5 🙂 ok");
  });
});
