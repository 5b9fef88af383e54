/**
 * A declared rate limit in the executor (runtime/rate-count.ts), the entry
 * of a server over its own transport and of `execute`: counted per caller
 * in the store given, the call over it refused with the envelope and its
 * handler not run; a store that cannot count lets the call run and tells the
 * operator (RATE_UNCOUNTED); `countRateLimits: false` (the border already
 * counted) counts nothing. Through the generated runtime's executeTool.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "../../generated/runtime/executor.js";
import { memoryStore, type SharedStore } from "../../generated/runtime/store.js";
import type { TraceEvent } from "../../generated/runtime/types.js";
import { defineContract } from "./fixtures.js";

const base = defineContract<{ n: number }, { n: number }, { n: number }>({
  name: "quota",
  effect: "read",
  input: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
  output: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
});
const quota = { ...base, rateLimit: { calls: 2, windowSeconds: 60, per: "subject" as const } };
const caller = (subject: string) => ({ subject, clientId: "app", scopes: [], claims: {}, expiresAt: undefined });

describe("a declared rate limit in the executor", () => {
  it("refuses the call over the limit with REJECTED / RATE_LIMITED, retryable, and does not run it", async () => {
    const store = memoryStore();
    const ran: number[] = [];
    const handler = (input: { n: number }) => (ran.push(input.n), { n: input.n });
    const results = [];
    for (let n = 0; n < 3; n++) results.push(await executeTool(quota, { n }, handler, { store, caller: caller("ann") }));
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ code: "REJECTED", reason: "RATE_LIMITED", retryable: true, effect: "none", attempts: 0, message: expect.stringMatching(/^Too many calls: try again in \d+ s\. Nothing was done\.$/) });
    expect(ran).toEqual([0, 1]);
    expect((await executeTool(quota, { n: 9 }, handler, { store, caller: caller("bob") })).ok).toBe(true);
  });

  it("lets the call run when the store cannot count, with a RATE_UNCOUNTED trace event", async () => {
    const down: SharedStore = {
      setIfAbsent: () => Promise.reject(new Error("store down")),
      increment: () => Promise.reject(new Error("store down")),
      get: () => Promise.reject(new Error("store down")),
      set: () => Promise.reject(new Error("store down")),
    } as unknown as SharedStore;
    const events: TraceEvent[] = [];
    for (let n = 0; n < 3; n++) expect((await executeTool(quota, { n }, (input) => ({ n: input.n }), { store: down, onTrace: (e) => events.push(e) })).ok).toBe(true);
    expect(events.filter((e) => e.reason === "RATE_UNCOUNTED")).toHaveLength(3);
  });

  it("counts nothing with countRateLimits: false, where the border in front counted the call", async () => {
    const store = memoryStore();
    for (let n = 0; n < 5; n++) expect((await executeTool(quota, { n }, (input) => ({ n: input.n }), { store, countRateLimits: false })).ok).toBe(true);
  });
});
