/**
 * `toolc diff` and views (MCP Apps): a change to data a view reads (its own
 * tool's output, the output of a tool it calls) or writes (that tool's
 * input) is breaking, and the change names the view; the same change to a
 * tool no view reads keeps its own level.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { formatReport } from "../../generator/diff/format.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { ROOT } from "../compiler/helpers.js";

const FIXTURE = join(ROOT, "test/fixtures/apps");
const SHOW = readFileSync(join(FIXTURE, "show_order.yaml"), "utf8");
const REFUND = readFileSync(join(FIXTURE, "refund_order.yaml"), "utf8");
/** A third tool no view reads, with the same output as show_order. */
const PLAIN = SHOW.replace("name: show_order", "name: plain_order").replace(/\nui:[\s\S]*$/, "\n");

function side(show: string, refund = REFUND, plain = PLAIN) {
  const texts = [
    { source: "show_order.yaml", display: "show_order.yaml", text: show },
    { source: "refund_order.yaml", display: "refund_order.yaml", text: refund },
    { source: "plain_order.yaml", display: "plain_order.yaml", text: plain },
  ];
  const result = sideFromTexts(texts, ".");
  if (!result.side) throw new Error(JSON.stringify(result.diagnostics));
  return result.side;
}

const VIEW = "the view of show_order (ui://show_order/view.html)";

describe("toolc diff names the view a change breaks", () => {
  it("a property the view reads dropped from its tool's output: breaking, naming the view", () => {
    const drop = (text: string) =>
      text.replace("    total: { type: integer, description: Cents. }\n", "").replace("required: [orderId, status, total]", "required: [orderId, status]");
    const result = diffContracts(side(SHOW), side(drop(SHOW), REFUND, drop(PLAIN)), EMPTY_DIFF_CONFIG);
    const show = result.changes.find((c) => c.affects[0]?.tool === "show_order");
    expect(show).toMatchObject({ level: "breaking", views: [VIEW] });
    expect(show?.message).toContain(`breaks ${VIEW}`);
    // The same change to a tool no view reads is not about a view.
    const plain = result.changes.find((c) => c.affects[0]?.tool === "plain_order");
    expect(plain?.views).toBeUndefined();
    expect(formatReport(result, "text")).toContain(VIEW);
    expect(JSON.parse(formatReport(result, "json")).changes.find((c: { tool: string }) => c.tool === "show_order").views).toEqual([VIEW]);
  });

  it("a new enum value in the view's data is breaking for the view, and names it", () => {
    const widen = (text: string) => text.replace("enum: [paid, shipped, refunded]", "enum: [paid, shipped, refunded, lost]");
    const result = diffContracts(side(SHOW), side(widen(SHOW), REFUND, widen(PLAIN)), EMPTY_DIFF_CONFIG);
    const levels = Object.fromEntries(result.changes.map((c) => [c.affects[0]?.tool, [c.level, c.views ?? []]]));
    expect(levels["show_order"]).toEqual(["breaking", [VIEW]]);
    expect(levels["plain_order"]?.[1]).toEqual([]);
  });

  it("a narrower input of a tool the view calls is breaking, naming the view", () => {
    const narrow = REFUND.replace("maximum: 1000000", "maximum: 100");
    const result = diffContracts(side(SHOW), side(SHOW, narrow), EMPTY_DIFF_CONFIG);
    expect(result.changes.map((c) => [c.affects[0]?.tool, c.affects[0]?.direction, c.level, c.views])).toEqual([["refund_order", "input", "breaking", [VIEW]]]);
  });

  it("a view new since the base is not named: it was written against the head's data", () => {
    const narrow = REFUND.replace("maximum: 1000000", "maximum: 100");
    const noView = SHOW.replace(/\nui:[\s\S]*$/, "\n");
    const result = diffContracts(side(noView), side(SHOW, narrow), EMPTY_DIFF_CONFIG);
    const refund = result.changes.find((c) => c.affects[0]?.tool === "refund_order");
    expect(refund).toBeDefined();
    expect(refund?.views).toBeUndefined();
  });

  it("a change nobody must act on (a description) stays info", () => {
    const result = diffContracts(side(SHOW), side(SHOW.replace("description: Cents.", "description: In cents.")), EMPTY_DIFF_CONFIG);
    expect(result.changes.every((c) => c.level === "info" && c.views === undefined)).toBe(true);
  });
});
