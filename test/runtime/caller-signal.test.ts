/**
 * The caller's AbortSignal: a handler that settles within its turn of the
 * event loop never gets a listener on it (adding one costs more than the rest
 * of a call), yet an abort is honoured exactly as a listener would honour it:
 * one that comes before the handler settles wins, and one during a slow
 * handler ends the attempt and aborts ctx.signal.
 */
import { describe, expect, it, vi } from "vitest";
import { executeTool } from "../../generator/runtime/executor.js";
import { getOrder } from "./fixtures.js";

const EMPTY = { found: false, customerId: "c", orders: [] };
const CANCELLED = { ok: false, code: "FAILED", message: "The call was cancelled.", attempts: 1 };

function countedSignal(): { controller: AbortController; added: () => number; removed: () => number } {
  const controller = new AbortController();
  const add = vi.spyOn(controller.signal, "addEventListener");
  const remove = vi.spyOn(controller.signal, "removeEventListener");
  return { controller, added: () => add.mock.calls.length, removed: () => remove.mock.calls.length };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A slow handler's wait. Two turns, not a timer: a timer may fire before the
 * executor's next-turn check when the process stalls, and the handler would
 * then settle first. The executor's check runs between these two turns.
 */
const twoTurns = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("the caller's signal", () => {
  it("gets no listener when the handler settles within its turn", async () => {
    const { controller, added } = countedSignal();
    const result = await executeTool(getOrder, { customerId: "c" }, async () => EMPTY, { signal: controller.signal });
    expect(result.ok).toBe(true);
    await nextTurn();
    expect(added()).toBe(0);
  });

  it("gets one listener, removed when the attempt ends, when the handler outlives its turn", async () => {
    const { controller, added, removed } = countedSignal();
    const result = await executeTool(getOrder, { customerId: "c" }, async () => {
      await twoTurns();
      return EMPTY;
    }, { signal: controller.signal });
    expect(result.ok).toBe(true);
    expect([added(), removed()]).toEqual([1, 1]);
  });

  it("wins over the handler's value when it aborted before the handler settled", async () => {
    const controller = new AbortController();
    const result = await executeTool(getOrder, { customerId: "c" }, async () => {
      // After a microtask: the executor is waiting on this promise by then.
      await Promise.resolve();
      controller.abort(new Error("stop"));
      return EMPTY;
    }, { signal: controller.signal });
    expect(result).toMatchObject(CANCELLED);
  });

  it("ends a handler that never settles when aborted in the same turn as the call, and aborts ctx.signal", async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const call = executeTool(getOrder, { customerId: "c" }, (_input, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise<never>(() => {});
    }, { signal: controller.signal });
    controller.abort(new Error("stop"));
    expect(await call).toMatchObject(CANCELLED);
    expect(handlerSignal?.aborted).toBe(true);
  });

  it("ends a slow handler when aborted while it runs", async () => {
    const controller = new AbortController();
    const call = executeTool(getOrder, { customerId: "c" }, () => new Promise<never>(() => {}), { signal: controller.signal });
    await nextTurn();
    await nextTurn();
    controller.abort(new Error("stop"));
    expect(await call).toMatchObject(CANCELLED);
  });

  it("still settles when the signal's reads throw once the handler runs", async () => {
    let hostile = false;
    const signal = {
      get aborted(): boolean {
        if (hostile) throw new Error("hostile read");
        return false;
      },
      addEventListener: () => {
        throw new Error("hostile listener");
      },
      removeEventListener: () => {},
    } as unknown as AbortSignal;
    // Hostile from the handler's first await on: the executor has read the signal before that.
    const fast = await executeTool(getOrder, { customerId: "c" }, async () => {
      await Promise.resolve();
      hostile = true;
      return EMPTY;
    }, { signal });
    expect(fast).toMatchObject({ ok: true });
    hostile = false;
    const slow = await executeTool(getOrder, { customerId: "c" }, async () => {
      await Promise.resolve();
      hostile = true;
      await twoTurns();
      return EMPTY;
    }, { signal });
    expect(slow).toMatchObject({ ok: true });
  });
});
