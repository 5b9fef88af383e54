/**
 * The fixture's view, as a consumer writes it: TypeScript against the
 * generated wrapper (generated/views/show_order.ts), which the browser test
 * bundles into the view's HTML and the type test compiles under the strict
 * flags. Kept as text: it imports the generated folder of a project the
 * tests make, which toolc's own tsc does not see.
 */
export const ORDER_VIEW_SOURCE = `import { createShowOrderView } from "../generated/views/show_order.js";

const view = createShowOrderView();
const status = document.getElementById("status")!;
const outcome = document.getElementById("outcome")!;
const LABELS = { paid: "Paid", shipped: "Shipped", refunded: "Refunded" };

view.onResult((result) => {
  if (!result.ok) {
    status.textContent = "failed: " + result.code;
    return;
  }
  const order = result.data;
  const label: string = LABELS[order.status];
  status.textContent = order.orderId + ": " + label + ", " + (order.total / 100).toFixed(2);
});

async function refund(amount: number): Promise<void> {
  const result = await view.callTool("refund_order", { orderId: "ord_1", amount });
  outcome.textContent = result.ok ? "refunded " + result.data.refunded : result.code + " at " + (result.issues ?? []).map((i) => i.path).join(",");
}

/** A fetch to an origin the contract's CSP does not list: the host's policy must block it. */
async function probe(url: string): Promise<void> {
  try {
    await fetch(url);
    outcome.textContent = "fetch allowed: " + url;
  } catch {
    outcome.textContent = "fetch blocked: " + url;
  }
}

document.getElementById("refund")!.addEventListener("click", () => void refund(300));
document.getElementById("refund-bad")!.addEventListener("click", () => void refund(0));
document.getElementById("probe")!.addEventListener("click", () => void probe((document.getElementById("probe-url") as HTMLInputElement).value));
await view.connect();
`;
