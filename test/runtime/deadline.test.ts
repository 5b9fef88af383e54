/**
 * The shared deadline timer behind every attempt's timeout: deadlines fire in
 * order whatever order they were set in, a cleared one never fires, and an
 * idle executor does not hold the process open.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clearDeadline, setDeadline } from "../../generator/runtime/deadline.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A deadline `ms` after `from`: one base time for a batch, so a stall between the calls cannot reorder their deadlines. */
function expiry(ms: number, fired: number[], from = performance.now()): Promise<void> {
  return new Promise((resolve) => {
    setDeadline(from + ms, () => {
      fired.push(ms);
      resolve();
    });
  });
}

/** A script that runs one call of a one-attempt read tool through the executor and prints the result. */
function writeScript(timeoutMs: number, handler: string): string {
  const script = join(mkdtempSync(join(tmpdir(), "toolc-deadline-")), "run.mts");
  writeFileSync(
    script,
    `import { executeTool } from ${JSON.stringify(join(ROOT, "generator/runtime/executor.ts"))};
const contract = { name: "t", version: 1, effect: "read", idempotent: true, timeoutMs: ${timeoutMs}, retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
  errors: {}, inputSchema: {}, outputSchema: {}, annotations: {}, meta: {}, sensitive: { input: [], output: [] },
  validators: { validateInput: () => true, validateOutput: () => true } };
console.log(JSON.stringify(await executeTool(contract, {}, ${handler})));
`,
  );
  return script;
}

describe("deadlines on one timer", () => {
  it("fire in deadline order, also when a shorter one arrives after a longer one", async () => {
    const fired: number[] = [];
    const now = performance.now();
    await Promise.all([expiry(60, fired, now), expiry(20, fired, now), expiry(40, fired, now), expiry(0, fired, now)]);
    expect(fired).toEqual([0, 20, 40, 60]);
  });

  it("fire in deadline order when several are due at once, as after a stall", async () => {
    const fired: number[] = [];
    // All four already past when set: one pass expires them together.
    const stalled = performance.now() - 100;
    await Promise.all([expiry(60, fired, stalled), expiry(20, fired, stalled), expiry(40, fired, stalled), expiry(0, fired, stalled)]);
    expect(fired).toEqual([0, 20, 40, 60]);
  });

  it("never fire once cleared, while the others still do", async () => {
    const fired: string[] = [];
    const cleared = setDeadline(performance.now() + 10, () => fired.push("cleared"));
    const kept = new Promise<void>((resolve) => setDeadline(performance.now() + 30, () => resolve(void fired.push("kept"))));
    clearDeadline(cleared);
    clearDeadline(cleared);
    await kept;
    expect(fired).toEqual(["kept"]);
  });

  it("do not keep an idle process alive: a call with a ten-minute timeout that finished lets node exit", () => {
    const script = writeScript(600_000, "async () => ({ done: true })");
    // The child must exit by itself; the 60 s kill is only a guard against a hang failing the whole run.
    const out = execFileSync(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), script], { timeout: 60_000, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ ok: true, data: { done: true } });
  });

  it("hold the process for an attempt in flight: a handler that never settles, with nothing else to wait for, still times out", () => {
    const script = writeScript(50, "() => new Promise(() => {})");
    const out = execFileSync(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), script], { timeout: 60_000, encoding: "utf8" });
    expect(JSON.parse(out)).toMatchObject({ ok: false, code: "RETRYABLE", message: "The tool timed out after 50 ms." });
  });
});
