/**
 * `toolc generate --handlers MODULE`: the generated contract tests also run
 * every example through the consumer's real handlers. They pass for handlers
 * that keep the contract, and fail, in exactly the real-handler tests, for
 * handlers that do not.
 */
import { describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BAD_HANDLERS, RECORDING_HANDLERS } from "./handler-modules.js";
import { demoTools, expectedTestCount, generate, projectWithHandlers, runVitest } from "./project.js";

const REAL = "examples through the real handlers";

describe("--handlers", () => {
  it("runs every example through handlers that keep the contract, and passes", async () => {
    // The global setup generated it with GOOD_HANDLERS (handler-modules.ts), and type-checks it.
    const result = await runVitest(typecheckFixture("handlers"));
    expect(result.failed, result.output).toEqual([]);
    expect(result.total).toBe(expectedTestCount(demoTools(), true));
    expect(result.total).toBeGreaterThan(expectedTestCount(demoTools(), false));
  });

  it.each(TYPESCRIPTS)("type-checks under every strict flag with TypeScript $version, handlers module included", ({ version }) => {
    expect(tscOutput("consumer", version, "handlers")).toBe("");
  });

  it("fails, in the real-handler tests only, for a handler that leaks a field and a tool with no handler", async () => {
    const dir = await projectWithHandlers(BAD_HANDLERS);
    const result = await runVitest(dir);
    expect(result.code).not.toBe(0);
    expect(result.failed.every((name) => name.includes(REAL))).toBe(true);
    expect([...result.failed].sort()).toEqual([
      // delete_customer is destructive: its valid example is skipped, but a handler missing altogether still fails.
      expect.stringMatching(/^delete_customer contract examples through the real handlers confirmation is required: gives INVALID_INPUT/),
      expect.stringMatching(/^get_order contract examples through the real handlers a blocked customer is turned down: gives REJECTED with reason CUSTOMER_BLOCKED/),
      expect.stringMatching(/^get_order contract examples through the real handlers paid order: succeeds/),
    ]);
    // A failure names what the call came to: the envelope's code, reason and message, not a truncated object diff.
    const messages = result.failureMessages.join("\n");
    expect(messages).toContain("the call returned INVALID_OUTPUT: The tool produced output that does not match its output schema.; issues: none");
    expect(messages).toMatch(/the call returned INVALID_OUTPUT: [^\n]*: expected \{ ok: false, code: 'INVALID_OUTPUT' \} to deeply equal \{ ok: false, code: 'REJECTED'/);
    // A generate and a whole vitest run in a child process.
  }, 180_000);

  it("never runs a destructive tool's real handler unless runInTests lists destructive (#34)", async () => {
    const dir = await projectWithHandlers(RECORDING_HANDLERS);
    const held = await runVitest(dir);
    expect(held.failed, held.output).toEqual([]);
    expect(existsSync(join(dir, "effects.log"))).toBe(false);
    expect(held.passed).toBe(held.total - 1);
    expect(readFileSync(join(dir, "test/toolc/delete_customer.test.ts"), "utf8")).toContain(
      'heldBack: "delete_customer is destructive; list destructive in runInTests (toolc.config.yaml) to run its handler here"',
    );
    writeFileSync(join(dir, "toolc.config.yaml"), "handlers: src/handlers.ts\nrunInTests: [destructive]\n");
    await generate(dir);
    const run = await runVitest(dir);
    expect(run.failed, run.output).toEqual([]);
    expect(run.passed).toBe(run.total);
    expect(readFileSync(join(dir, "effects.log"), "utf8")).toBe("deleted cus_9\n");
    // Two generates and two whole vitest runs in child processes.
  }, 300_000);
});
