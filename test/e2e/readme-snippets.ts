/**
 * Every TypeScript block of docs/README-runtime.md, verbatim and in order, so
 * the compiler checks them against the generated API. Nothing here runs:
 * readme-snippets.test.ts type-checks this file and checks that each block of
 * the document still appears in it. The services the snippets use are only
 * declared.
 */
import {
  createServer, createClient, execute, TransientError,
  type Handlers, type TraceEvent, type GetOrderOutput,
} from "../../generated/index.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServer as createNodeServer } from "node:http";
import { createHttpHandler } from "../../generated/http.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CreateRefundOutput, CreateRefundResolvedInput, Order } from "../../generated/index.js";

declare const crm: { find(id: string, o: { signal: AbortSignal }): Promise<{ id: string; blocked: boolean } | undefined> };
declare const ordersDb: { list(id: string, o: { includeCancelled: boolean; signal: AbortSignal }): Promise<Order[]> };
declare const payments: {
  refund(input: CreateRefundResolvedInput, o: { idempotencyKey: string | undefined; signal: AbortSignal }): Promise<CreateRefundOutput>;
};
declare function isTemporary(error: unknown): boolean;
declare function askHuman(message: string): Promise<void>;
declare const requestBody: string;

const handlers: Handlers = {
  get_order: async (input, ctx) => {
    // includeHistory is a boolean here even when the caller left it out (default: false)
    const customer = await crm.find(input.customerId, { signal: ctx.signal });
    if (customer === undefined) return { found: false, customerId: input.customerId, orders: [] };
    if (customer.blocked) return ctx.reject("CUSTOMER_BLOCKED", "This customer is blocked; ask a human.");
    try {
      const orders = await ordersDb.list(customer.id, { includeCancelled: input.includeHistory, signal: ctx.signal });
      return { found: true, customerId: customer.id, orders };
    } catch (error) {
      if (isTemporary(error)) throw new TransientError("orders service unavailable", { cause: error });
      throw error;
    }
  },
  create_refund: async (input, ctx) => {
    // ctx.idempotencyKey is input.requestId: the payment API applies each key once, so retries are safe
    return payments.refund(input, { idempotencyKey: ctx.idempotencyKey, signal: ctx.signal });
  },
};

const result = await execute("get_order", JSON.parse(requestBody), handlers);
if (!result.ok) console.error(result.code, result.message);

// stdout carries the protocol on stdio, so log to stderr. Trace events never carry payload values.
const onTrace = (e: TraceEvent): void => {
  console.error(`${e.tool}@${e.version} attempt=${e.attempt} ${e.code} ${e.protocolVersion ?? e.protocolEra} ${Math.round(e.durationMs)}ms`);
};
// The client's first message picks the protocol: 2026-07-28, or a 2025 revision through `initialize`.
serveStdio(() => createServer(handlers, { onTrace }));

// Stateless: a fresh server and transport per POST, so any number of instances can sit behind a load balancer.
createNodeServer(createHttpHandler(handlers, { path: "/mcp", onTrace })).listen(3000, "127.0.0.1");

// `auto`: speak 2026-07-28 to a server that serves it, else fall back to the 2025 handshake.
const sdkClient = new Client({ name: "my-agent", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await sdkClient.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/mcp")));
const tools = createClient(sdkClient);

const r = await tools.get_order({ customerId: "cus_1" });
if (r.ok) {
  const orders: GetOrderOutput["orders"] = r.data.orders;
  console.log(orders.length);
} else if (r.code === "REJECTED" && r.reason === "CUSTOMER_BLOCKED") {
  await askHuman(r.message);
} else {
  console.error(r.code, r.message, r.issues ?? []);
}
