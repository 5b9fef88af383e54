/**
 * The contract-test runner on a confirmed, destructive tool, through the
 * real executor: the spy cases approve their calls (a spy has no effect),
 * so they pass; with handlers, a held-back tool's examples are declared
 * skipped and its real handler never runs, not even for an invalid example.
 */
import { describe, expect, it } from "vitest";
import { executeByName } from "../../generator/runtime/dispatch.js";
import { runContractTests, type TestFramework } from "../../generator/runtime/contract-tests.js";
import type { HandlersFor } from "../../generator/runtime/types.js";
import { transfer } from "../runtime/transfer-contract.js";

const contracts = { transfer };
type H = HandlersFor<typeof contracts>;
const INPUT = { to: "acct_1", amount: { value: 5, currency: "EUR" } };
const TABLE = {
  tool: "transfer" as const,
  validExamples: [{ name: "a transfer", input: INPUT, resolvedInput: { ...INPUT, priority: "normal" }, output: { sent: true } }],
  invalidExamples: [{ name: "no recipient", input: { amount: INPUT.amount }, paths: ["to"] }],
};

/** A framework that collects the declared cases instead of running them. */
function collecting() {
  const cases: { name: string; skipped: boolean; body: () => Promise<void> }[] = [];
  const prefix: string[] = [];
  const it = Object.assign((name: string, body: () => Promise<void>) => void cases.push({ name: [...prefix, name].join(" > "), skipped: false, body }), {
    skip: (name: string, body: () => Promise<void>) => void cases.push({ name: [...prefix, name].join(" > "), skipped: true, body }),
  });
  const framework: TestFramework = {
    describe: (name, body) => {
      prefix.push(name);
      body();
      prefix.pop();
    },
    it,
    expect: (actual, message) => expect(actual, message) as never,
  };
  return { cases, framework };
}

const execute = (tool: "transfer", input: unknown, handlers: H, options?: { confirm?: () => boolean }) => executeByName(contracts, tool, input, handlers, options);
const server = { connect: async () => undefined, close: async () => undefined };

describe("contract tests of a confirmed tool", () => {
  it("the spy cases approve their calls, so the examples pass through the executor's border", async () => {
    const { cases, framework } = collecting();
    runContractTests(framework, { contracts, execute, createServer: () => server }, TABLE);
    const examples = cases.filter((c) => c.name.includes("examples"));
    expect(examples.map((c) => c.name)).toEqual([
      "transfer contract > examples > a transfer: succeeds with the handler's output, and the handler gets the input with defaults applied",
      "transfer contract > examples > no recipient: gives INVALID_INPUT at to, and the handler is never called",
    ]);
    for (const c of examples) await c.body();
  });

  it("with handlers, a held-back tool's examples are skipped, and its real handler never runs", async () => {
    const ran: unknown[] = [];
    const handlers: H = { transfer: (input) => (ran.push(input), { sent: true }) };
    const { cases, framework } = collecting();
    runContractTests(framework, { contracts, execute, createServer: () => server, handlers }, { ...TABLE, heldBack: "transfer is destructive and confirmed" });
    const real = cases.filter((c) => c.name.includes("through the real handlers"));
    expect(real.map((c) => [c.name.replace(/^.*> /, ""), c.skipped])).toEqual([
      ["a transfer: succeeds, with output the output schema accepts (not run: transfer is destructive and confirmed)", true],
      ["no recipient: gives INVALID_INPUT, and the real handler is never called", false],
    ]);
    for (const c of real.filter((r) => !r.skipped)) await c.body();
    expect(ran).toEqual([]);
  });
});
