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
    const fair = executeTool(contract(400), {}, async () => {
      await sleep(300);
      return { done: true };
    });
    // 10 ms in, the loop stalls past both the handler's finish (300 ms) and its deadline (400 ms).
    setTimeout(() => stall(500), 10);
    expect(await fair).toEqual({ ok: true, data: { done: true } });
    expect(await other).toMatchObject({ ok: false, code: "RETRYABLE" });
  });
});
