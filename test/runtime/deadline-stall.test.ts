/**
 * Deadline fairness after the event loop stalls: when everything becomes due
 * at once, a handler that finished before its deadline wins, as it would
 * with a plain timer per attempt.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "../../generator/runtime/executor.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";

function contract(timeoutMs: number): AnyToolContract {
  return {
    name: `t${timeoutMs}`,
    version: 1,
    effect: "read",
    idempotent: true,
    timeoutMs,
    retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
    errors: {},
    inputSchema: {},
    outputSchema: {},
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: {},
    sensitive: { input: [], output: [] },
    validators: { validateInput: () => true, validateOutput: () => true },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: nothing else runs, as under a CPU-bound request.
  }
}

describe("a stalled event loop", () => {
  it("lets a handler that finished before its deadline win, even when another attempt's earlier deadline fires first", async () => {
    // The other attempt's deadline (30 ms) arms the shared timer first.
    const other = executeTool(contract(30), {}, () => new Promise(() => {}));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const fair = executeTool(contract(1_000), {}, async () => {
      const finished = sleep(300);
      started();
      await finished;
      return { done: true };
    });
    // Once the handler runs (on a loaded machine that may be late), the loop stalls past the other's deadline,
    // the handler's finish (300 ms) and its own deadline (1,000 ms). The margins leave 700 ms for the process to be
    // descheduled between arming the deadline and starting the handler before the handler would really be late.
    await handlerStarted;
    stall(1_500);
    expect(await fair).toEqual({ ok: true, data: { done: true } });
    expect(await other).toMatchObject({ ok: false, code: "RETRYABLE" });
  });
});
