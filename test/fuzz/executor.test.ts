/**
 * Executor fuzzing against the demo contracts: random and mutated inputs and
 * handler behaviours. Properties: `execute` never throws or rejects; the
 * handler only ever sees input an independent validator accepts; every
 * failure is a well-formed envelope under the policy table; a success is
 * exactly the output an independent validator accepts; Object.prototype is
 * never polluted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contracts, execute, TransientError, type Handlers, type TraceEvent } from "../../generated/index.js";
import { runs, timeoutFor } from "./config.js";
import { envelopeProblems } from "./envelope-check.js";
import { hostileValue, prototypeSnapshot } from "./hostile.js";
import { independent, isPlainJson, shaped, TOOL_NAMES, type ToolName } from "./harness.js";

/** What the handler does on this call. */
type Behaviour =
  | { kind: "return"; output: unknown }
  | { kind: "resolve-later"; output: unknown }
  | { kind: "throw"; error: unknown }
  | { kind: "reject-promise"; error: unknown }
  | { kind: "transient" }
  | { kind: "ctx-reject"; reason: string };

function behaviour(tool: ToolName): fc.Arbitrary<Behaviour> {
  const reasons = [...Object.keys(contracts[tool].errors), "NOT_DECLARED", "__proto__", "constructor"];
  return fc.oneof(
    { weight: 4, arbitrary: shaped(tool, "outputSchema").map((output) => ({ kind: "return" as const, output })) },
    shaped(tool, "outputSchema").map((output) => ({ kind: "resolve-later" as const, output })),
    fc.oneof(hostileValue, fc.constant(new Error("boom"))).map((error) => ({ kind: "throw" as const, error })),
    fc.oneof(hostileValue, fc.constant(new Error("boom"))).map((error) => ({ kind: "reject-promise" as const, error })),
    fc.constant({ kind: "transient" as const }),
    fc.constantFrom(...reasons).map((reason) => ({ kind: "ctx-reject" as const, reason })),
  );
}

interface Spy {
  calls: number;
  /** Inputs the handler saw that the independent validator rejects. */
  invalidSeen: unknown[];
}

function spyHandlers(tool: ToolName, b: Behaviour, spy: Spy): Handlers {
  const handler = (input: unknown, ctx: { reject(reason: string, message?: string): never }): unknown => {
    spy.calls++;
    if (!independent[tool].input(structuredClone(input))) spy.invalidSeen.push(input);
    switch (b.kind) {
      case "return": return b.output;
      case "resolve-later": return new Promise((r) => setTimeout(() => r(b.output), 0));
      case "throw": throw b.error;
      case "reject-promise": return Promise.reject(b.error);
      case "transient": throw new TransientError("dependency is down");
      case "ctx-reject": return ctx.reject(b.reason, "no");
    }
  };
  return { [tool]: handler } as unknown as Handlers;
}

/** Never waits between retries: the properties are about results, not timing. */
const FAST = { sleep: async () => {}, random: () => 0.5 };

const input = fc.constantFrom(...TOOL_NAMES).chain((tool) =>
  fc.record({
    tool: fc.constant(tool),
    input: fc.oneof({ weight: 5, arbitrary: shaped(tool, "inputSchema") }, hostileValue),
    behaviour: behaviour(tool),
  }),
);

const N = runs();
/** Outcome counts, printed so a run shows it reached every code and not just INVALID_INPUT. */
const tally = new Map<string, number>();
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

describe("executor fuzz", () => {
  it(`never throws, handler sees only valid input, envelopes are well-formed (${N} runs)`, async () => {
    const proto = prototypeSnapshot();
    await fc.assert(
      fc.asyncProperty(input, async ({ tool, input: raw, behaviour: b }) => {
        const spy: Spy = { calls: 0, invalidSeen: [] };
        const traces: TraceEvent[] = [];
        const result = await execute(tool, raw, spyHandlers(tool, b, spy), { ...FAST, onTrace: (e) => traces.push(e) });
        count(result.ok ? "OK" : result.code);
        expect(spy.invalidSeen).toEqual([]);
        expect(envelopeProblems(result, contracts[tool], spy.calls)).toEqual([]);
        expect(traces.length).toBeGreaterThan(0);
        if (result.ok) {
          // Success only for output the independent validator accepts.
          expect(independent[tool].output(structuredClone(result.data))).toBe(true);
          if (b.kind === "return" || b.kind === "resolve-later") {
            if (isPlainJson(b.output)) expect(result.data).toEqual(JSON.parse(JSON.stringify(b.output)));
          }
        } else if (result.code === "INVALID_OUTPUT" && isPlainJson((b as { output?: unknown }).output)) {
          expect(independent[tool].output(structuredClone((b as { output: unknown }).output))).toBe(false);
        }
        expect(prototypeSnapshot()).toBe(proto);
      }),
      { numRuns: N },
    );
    console.log(`executor fuzz outcomes: ${JSON.stringify(Object.fromEntries(tally))}`);
  }, timeoutFor(N, 20));

  it("a stack-deep input or output is an envelope, not a crash", async () => {
    const deep = JSON.parse("[".repeat(10_000) + "]".repeat(10_000)) as unknown;
    const deepObject = JSON.parse('{"a":'.repeat(10_000) + "1" + "}".repeat(10_000)) as unknown;
    for (const tool of TOOL_NAMES) {
      for (const value of [deep, deepObject, { customerId: deep }, { filter: deepObject }]) {
        const spy: Spy = { calls: 0, invalidSeen: [] };
        const asInput = await execute(tool, value, spyHandlers(tool, { kind: "return", output: {} }, spy), FAST);
        expect(asInput).toMatchObject({ ok: false, code: "INVALID_INPUT" });
        expect(spy.calls).toBe(0);
      }
    }
    const spy: Spy = { calls: 0, invalidSeen: [] };
    const asOutput = await execute("get_order", { customerId: "c" }, spyHandlers("get_order", { kind: "return", output: { found: true, customerId: "c", orders: deep } }, spy), FAST);
    expect(asOutput).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });
});
