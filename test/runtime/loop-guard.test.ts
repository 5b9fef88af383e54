/**
 * The loop guard, row by row of the failure table (docs/agent-loop.md),
 * through the real executor and real validators: a call the table forbids is
 * refused without running the handler, a correction must change a field the
 * issues named, and the loop is stopped with evidence on INVALID_OUTPUT, on a
 * write's unknown effect and when the correction budget is spent. Then the
 * bad inputs: unknown tools, alternating payloads, a shared guard, a long
 * conversation, hostile arguments.
 */
import { describe, expect, it } from "vitest";
import { executeByName } from "../../generator/runtime/dispatch.js";
import { TransientError } from "../../generator/runtime/errors.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { digestValue, newDigestKey, parsePath, valueAt } from "../../generator/runtime/loop-digest.js";
import { createLoopGuard, MAX_EVIDENCE, type LoopGuard } from "../../generator/runtime/loop-guard.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { defineContract } from "./fixtures.js";

const SECRET_VALUE = "sk_live_loopguard_4242";

const lookup = defineContract<{ id: string; note?: string }, { id: string; note?: string }, { name: string }, "NOT_FOUND">({
  name: "lookup",
  effect: "read",
  errors: { NOT_FOUND: "No such record." },
  input: {
    type: "object",
    properties: { id: { type: "string", minLength: 3 }, note: { type: "string" }, token: { type: "string", "x-sensitive": true } },
    required: ["id"],
    additionalProperties: false,
  },
  output: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false },
});

const charge = defineContract<{ amount: number }, { amount: number }, { id: string }>({
  name: "charge",
  effect: "write",
  input: { type: "object", properties: { amount: { type: "integer", minimum: 1 } }, required: ["amount"], additionalProperties: false },
  output: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
});

const contracts = { lookup, charge };

/** Handlers that count their calls and do what the test says. */
function setup(behaviour: { lookup?: (input: { id: string }) => unknown; charge?: () => unknown } = {}) {
  const ran = { lookup: 0, charge: 0 };
  const events: TraceEvent[] = [];
  const handlers = {
    lookup: (input: { id: string }, ctx: { reject(reason: "NOT_FOUND"): never }) => {
      ran.lookup++;
      if (input.id === "missing") return ctx.reject("NOT_FOUND");
      return (behaviour.lookup?.(input) ?? { name: "Ada" }) as { name: string };
    },
    charge: () => {
      ran.charge++;
      return (behaviour.charge?.() ?? { id: "ch_1" }) as { id: string };
    },
  };
  const onTrace = (event: TraceEvent): number => events.push(event);
  return { ran, events, handlers, onTrace };
}

type Setup = ReturnType<typeof setup>;

function call(s: Setup, guard: LoopGuard, tool: string, input: unknown) {
  return executeByName(contracts, tool as "lookup", input, s.handlers as never, { guard, onTrace: s.onTrace });
}

describe("INVALID_INPUT: once, with a named field changed", () => {
  it("refuses the same arguments again without running the handler, with the earlier issues attached", async () => {
    const s = setup();
    const guard = createLoopGuard();
    const first = await call(s, guard, "lookup", { id: "ab", note: "x" });
    expect(first).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "id" }] });
    // The same call, its keys in another order.
    const again = await call(s, guard, "lookup", { note: "x", id: "ab" });
    expect(again).toEqual({
      ok: false,
      code: "REJECTED",
      message: expect.stringContaining("change the fields the issues name (id)"),
      issues: first.ok ? [] : first.issues,
      reason: "REPEATED_CALL",
      retryable: false,
      effect: "none",
      tool: "lookup",
      version: 2,
      attempts: 0,
    });
    expect(s.ran.lookup).toBe(0);
    expect(guard.stop).toBeUndefined();
    expect(s.events.at(-1)).toEqual({
      tool: "lookup",
      version: 2,
      attempt: 0,
      durationMs: 0,
      code: "REJECTED",
      effect: "none",
      issuePaths: ["id"],
      guard: { action: "refused", reason: "REPEATED_CALL" },
    });
  });

  it("refuses a call that changes only fields the issues did not name", async () => {
    const s = setup();
    const guard = createLoopGuard();
    await call(s, guard, "lookup", { id: "ab", note: "x" });
    const moved = await call(s, guard, "lookup", { id: "ab", note: "changed" });
    expect(moved).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL" });
    expect(s.ran.lookup).toBe(0);
  });

  it("runs a correction that changes a named field, and a valid one ends the episode", async () => {
    const s = setup();
    const guard = createLoopGuard();
    await call(s, guard, "lookup", { id: "ab" });
    expect(await call(s, guard, "lookup", { id: "abc" })).toEqual({ ok: true, data: { name: "Ada" } });
    expect(s.ran.lookup).toBe(1);
    expect(guard.stop).toBeUndefined();
    // The invalid arguments stay refused: they would fail the same way.
    expect(await call(s, guard, "lookup", { id: "ab" })).toMatchObject({ reason: "REPEATED_CALL" });
  });

  it("counts adding a missing required field, or removing an undeclared one, as a correction", async () => {
    const s = setup();
    const guard = createLoopGuard();
    expect(await call(s, guard, "lookup", { id: "abc", extra: 1 })).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "extra" }] });
    expect(await call(s, guard, "lookup", { id: "abc" })).toMatchObject({ ok: true });
    expect(await call(s, guard, "charge", {})).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "amount" }] });
    expect(await call(s, guard, "charge", { amount: 5 })).toMatchObject({ ok: true });
    expect(guard.stop).toBeUndefined();
  });

  it("stops the loop when the correction is invalid too (CORRECTIONS_SPENT), with evidence and a summary", async () => {
    const s = setup();
    const guard = createLoopGuard();
    await call(s, guard, "lookup", { id: "ab" });
    await call(s, guard, "lookup", { id: "ab" });
    const corrected = await call(s, guard, "lookup", { id: "a" });
    expect(corrected).toMatchObject({ code: "INVALID_INPUT" });
    expect(guard.stop).toEqual({
      reason: "CORRECTIONS_SPENT",
      tool: "lookup",
      version: 2,
      evidence: [
        { tool: "lookup", version: 2, code: "INVALID_INPUT", effect: "none", attempts: 0, issuePaths: ["id"] },
        { tool: "lookup", version: 2, code: "REJECTED", effect: "none", attempts: 0, issuePaths: ["id"], refused: "REPEATED_CALL" },
        { tool: "lookup", version: 2, code: "INVALID_INPUT", effect: "none", attempts: 0, issuePaths: ["id"] },
      ],
      summary: expect.stringContaining("lookup (contract version 2) was called with invalid input again after its corrections were spent"),
    });
    expect(s.events.at(-1)).toMatchObject({ code: "INVALID_INPUT", guard: { action: "stopped", reason: "CORRECTIONS_SPENT" } });
    // A loop that ignores the stop is refused, whatever it sends.
    expect(await call(s, guard, "lookup", { id: "abcd" })).toMatchObject({ code: "REJECTED", reason: "LOOP_STOPPED" });
    expect(s.ran.lookup).toBe(0);
  });

  it("takes the budget from the options, per tool", async () => {
    const s = setup();
    const guard = createLoopGuard({ corrections: 0, correctionsByTool: { lookup: 2 } });
    await call(s, guard, "lookup", { id: "a" });
    await call(s, guard, "lookup", { id: "ab" });
    expect(guard.stop).toBeUndefined();
    await call(s, guard, "lookup", { id: "b" });
    expect(guard.stop?.reason).toBe("CORRECTIONS_SPENT");
    const strict = createLoopGuard({ corrections: 0 });
    await call(s, strict, "charge", { amount: 0 });
    expect(strict.stop?.reason).toBe("CORRECTIONS_SPENT");
  });

  it("stops a model that keeps resending the refused call (REPEATED_CALL)", async () => {
    const s = setup();
    const guard = createLoopGuard();
    await call(s, guard, "lookup", { id: "ab" });
    await call(s, guard, "lookup", { id: "ab" });
    expect(guard.stop).toBeUndefined();
    await call(s, guard, "lookup", { id: "ab" });
    expect(guard.stop).toMatchObject({ reason: "REPEATED_CALL", tool: "lookup" });
    expect(s.ran.lookup).toBe(0);
  });
});

describe("INVALID_OUTPUT: no", () => {
  it("stops the loop and refuses every later call, the handler never running again", async () => {
    const s = setup({ lookup: () => ({ wrong: true }) });
    const guard = createLoopGuard();
    expect(await call(s, guard, "lookup", { id: "abc" })).toMatchObject({ code: "INVALID_OUTPUT" });
    expect(guard.stop).toMatchObject({ reason: "INVALID_OUTPUT", tool: "lookup", evidence: [{ code: "INVALID_OUTPUT", attempts: 1 }] });
    expect(s.events.at(-1)).toMatchObject({ tool: "lookup", version: 2, code: "INVALID_OUTPUT", attempt: 1, guard: { action: "stopped", reason: "INVALID_OUTPUT" } });
    expect(await call(s, guard, "lookup", { id: "other" })).toMatchObject({ reason: "LOOP_STOPPED" });
    expect(await call(s, guard, "charge", { amount: 1 })).toMatchObject({ reason: "LOOP_STOPPED" });
    expect(s.ran).toEqual({ lookup: 1, charge: 0 });
  });
});

describe("RETRYABLE: no, the executor already applied the policy", () => {
  it("refuses the same call; another step runs", async () => {
    const s = setup({
      lookup: (input) => {
        if (input.id === "busy") throw new TransientError("try later");
        return { name: "Ada" };
      },
    });
    const guard = createLoopGuard();
    expect(await call(s, guard, "lookup", { id: "busy" })).toMatchObject({ code: "RETRYABLE" });
    expect(await call(s, guard, "lookup", { id: "busy" })).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL", message: expect.stringContaining("already failed") });
    expect(await call(s, guard, "lookup", { id: "calm" })).toMatchObject({ ok: true });
    expect(s.ran.lookup).toBe(2);
    expect(guard.stop).toBeUndefined();
  });
});

describe("REJECTED: not the same call", () => {
  it("refuses the same call; a new decision runs", async () => {
    const s = setup();
    const guard = createLoopGuard();
    expect(await call(s, guard, "lookup", { id: "missing" })).toMatchObject({ code: "REJECTED", reason: "NOT_FOUND" });
    expect(await call(s, guard, "lookup", { id: "missing" })).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL" });
    expect(await call(s, guard, "lookup", { id: "present" })).toMatchObject({ ok: true });
    expect(s.ran.lookup).toBe(2);
    expect(guard.stop).toBeUndefined();
  });
});

describe("effect unknown on a write: no", () => {
  it("stops the loop; the write is never called again, with these arguments or others", async () => {
    const s = setup({
      charge: () => {
        throw new TransientError("gateway timeout");
      },
    });
    const guard = createLoopGuard();
    expect(await call(s, guard, "charge", { amount: 5 })).toMatchObject({ code: "FAILED", effect: "unknown" });
    expect(guard.stop).toMatchObject({ reason: "UNKNOWN_EFFECT", tool: "charge", summary: expect.stringContaining("may have taken effect") });
    expect(s.events.at(-1)).toMatchObject({ code: "FAILED", effect: "unknown", guard: { action: "stopped", reason: "UNKNOWN_EFFECT" } });
    expect(await call(s, guard, "charge", { amount: 5 })).toMatchObject({ reason: "LOOP_STOPPED" });
    expect(await call(s, guard, "charge", { amount: 6 })).toMatchObject({ reason: "LOOP_STOPPED" });
    expect(s.ran.charge).toBe(1);
  });

  it("does not stop on a read that failed (its effect is none)", async () => {
    const s = setup({
      lookup: () => {
        throw new Error("boom");
      },
    });
    const guard = createLoopGuard();
    expect(await call(s, guard, "lookup", { id: "abc" })).toMatchObject({ code: "FAILED", effect: "none" });
    expect(guard.stop).toBeUndefined();
  });
});

describe("bad input", () => {
  it("refuses an unknown tool called again, and stops a model that keeps inventing tools, without growing", async () => {
    const s = setup();
    const guard = createLoopGuard();
    expect(await call(s, guard, "nope", {})).toMatchObject({ code: "FAILED", message: 'Unknown tool "nope".' });
    expect(await call(s, guard, "nope", { other: 1 })).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL" });
    await call(s, guard, "nope2", {});
    expect(guard.stop).toBeUndefined();
    await call(s, guard, "nope3", {});
    expect(guard.stop).toMatchObject({ reason: "UNKNOWN_TOOL", tool: "nope3", version: 0 });
  });

  it("stops a model alternating two invalid payloads", async () => {
    const s = setup();
    const guard = createLoopGuard({ corrections: 5 });
    const a = { id: "a" };
    const b = { id: "b" };
    expect(await call(s, guard, "lookup", a)).toMatchObject({ code: "INVALID_INPUT" });
    expect(await call(s, guard, "lookup", b)).toMatchObject({ code: "INVALID_INPUT" });
    expect(await call(s, guard, "lookup", a)).toMatchObject({ reason: "REPEATED_CALL" });
    expect(await call(s, guard, "lookup", b)).toMatchObject({ reason: "REPEATED_CALL" });
    expect(guard.stop?.reason).toBe("REPEATED_CALL");
    // With the default budget, the second payload already spends it.
    const strict = createLoopGuard();
    await call(s, strict, "lookup", a);
    await call(s, strict, "lookup", b);
    expect(strict.stop?.reason).toBe("CORRECTIONS_SPENT");
    expect(s.ran.lookup).toBe(0);
  });

  it("stops a guard bound to one conversation when another uses it, and refuses that call", async () => {
    const s = setup();
    const guard = createLoopGuard();
    expect(guard.bind({ role: "user", content: "first conversation" })).toBe(true);
    expect(guard.bind({ role: "user", content: "first conversation" })).toBe(true);
    expect(guard.bind({ role: "user", content: "second conversation" })).toBe(false);
    expect(guard.refuseShared(lookup, "lookup", s.onTrace)).toMatchObject({ code: "REJECTED", reason: "LOOP_STOPPED" });
    expect(guard.stop).toMatchObject({ reason: "SHARED_GUARD", summary: expect.stringContaining("one guard per conversation") });
    expect(s.events.map((e) => e.guard)).toEqual([
      { action: "stopped", reason: "SHARED_GUARD" },
      { action: "refused", reason: "LOOP_STOPPED" },
    ]);
  });

  it("stops a guard that passes its call limit (a runaway loop, or one guard shared by many conversations)", async () => {
    const s = setup();
    const guard = createLoopGuard({ maxCalls: 3 });
    for (let i = 0; i < 3; i++) expect(await call(s, guard, "lookup", { id: `id_${i}` })).toMatchObject({ ok: true });
    expect(await call(s, guard, "lookup", { id: "id_3" })).toMatchObject({ reason: "LOOP_STOPPED" });
    expect(guard.stop?.reason).toBe("CALL_LIMIT");
    expect(s.ran.lookup).toBe(3);
  });

  it("keeps bounded memory over a long conversation: the evidence, and the failed calls per tool", async () => {
    const s = setup();
    const guard = createLoopGuard({ corrections: 1_000_000, maxCalls: 1_000_000 });
    for (let i = 0; i < 2_000; i++) await call(s, guard, "lookup", { id: `${i % 10}` });
    const internals = guard as unknown as { tools: Map<string, { failed: unknown[] }>; evidence: unknown[] };
    expect(internals.evidence.length).toBe(MAX_EVIDENCE);
    expect(internals.tools.get("lookup")?.failed.length).toBe(8);
    expect(internals.tools.size).toBe(1);
    for (let i = 0; i < 500; i++) await call(s, guard, `invented_${i}`, {});
    expect(internals.tools.size).toBe(1);
  });

  it("gives the evidence oldest first, ending with the call that stopped the loop, once the ring has wrapped", async () => {
    const s = setup({
      charge: () => {
        throw new Error("reset");
      },
    });
    const guard = createLoopGuard({ corrections: 1_000 });
    for (let i = 0; i < MAX_EVIDENCE + 5; i++) await call(s, guard, "lookup", { id: `${i}` });
    await call(s, guard, "charge", { amount: 1 });
    const evidence = guard.stop?.evidence ?? [];
    expect(evidence).toHaveLength(MAX_EVIDENCE);
    expect(evidence.at(-1)).toMatchObject({ tool: "charge", code: "FAILED", effect: "unknown" });
    expect(evidence.slice(0, -1).every((e) => e.tool === "lookup" && e.code === "INVALID_INPUT")).toBe(true);
  });

  it("keeps no argument values, secrets included, in its evidence or its trace events", async () => {
    const s = setup();
    const guard = createLoopGuard({ corrections: 0 });
    await call(s, guard, "lookup", { id: "x", token: SECRET_VALUE, note: SECRET_VALUE });
    expect(guard.stop).toBeDefined();
    expect(JSON.stringify(guard.stop)).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(s.events)).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(guard)).not.toContain(SECRET_VALUE);
  });

  it("never throws on hostile arguments: a cycle, a throwing getter, a Proxy", async () => {
    const s = setup();
    const guard = createLoopGuard();
    const cycle: Record<string, unknown> = { id: "ab" };
    cycle["self"] = cycle;
    const getter = Object.defineProperty({}, "id", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("no"); } });
    for (const input of [cycle, getter, proxy, undefined, null, 1n]) {
      const result = await call(s, guard, "lookup", input);
      expect(result.ok).toBe(false);
    }
  });

  it("works through executeTool as well as by name, and a guard that throws still ends in an envelope", async () => {
    const s = setup();
    const guard = createLoopGuard();
    await executeTool(lookup, { id: "ab" }, s.handlers.lookup as never, { guard });
    expect(await executeTool(lookup, { id: "ab" }, s.handlers.lookup as never, { guard })).toMatchObject({ reason: "REPEATED_CALL" });
    const broken = { run: () => { throw new Error("broken guard"); } } as unknown as LoopGuard;
    expect(await executeTool(lookup, { id: "abc" }, s.handlers.lookup as never, { guard: broken })).toMatchObject({ ok: false, code: "FAILED" });
  });
});

describe("the keyed digest", () => {
  it("is the same for the same JSON whatever the key order, differs by value, and by key between guards", () => {
    const key = newDigestKey();
    expect(digestValue(key, { a: 1, b: [true, null, "x"] })).toBe(digestValue(key, { b: [true, null, "x"], a: 1 }));
    expect(digestValue(key, { a: 1 })).not.toBe(digestValue(key, { a: 2 }));
    expect(digestValue(key, { a: "1" })).not.toBe(digestValue(key, { a: 1 }));
    expect(digestValue(key, { a: undefined })).not.toBe(digestValue(key, { a: null }));
    expect(digestValue(key, "a")).not.toBe(digestValue(key, "a\u0000"));
    expect(digestValue(newDigestKey(), { a: 1 })).not.toBe(digestValue(key, { a: 1 }));
  });

  it("reads issue paths back into segments, and refuses what it cannot read", () => {
    expect(parsePath("")).toEqual([]);
    expect(parsePath("orders[0].status")).toEqual(["orders", 0, "status"]);
    expect(parsePath('filter["a key"].x')).toEqual(["filter", "a key", "x"]);
    expect(parsePath("[REDACTED]")).toBeUndefined();
    expect(parsePath(".a")).toBeUndefined();
    expect(valueAt({ orders: [{ status: "paid" }] }, ["orders", 0, "status"])).toBe("paid");
    expect(valueAt({ orders: [] }, ["orders", 0, "status"])).toBeUndefined();
  });
});
