/**
 * Chaos property of the confirmation question (#33 H3), through the real
 * executor: whatever order the caller sends the arguments in and however
 * long they are (bidi and invisible characters included), either the
 * `confirm` hook is asked a question that shows every argument the handler
 * gets, in full, in the contract's order, and the handler then gets exactly
 * those arguments; or the call is refused with CONFIRMATION_UNAVAILABLE,
 * nobody is asked, and nothing runs. Never a cut question.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeInvisible, MAX_QUESTION, type ConfirmationRequest } from "../../generator/runtime/approval.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { transfer, type Transfer } from "../runtime/transfer-contract.js";
import { CHAOS_SEED, runs, timeoutFor } from "./config.js";

const HEAD = "Allow Title of transfer (transfer)?\nDescription of transfer.\n\nArguments:\n";
const UNITS = ["a", "b", " ", "7", "é", "🙂", '"', "\\", "\n", "\u202E", "\u2066", "\u2069", "\u200B", "\u200F", "\u2028", "\uFEFF", "\u0000"];
const HIDDEN = ["\u202E", "\u2066", "\u2069", "\u200B", "\u200F", "\u2028", "\uFEFF", "\u0000"];
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom(...UNITS), maxLength });
const EXTRA_KEYS = ["alpha", "note", "ref", "x_1", "zeta"];

/** The arguments as sent: every property, then a random order of their keys (the amount's too). */
const call = fc.record({
  to: text(60),
  value: fc.integer({ min: -1e9, max: 1e9 }),
  currency: text(8),
  // Short, or long enough to put the question on either side of the limit.
  memo: fc.option(fc.oneof(text(40), fc.tuple(fc.integer({ min: 1_700, max: 2_100 }), text(20)).map(([n, tail]) => "m".repeat(n) + tail)), { nil: undefined }),
  pin: fc.option(text(20), { nil: undefined }),
  priority: fc.option(text(20), { nil: undefined }),
  extras: fc.dictionary(fc.constantFrom(...EXTRA_KEYS), text(80), { maxKeys: 3 }),
  order: fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
});

type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

function sent(c: Call): Record<string, unknown> {
  const amount = c.order[0]! % 2 === 0 ? { value: c.value, currency: c.currency } : { currency: c.currency, value: c.value };
  const entries: [string, unknown][] = [["to", c.to], ["amount", amount], ...Object.entries(c.extras)];
  for (const key of ["memo", "pin", "priority"] as const) if (c[key] !== undefined) entries.push([key, c[key]]);
  // Shuffled by the generated sort keys: the order the caller chose.
  const shuffled = entries.map((entry, i) => ({ entry, rank: c.order[(i + 1) % c.order.length]! })).sort((a, b) => a.rank - b.rank);
  return Object.fromEntries(shuffled.map((s) => s.entry));
}

/** The question written out independently: the contract's order, then undeclared keys sorted; the PIN masked. */
function expectedQuestion(c: Call): string {
  const show = (value: unknown) => escapeInvisible(JSON.stringify(value));
  const lines = [`to: ${show(c.to)}`, `amount: {\n  "value": ${c.value},\n  "currency": ${show(c.currency)}\n}`];
  if (c.memo !== undefined) lines.push(`memo: ${show(c.memo)}`);
  if (c.pin !== undefined) lines.push("pin: [REDACTED]");
  lines.push(`priority: ${show(c.priority ?? "normal")}`);
  for (const key of Object.keys(c.extras).sort()) lines.push(`${key}: ${show(c.extras[key])}`);
  return HEAD + lines.join("\n");
}

describe("the confirmation question, over argument orders and sizes", () => {
  const n = runs(2);
  it(
    "shows every argument in full in the contract's order, or refuses the call; never a cut question",
    async () => {
      let asked = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(call, async (c) => {
          const questions: ConfirmationRequest[] = [];
          const ran: Transfer[] = [];
          const result = await executeTool(transfer, sent(c), (input) => (ran.push(input), { sent: true }), {
            confirm: (request) => (questions.push(request), true),
          });
          const expected = expectedQuestion(c);
          if (expected.length <= MAX_QUESTION) {
            asked++;
            expect(result).toEqual({ ok: true, data: { sent: true } });
            expect(questions.map((q) => q.question)).toEqual([expected]);
            for (const char of HIDDEN) expect(questions[0]?.question).not.toContain(char);
            expect(ran).toEqual([questions[0]?.arguments]);
          } else {
            refused++;
            expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", attempts: 0 });
            expect(questions).toEqual([]);
            expect(ran).toEqual([]);
          }
        }),
        { numRuns: n, seed: CHAOS_SEED },
      );
      // Both sides of the limit were reached.
      expect(asked).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
    timeoutFor(n),
  );
});
