/**
 * In-memory handlers for the demo contracts. They stand in for real services
 * (an orders database, a payment provider) so the server can be tried with
 * the MCP Inspector or a desktop client without any infrastructure.
 */
import {
  TransientError,
  type CreateRefundOutput,
  type CreateRefundResolvedInput,
  type Handlers,
  type Order,
  type SearchOrdersResolvedInput,
} from "../generated/index.js";

export interface DemoCustomer {
  id: string;
  name: string;
  blocked: boolean;
  /** How many more calls touching this customer fail with a TransientError, to show retries. */
  transientFailures: number;
}

export interface DemoOrder extends Order {
  customerId: string;
  currency: string;
  refundedCents: number;
}

export interface DemoStore {
  customers: Map<string, DemoCustomer>;
  orders: Map<string, DemoOrder>;
  /** Refunds by idempotency key: a requestId seen before returns the refund it created. */
  refunds: Map<string, CreateRefundOutput>;
  adminToken: string;
}

export interface DemoOptions {
  /** Clock for refund timestamps; injectable so tests can pin it. */
  now?: () => Date;
}

/** The admin credential delete_customer expects in the demo. */
export const DEMO_ADMIN_TOKEN = "demo-admin-token";

const PAGE_CURSOR = /^c_(\d+)$/;

export function createDemoStore(): DemoStore {
  const customers: DemoCustomer[] = [
    { id: "cus_1", name: "Ada", blocked: false, transientFailures: 0 },
    { id: "cus_2", name: "Grace", blocked: false, transientFailures: 0 },
    { id: "cus_9", name: "Linus", blocked: false, transientFailures: 0 },
    { id: "cus_blocked", name: "Mallory", blocked: true, transientFailures: 0 },
    { id: "cus_flaky", name: "Flo", blocked: false, transientFailures: 1 },
  ];
  const orders: DemoOrder[] = [
    order("ord_1", "cus_1", "paid", 1200, "2026-01-02T10:00:00Z"),
    order("ord_2", "cus_1", "cancelled", 450, "2026-01-05T09:30:00Z"),
    order("ord_3", "cus_2", "pending", 990, "2026-02-01T14:00:00Z"),
    order("ord_4", "cus_2", "paid", 3000, "2026-02-03T08:15:00Z"),
    order("ord_5", "cus_flaky", "paid", 700, "2026-02-10T12:00:00Z"),
  ];
  return {
    customers: new Map(customers.map((c) => [c.id, c])),
    orders: new Map(orders.map((o) => [o.id, o])),
    refunds: new Map(),
    adminToken: DEMO_ADMIN_TOKEN,
  };
}

function order(
  id: string,
  customerId: string,
  status: Order["status"],
  amountCents: number,
  placedAt: string,
): DemoOrder {
  return { id, customerId, status, amountCents, placedAt, currency: "EUR", refundedCents: 0 };
}

/** The public view of an order: only the fields the contract declares. */
function publicOrder(o: DemoOrder): Order {
  return { id: o.id, status: o.status, amountCents: o.amountCents, placedAt: o.placedAt };
}

/** Simulates a dependency outage for customers set up to be flaky. */
function touch(store: DemoStore, customerId: string): DemoCustomer | undefined {
  const customer = store.customers.get(customerId);
  if (customer !== undefined && customer.transientFailures > 0) {
    customer.transientFailures--;
    throw new TransientError("customer service temporarily unavailable");
  }
  return customer;
}

function ordersOf(store: DemoStore, customerId: string): DemoOrder[] {
  return [...store.orders.values()].filter((o) => o.customerId === customerId);
}

function matches(o: DemoOrder, filter: SearchOrdersResolvedInput["filter"]): boolean {
  if ("customerId" in filter) return o.customerId === filter.customerId;
  if (!filter.status.includes(o.status)) return false;
  const after = filter.placedAfter;
  return after == null || Date.parse(o.placedAt ?? "") > Date.parse(after);
}

function pageStart(cursor: string | null): number {
  if (cursor === null) return 0;
  const m = PAGE_CURSOR.exec(cursor);
  // No declared rejection fits a forged cursor; a plain error becomes a generic FAILED.
  if (m === null) throw new Error("unrecognised cursor");
  return Number(m[1]);
}

function newRefund(
  store: DemoStore,
  input: CreateRefundResolvedInput,
  o: DemoOrder,
  now: () => Date,
): CreateRefundOutput {
  o.refundedCents += input.amount.amountCents;
  return {
    refundId: `re_${store.refunds.size + 1}`,
    status: "pending",
    amount: { ...input.amount },
    createdAt: now().toISOString(),
  };
}

/** Fresh handlers over a fresh store, so each test (or server) has its own state. */
export function createDemoHandlers(options: DemoOptions = {}): { handlers: Handlers; store: DemoStore } {
  const store = createDemoStore();
  const now = options.now ?? (() => new Date());
  const handlers: Handlers = {
    get_order: (input, ctx) => {
      const customer = touch(store, input.customerId);
      if (customer === undefined) return { found: false, customerId: input.customerId, orders: [] };
      if (customer.blocked) return ctx.reject("CUSTOMER_BLOCKED", "This customer is blocked; ask a human.");
      const orders = ordersOf(store, customer.id)
        .filter((o) => input.includeHistory || o.status !== "cancelled")
        .map(publicOrder);
      return { found: true, customerId: customer.id, orders };
    },

    create_refund: (input, ctx) => {
      // The key is the contract's requestId; replaying it returns the first result, so retries are safe.
      const key = ctx.idempotencyKey ?? input.requestId;
      const previous = store.refunds.get(key);
      if (previous !== undefined) return previous;
      const o = store.orders.get(input.orderId);
      if (o === undefined || o.status !== "paid") {
        return ctx.reject("ORDER_NOT_PAID", "Only paid orders can be refunded.");
      }
      touch(store, o.customerId);
      if (input.amount.currency !== o.currency) throw new Error("currency mismatch");
      if (input.amount.amountCents > (o.amountCents ?? 0) - o.refundedCents) {
        return ctx.reject("AMOUNT_TOO_LARGE", "The refund exceeds what is left to refund.");
      }
      const refund = newRefund(store, input, o, now);
      store.refunds.set(key, refund);
      return refund;
    },

    delete_customer: (input, ctx) => {
      // A wrong credential is not a business rule the contract declares, so it is a plain failure.
      if (input.adminToken !== store.adminToken) throw new Error("admin token rejected");
      const customer = touch(store, input.customerId);
      if (customer === undefined) return { deleted: false, customerId: input.customerId };
      const open = ordersOf(store, customer.id).filter((o) => o.status === "pending");
      if (open.length > 0) {
        return ctx.reject("HAS_OPEN_ORDERS", `Cancel ${open.length} open order(s) first.`);
      }
      for (const o of ordersOf(store, customer.id)) store.orders.delete(o.id);
      store.customers.delete(customer.id);
      return { deleted: true, customerId: customer.id };
    },

    search_orders: (input) => {
      const all = [...store.orders.values()]
        .filter((o) => matches(o, input.filter))
        .sort((a, b) => a.id.localeCompare(b.id));
      const start = pageStart(input.cursor);
      const end = start + input.limit;
      return {
        orders: all.slice(start, end).map(publicOrder),
        nextCursor: end < all.length ? `c_${end}` : null,
      };
    },
  };
  return { handlers, store };
}
