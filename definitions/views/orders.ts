/**
 * The view of get_order (MCP Apps): the customer's orders, with buttons that
 * refund one through create_refund.
 *
 * Its data is typed by the generated wrapper (generated/views/get_order.ts):
 * `view` has the type of `createGetOrderView()`, so a contract change this
 * code depends on (a property of get_order's output it reads dropped, an
 * order status its switch does not handle, create_refund's input changed)
 * fails `npx tsc -p definitions/views`.
 *
 * It reaches the host through the small bridge at the end of this file (the
 * extension's JSON-RPC over postMessage, by hand) rather than the extension's
 * `App` class, so it needs no bundler: the imports are types only, and
 * `npm run generate` compiles this file into the <script> of orders.html
 * (scripts/demo-view.ts), which the contract's `ui.source` names. A view built
 * with a bundler calls `createGetOrderView()` instead of `postMessageView()`.
 */
import type { OrderStatus, ToolResult } from "../../generated/index.js";
import type { GetOrderView } from "../../generated/views/get_order.js";

const view = postMessageView();

view.onResult((result) => {
  if (!result.ok) return show("status", "failed: " + result.code);
  const { customerId, orders } = result.data;
  show("status", customerId + ": " + orders.length + " order(s)");
  const items = orders.map((order) => Object.assign(document.createElement("li"), { textContent: order.id + " " + statusLabel(order.status) }));
  element("orders").replaceChildren(...items);
});

/** Every status an order can have: a status added to the contract fails tsc here until it has a label. */
function statusLabel(status: OrderStatus): string {
  switch (status) {
    case "pending":
      return "awaiting payment";
    case "paid":
      return "paid";
    case "cancelled":
      return "cancelled";
    default:
      return unhandled(status);
  }
}

async function refund(amountCents: number): Promise<void> {
  const result = await view.callTool("create_refund", {
    requestId: crypto.randomUUID(),
    orderId: "ord_1",
    amount: { amountCents, currency: "EUR" },
  });
  // A refusal is toolc's failure envelope: INVALID_INPUT names the fields to fix.
  show("outcome", result.ok ? "refund " + result.data.refundId + " " + result.data.status : result.code + " at " + (result.issues ?? []).map((issue) => issue.path).join(","));
}

/** A fetch to any origin: the host's CSP, built from the contract's `ui.csp`, blocks one the contract does not list. */
async function probe(url: string): Promise<void> {
  try {
    await fetch(url);
    show("outcome", "fetch allowed: " + url);
  } catch {
    show("outcome", "fetch blocked: " + url);
  }
}

element("refund").addEventListener("click", () => void refund(1200));
element("refund-bad").addEventListener("click", () => void refund(0));
element("probe").addEventListener("click", () => void probe((element("probe-url") as HTMLInputElement).value));
await view.connect();

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`orders.html has no #${id}`);
  return found;
}

function show(id: string, text: string): void {
  element(id).textContent = text;
}

function unhandled(value: never): never {
  throw new Error(`unhandled value ${String(value)}`);
}

/** The parts of an MCP tool result the view reads. */
interface CallResult {
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
  readonly content?: readonly { readonly text?: unknown }[];
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * The view's side of the extension's protocol (JSON-RPC 2.0 with the parent
 * window): `ui/initialize`, then the host's `ui/notifications/tool-result`,
 * and `tools/call` for the view's own calls, which the host forwards to the
 * server. Typed as the generated wrapper's `GetOrderView`, whose methods the
 * view uses.
 */
function postMessageView(): Pick<GetOrderView, "onResult" | "callTool" | "connect"> {
  const pending = new Map<number, { resolve: (result: CallResult) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let resultHandler: (result: CallResult) => void = () => {};
  const send = (message: object): void => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method: string, params: object): Promise<CallResult> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });

  window.addEventListener("message", (event: MessageEvent<{ jsonrpc?: string; id?: number; method?: string; params?: CallResult; result?: CallResult; error?: { message: string } }>) => {
    const message = event.data;
    if (event.source !== window.parent || message?.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const call = pending.get(message.id ?? -1);
      pending.delete(message.id ?? -1);
      if (message.error !== undefined) call?.reject(new Error(message.error.message));
      else call?.resolve(message.result ?? {});
    } else if (message.method === "ui/notifications/tool-result") resultHandler(message.params ?? {});
    else if (message.id !== undefined) send({ id: message.id, result: {} }); // ping, ui/resource-teardown
  });

  return {
    onResult(handler) {
      resultHandler = (result) => handler(envelope(result, "get_order"));
    },
    async callTool(name, input) {
      return envelope(await request("tools/call", { name, arguments: input }), name);
    },
    async connect() {
      await request("ui/initialize", { appInfo: { name: "get_order view", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" });
      send({ method: "ui/notifications/initialized" });
    },
  };
}

/**
 * A tool result as toolc's envelope, as the wrapper reads it: the output is
 * the `structuredContent` (the server validated it against the contract), a
 * failure the envelope toolc's server puts under `_meta["toolc/failure"]`.
 */
function envelope<Out, Reason extends string>(result: CallResult, tool: string): ToolResult<Out, Reason> {
  if (result.isError !== true) return { ok: true, data: result.structuredContent as Out };
  const failure = result._meta?.["toolc/failure"];
  if (typeof failure === "object" && failure !== null) return failure as ToolResult<Out, Reason>;
  const text = result.content?.[0]?.text;
  return { ok: false, code: "FAILED", message: typeof text === "string" ? text : "the call failed", retryable: false, effect: "unknown", tool, version: 0, attempts: 1 };
}
