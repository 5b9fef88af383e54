/**
 * `toolc diff` over pairs of contract versions: the demo definitions as base,
 * and an edited copy as head. Each breaking change exits 1 and is located at
 * the line of the field it is about; each compatible one exits 0.
 */
import { describe, expect, it } from "vitest";
import { diffEdits, type Edits, type JsonChange } from "./helpers.js";

interface Breaking {
  readonly name: string;
  readonly edits: Edits;
  readonly rule: string;
  readonly tool: string;
  readonly direction: string;
  /** Text that must be on the line the change points at. */
  readonly line: string;
  /** The file it points at: head/... for a change, base/... for a removal. */
  readonly file: string;
  /** Edits of the base too, for a tool the demo does not have. */
  readonly base?: Edits;
}

/** A tool whose output is an array (MCP 2026-07-28, SEP-2106), which the demo has none of. */
const ARRAY_OUTPUT_TOOL = `name: count_orders
version: 1
description: How many orders a customer placed each month, oldest month first.
effect: read
input:
  type: object
  properties:
    customerId: { type: string, minLength: 1 }
  required: [customerId]
output:
  type: array
  items: { type: integer, minimum: 0 }
`;

const BREAKING: readonly Breaking[] = [
  { name: "input property removed", edits: { "get_order.yaml": [["    includeHistory: { type: boolean, default: false, description: Include cancelled orders too. }\n", ""]] }, rule: "property-removed", tool: "get_order", direction: "input", line: "includeHistory", file: "base/get_order.yaml" },
  {
    name: "optional input became required",
    edits: { "get_order.yaml": [["required: [customerId]", "required: [customerId, includeHistory]"], ["includeHistory: { type: boolean, default: false,", "includeHistory: { type: boolean,"], ["input: { customerId: cus_1 }\n    output", "input: { customerId: cus_1, includeHistory: false }\n    output"], ["input: { customerId: cus_blocked }", "input: { customerId: cus_blocked, includeHistory: false }"]] },
    rule: "property-became-required", tool: "get_order", direction: "input", line: "includeHistory", file: "head/get_order.yaml",
  },
  { name: "required input property added", edits: { "delete_customer.yaml": [["  required: [customerId", "    reasonCode: { type: string }\n  required: [reasonCode, customerId"], ["input: { customerId: cus_9, confirm: true,", "input: { reasonCode: gdpr, customerId: cus_9, confirm: true,"]] }, rule: "property-added-required", tool: "delete_customer", direction: "input", line: "reasonCode", file: "head/delete_customer.yaml" },
  { name: "input bound tightened", edits: { "get_order.yaml": [["minLength: 1", "minLength: 3"]] }, rule: "bound-tightened", tool: "get_order", direction: "input", line: "minLength: 3", file: "head/get_order.yaml" },
  { name: "input enum value removed", edits: { "create_refund.yaml": [["enum: [duplicate, fraudulent, requested_by_customer]", "enum: [duplicate, requested_by_customer]"]] }, rule: "enum-value-removed", tool: "create_refund", direction: "input", line: "fraudulent", file: "base/create_refund.yaml" },
  { name: "input type narrowed (number to integer)", edits: { "search_orders.yaml": [["limit: { type: integer", "limit: { type: integer"]], "types.yaml": [["amountCents: { type: integer, minimum: 0", "amountCents: { type: integer, minimum: 0"]], "get_order.yaml": [["includeHistory: { type: boolean", "includeHistory: { type: [boolean]"]], "create_refund.yaml": [["note: { type: [string, \"null\"]", "note: { type: string"], ["default: null }", "default: \"\" }"]] }, rule: "type-narrowed", tool: "create_refund", direction: "input", line: "note", file: "head/create_refund.yaml" },
  { name: "output property removed", edits: { "create_refund.yaml": [["    createdAt: { type: string, format: date-time }\n", ""], ["required: [refundId, status, amount, createdAt]", "required: [refundId, status, amount]"], ["      createdAt: \"2026-03-01T12:00:00Z\"\n", ""]] }, rule: "property-removed", tool: "create_refund", direction: "output", line: "createdAt", file: "base/create_refund.yaml" },
  { name: "output enum value added", edits: { "create_refund.yaml": [["status: { enum: [pending, succeeded] }", "status: { enum: [pending, succeeded, failed] }"]] }, rule: "enum-value-added", tool: "create_refund", direction: "output", line: "failed", file: "head/create_refund.yaml" },
  { name: "output required became optional", edits: { "search_orders.yaml": [["required: [orders, nextCursor]", "required: [orders]"]] }, rule: "property-became-optional", tool: "search_orders", direction: "output", line: "nextCursor", file: "head/search_orders.yaml" },
  { name: "output bound loosened", edits: { "types.yaml": [["amountCents: { type: integer, minimum: 0,", "amountCents: { type: integer, minimum: -100,"]] }, rule: "bound-loosened", tool: "get_order", direction: "output", line: "minimum: -100", file: "head/types.yaml" },
  { name: "effect more severe", edits: { "delete_customer.yaml": [["effect: destructive", "effect: destructive"]], "create_refund.yaml": [["effect: write", "effect: destructive"]] }, rule: "effect-more-severe", tool: "create_refund", direction: "tool", line: "effect: destructive", file: "head/create_refund.yaml" },
  { name: "tool removed", edits: { "delete_customer.yaml": null }, rule: "tool-removed", tool: "delete_customer", direction: "tool", line: "name: delete_customer", file: "base/delete_customer.yaml" },
  // Clients send the argument in the header the contract names: one that sends the old name is refused (SEP-2243).
  { name: "x-mcp-header renamed", edits: { "get_order.yaml": [["x-mcp-header: Customer-Id", "x-mcp-header: Customer-Ref"]] }, rule: "mcp-header-changed", tool: "get_order", direction: "input", line: "x-mcp-header: Customer-Ref", file: "head/get_order.yaml" },
  {
    name: "array output: items widened (integer to number)",
    base: { "count_orders.yaml": ARRAY_OUTPUT_TOOL },
    edits: { "count_orders.yaml": ARRAY_OUTPUT_TOOL.replace("items: { type: integer, minimum: 0 }", "items: { type: number, minimum: 0 }") },
    rule: "type-widened", tool: "count_orders", direction: "output", line: "type: number", file: "head/count_orders.yaml",
  },
];

function find(changes: readonly JsonChange[], c: Breaking): JsonChange | undefined {
  return changes.find((x) => x.rule === c.rule && x.affects.some((a) => a.tool === c.tool && a.direction === c.direction && a.level === "breaking"));
}

describe("each breaking change exits 1 and names the tool and field at file:line", () => {
  for (const c of BREAKING) {
    it(c.name, async () => {
      const run = await diffEdits(c.edits, [], c.base);
      expect(run.err).toBe("");
      expect(run.code).toBe(1);
      const change = find(run.report.changes, c);
      expect(change, JSON.stringify(run.report.changes, null, 1)).toBeDefined();
      if (!change) return;
      expect(change.file).toBe(c.file);
      expect(run.lineAt(change)).toContain(c.line);
      expect(run.report.unversioned).toContain(c.tool);
    });
  }
});

const COMPATIBLE: readonly { name: string; edits: Edits }[] = [
  { name: "optional input property added", edits: { "get_order.yaml": [["  required: [customerId]", "    currency: { type: string }\n  required: [customerId]"]] } },
  { name: "input enum widened", edits: { "create_refund.yaml": [["enum: [duplicate, fraudulent, requested_by_customer]", "enum: [duplicate, fraudulent, requested_by_customer, other]"]] } },
  { name: "output property added", edits: { "get_order.yaml": [["    found: { type: boolean }", "    found: { type: boolean }\n    fetchedAt: { type: string, format: date-time }"]] } },
  { name: "required output property added", edits: { "get_order.yaml": [["    found: { type: boolean }", "    found: { type: boolean }\n    region: { type: string }"]] } },
  { name: "docs edited", edits: { "get_order.yaml": [["description: Look up one customer's orders.", "description: Look up every order of one customer."], ["Customer id, e.g. cus_123", "The customer's id"]], "types.yaml": [["description: One customer order.", "description: An order."]] } },
  { name: "input bounds loosened", edits: { "get_order.yaml": [["minLength: 1", "minLength: 0"]], "search_orders.yaml": [["maximum: 100", "maximum: 500"]] } },
  {
    name: "an inline schema moved into a named type",
    edits: {
      "create_refund.yaml": [["      additionalProperties: { type: string, maxLength: 200 }\n      maxProperties: 20\n", ""], ["    metadata:\n      type: object\n      description: Free-form labels, stored with the refund.\n", "    metadata: { $ref: \"types.yaml#/Labels\" }\n"]],
      "types.yaml": [["types:\n", "types:\n  Labels:\n    type: object\n    description: Free-form labels.\n    additionalProperties: { type: string, maxLength: 200 }\n    maxProperties: 20\n"]],
    },
  },
  { name: "reformatted and reordered", edits: { "get_order.yaml": [["    customerId: { type: string, minLength: 1, maxLength: 64, x-mcp-header: Customer-Id, description: \"Customer id, e.g. cus_123; HTTP clients also send it as the Mcp-Param-Customer-Id header\" }", "    customerId:\n      maxLength: 64\n      x-mcp-header: Customer-Id\n      minLength: 1\n      type: string"], ["effect: read\ntimeoutMs: 5000", "timeoutMs: 5000\neffect: read"]] } },
];

describe("each compatible change exits 0 with no breaking change", () => {
  for (const c of COMPATIBLE) {
    it(c.name, async () => {
      const run = await diffEdits(c.edits);
      expect(run.err).toBe("");
      expect(run.report.changes.filter((x) => x.level !== "info")).toEqual([]);
      expect(run.code).toBe(0);
    });
  }

  it("docs edits, reformatting and moving a schema into a named type report nothing at all", async () => {
    for (const c of COMPATIBLE.filter((x) => ["docs edited", "reformatted and reordered", "an inline schema moved into a named type"].includes(x.name))) {
      const run = await diffEdits(c.edits);
      expect(run.report.changes, c.name).toEqual([]);
    }
  });

  it("identical contracts report nothing", async () => {
    const run = await diffEdits({});
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.report).toEqual({ changes: [], unversioned: [], summary: { breaking: 0, undecided: 0, warning: 0, info: 0 } });
  });
});

describe("versions", () => {
  it("a breaking change with a version bump exits 0, and the bump is info", async () => {
    const run = await diffEdits({ "get_order.yaml": [["minLength: 1", "minLength: 3"], ["version: 1", "version: 2"]] });
    expect(run.code).toBe(0);
    expect(run.report.changes.map((c) => [c.rule, c.level])).toEqual([["version-bumped", "info"], ["bound-tightened", "breaking"]]);
    expect(run.report.unversioned).toEqual([]);
  });

  it("a bump of another tool does not cover a breaking change", async () => {
    const run = await diffEdits({ "get_order.yaml": [["minLength: 1", "minLength: 3"]], "search_orders.yaml": [["version: 1", "version: 2"]] });
    expect(run.code).toBe(1);
    expect(run.report.unversioned).toEqual(["get_order"]);
  });
});

describe("shared named types", () => {
  it("a change inside a type is reported once, at the type, with every tool and direction it affects", async () => {
    const run = await diffEdits({ "types.yaml": [["amountCents: { type: integer, minimum: 1 }", "amountCents: { type: integer, minimum: 5 }"]] });
    expect(run.report.changes).toHaveLength(1);
    const [change] = run.report.changes;
    expect(change).toMatchObject({ rule: "bound-tightened", type: "Money", field: "Money.amountCents", file: "head/types.yaml", level: "breaking" });
    expect(run.lineAt(change as JsonChange)).toContain("minimum: 5");
    expect(change?.affects).toEqual([
      { tool: "create_refund", direction: "input", level: "breaking" },
      { tool: "create_refund", direction: "output", level: "info" },
    ]);
  });

  it("a type used by several tools lists each of them", async () => {
    const run = await diffEdits({ "types.yaml": [["enum: [pending, paid, cancelled]", "enum: [pending, paid, cancelled, refunded]"]] });
    const change = run.report.changes.find((c) => c.rule === "enum-value-added");
    expect(change?.type).toBe("OrderStatus");
    expect(change?.affects.map((a) => `${a.tool} ${a.direction} ${a.level}`).sort()).toEqual(["get_order output breaking", "search_orders input info", "search_orders output breaking"]);
    expect(run.report.changes.filter((c) => c.rule === "enum-value-added")).toHaveLength(1);
  });
});
