/**
 * No secret leaks: delete_customer's `adminToken` is `x-sensitive`. A
 * generated secret goes into the input (as the token, and sometimes also as
 * an extra key), the handler fails in every way it can while mentioning the
 * secret, and the secret must appear in no string of the envelope or of any
 * trace event (an Error's non-enumerable message and stack included).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contracts, execute, TransientError, type Handlers, type TraceEvent } from "../../generated/index.js";
import { runs, timeoutFor } from "./config.js";
import { envelopeProblems } from "./envelope-check.js";
import { containsString } from "./harness.js";
import { ownObject } from "../soundness/schema-arbitrary.js";

/** Distinctive, so it cannot occur by chance in a fixed message; alphanumeric, so JSON escaping cannot hide it. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{6,40}$/).map((s) => `zQ${s}`);

type Failing = (s: string, ctx: { reject(r: string, m?: string): never }) => unknown;

/** Handler behaviours that put the secret somewhere a careless runtime would pass on. */
const FAILINGS: Record<string, Failing> = {
  throwError: (s) => { throw new Error(`token ${s} refused`); },
  throwTransient: (s) => { throw new TransientError(`upstream said ${s}`); },
  throwString: (s) => { throw `raw ${s}`; },
  throwObject: (s) => { throw { token: s, nested: [s] }; },
  rejectPromise: (s) => Promise.reject(new Error(s)),
  rejectDeclared: (s, ctx) => ctx.reject("HAS_OPEN_ORDERS", `open orders for ${s}`),
  rejectUndeclared: (s, ctx) => ctx.reject(`NOPE_${s}`, s),
  badOutputValue: (s) => ({ deleted: s, customerId: 1 }),
  badOutputKey: (s) => ownObject([["deleted", true], ["customerId", "c"], [s, s]]),
  nonJsonOutput: (s) => ({ deleted: true, customerId: "c", when: new Date(), note: () => s }),
  errorWithCause: (s) => { throw new Error("wrapped", { cause: new Error(s) }); },
};

const scenario = fc.record({
  secret,
  failing: fc.constantFrom(...Object.keys(FAILINGS)),
  extraKey: fc.boolean(),
  breakInput: fc.constantFrom("no", "customerId", "confirm", "short"),
});

function inputFor(s: string, extraKey: boolean, breakInput: string): unknown {
  const entries: [string, unknown][] = [["customerId", "cus_1"], ["confirm", true], ["adminToken", s]];
  if (breakInput === "customerId") entries[0][1] = 42;
  if (breakInput === "confirm") entries[1][1] = false;
  if (breakInput === "short") entries.push(["adminToken2", s.slice(0, 3)]);
  if (extraKey) entries.push([s, s]);
  return ownObject(entries);
}

const N = runs();

describe("secret redaction fuzz", () => {
  it(`a sensitive input value appears in no envelope or trace (${N} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ secret: s, failing, extraKey, breakInput }) => {
        const traces: TraceEvent[] = [];
        let calls = 0;
        const handlers = { delete_customer: (_i: unknown, ctx: never) => (calls++, FAILINGS[failing](s, ctx)) } as unknown as Handlers;
        const result = await execute("delete_customer", inputFor(s, extraKey, breakInput), handlers, { onTrace: (e) => traces.push(e), sleep: async () => {} });
        expect(result.ok).toBe(false);
        expect(envelopeProblems(result, contracts.delete_customer, calls)).toEqual([]);
        expect(JSON.stringify(result).includes(s)).toBe(false);
        expect(containsString(result, s)).toBe(false);
        for (const t of traces) expect(containsString(t, s)).toBe(false);
      }),
      { numRuns: N },
    );
  }, timeoutFor(N, 5));
});
