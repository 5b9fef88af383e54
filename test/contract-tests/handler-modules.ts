/** Handler modules for the demo contracts, written into projects generated with `--handlers src/handlers.ts`. */

export const GOOD_HANDLERS = `import type { Handlers } from "../generated/index.js";

export const handlers: Handlers = {
  get_order: async (input, ctx) => (input.customerId === "cus_blocked" ? ctx.reject("CUSTOMER_BLOCKED", "This customer is blocked.") : { found: true, customerId: input.customerId, orders: [] }),
  search_orders: async () => ({ orders: [], nextCursor: null }),
  create_refund: async (input) => ({ refundId: "re_1", status: "pending", amount: input.amount, createdAt: "2026-03-01T12:00:00Z" }),
  delete_customer: async (input) => ({ deleted: true, customerId: input.customerId }),
};
`;

/** get_order leaks an undeclared field; delete_customer has no handler at all. */
export const BAD_HANDLERS = `import type { Handlers } from "../generated/index.js";

export const handlers = {
  get_order: async (input: { customerId: string }) => ({ found: true, customerId: input.customerId, orders: [], internalNote: "leak" }),
  search_orders: async () => ({ orders: [], nextCursor: null }),
  create_refund: async () => ({ refundId: "re_1", status: "pending", amount: { amountCents: 1, currency: "EUR" }, createdAt: "2026-03-01T12:00:00Z" }),
} as unknown as Handlers;
`;

/** GOOD_HANDLERS, with delete_customer (destructive) leaving a line in effects.log, in the folder vitest runs in, each time it runs. */
export const RECORDING_HANDLERS = GOOD_HANDLERS.replace(
  'import type { Handlers } from "../generated/index.js";',
  'import { appendFileSync } from "node:fs";\nimport type { Handlers } from "../generated/index.js";',
).replace(
  "delete_customer: async (input) => ({",
  'delete_customer: async (input) => (appendFileSync("effects.log", `deleted ${input.customerId}\\n`), {',
);
