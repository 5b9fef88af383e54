/**
 * `toolc generate --handlers MODULE`: the generated contract tests also run
 * every example through the consumer's real handlers. They pass for handlers
 * that keep the contract, and fail, in exactly the real-handler tests, for
 * handlers that do not.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { demoProject, demoTools, expectedTestCount, generate, linkAllModules, runVitest, TESTS_DIR, typecheck, TYPESCRIPTS } from "./project.js";

const GOOD_HANDLERS = `import type { Handlers } from "../generated/index.js";

export const handlers: Handlers = {
  get_order: async (input) => ({ found: true, customerId: input.customerId, orders: [] }),
  search_orders: async () => ({ orders: [], nextCursor: null }),
  create_refund: async (input) => ({ refundId: "re_1", status: "pending", amount: input.amount, createdAt: "2026-03-01T12:00:00Z" }),
  delete_customer: async (input) => ({ deleted: true, customerId: input.customerId }),
};
`;

/** get_order leaks an undeclared field; delete_customer has no handler at all. */
const BAD_HANDLERS = `import type { Handlers } from "../generated/index.js";

export const handlers = {
  get_order: async (input: { customerId: string }) => ({ found: true, customerId: input.customerId, orders: [], internalNote: "leak" }),
  search_orders: async () => ({ orders: [], nextCursor: null }),
  create_refund: async () => ({ refundId: "re_1", status: "pending", amount: { amountCents: 1, currency: "EUR" }, createdAt: "2026-03-01T12:00:00Z" }),
} as unknown as Handlers;
`;

async function projectWithHandlers(text: string): Promise<string> {
  const dir = demoProject({ "src/handlers.ts": text });
  await generate(dir, ["--handlers", "src/handlers.ts"]);
  linkAllModules(dir);
  return dir;
}

const REAL = "examples through the real handlers";

describe("--handlers", () => {
  let good: string;
  beforeAll(async () => {
    good = await projectWithHandlers(GOOD_HANDLERS);
  });

  it("runs every example through handlers that keep the contract, and passes", async () => {
    const result = await runVitest(good);
    expect(result.failed, result.output).toEqual([]);
    expect(result.total).toBe(expectedTestCount(demoTools(), true));
    expect(result.total).toBeGreaterThan(expectedTestCount(demoTools(), false));
  });

  it.each(TYPESCRIPTS)("type-checks under --strict with TypeScript $version, handlers module included", async ({ bin }) => {
    const files = readdirSync(join(good, TESTS_DIR)).map((f) => join(good, TESTS_DIR, f));
    expect(await typecheck(bin, good, files)).toBe("");
  });

  it("fails, in the real-handler tests only, for a handler that leaks a field and a tool with no handler", async () => {
    const dir = await projectWithHandlers(BAD_HANDLERS);
    const result = await runVitest(dir);
    expect(result.code).not.toBe(0);
    expect(result.failed.every((name) => name.includes(REAL))).toBe(true);
    expect([...result.failed].sort()).toEqual([
      expect.stringMatching(/^delete_customer contract examples through the real handlers confirmation is required: gives INVALID_INPUT/),
      expect.stringMatching(/^delete_customer contract examples through the real handlers deletion: succeeds/),
      expect.stringMatching(/^get_order contract examples through the real handlers paid order: succeeds/),
    ]);
  });
});
