/**
 * The catalog says which tools have a view (MCP Apps), in words: a `view`
 * badge, the view's title, description and ui:// URI, the tools it calls,
 * and who may call an app-only tool.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { policyFacts, toolBadges } from "../../generator/emit/catalog/tool-facts.js";
import { ROOT } from "../compiler/helpers.js";

const tools = normalize(loadDefinitions(join(ROOT, "test/fixtures/apps"), { displayRoot: ROOT })).ir.tools;
const byName = (name: string) => tools.find((t) => t.name === name)!;
const words = (value: readonly unknown[]): string => JSON.stringify(value);

describe("the catalog and views", () => {
  it("a tool with a view: its badge, and the view in words with its URI and the tools it calls", () => {
    const show = byName("show_order");
    expect(words(toolBadges(show))).toContain('"view"');
    const facts = Object.fromEntries(policyFacts(show).map((f) => [f.label, words(f.value)]));
    expect(facts["View"]).toContain("Order: The order's status and total, with a button that refunds it.");
    expect(facts["View"]).toContain("ui://show_order/view.html");
    expect(facts["View calls"]).toContain("refund_order");
  });

  it("an app-only tool: its badge, and who may call it", () => {
    const refund = byName("refund_order");
    expect(words(toolBadges(refund))).toContain("app only");
    expect(policyFacts(refund).find((f) => f.label === "Callable by")?.value).toEqual([
      expect.objectContaining({ text: "a view on this server only; hidden from the model" }),
    ]);
    expect(policyFacts(refund).some((f) => f.label === "View")).toBe(false);
  });
});
