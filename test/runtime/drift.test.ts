/**
 * The generated client (compiled from definitions/) against a server compiled
 * from newer contracts: the drift check names each tool that does not match,
 * and output properties the client does not know are dropped, not refused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { contracts, createClient, verifyServer } from "../../generated/index.js";
import type { ContractMap, ToolContract } from "../../generator/runtime/contract.js";
// The generated output targets SDK 2.x, so the server is the 2.x runtime's.
import { createToolServer } from "../../generated/runtime/server.js";
import type { HandlersFor } from "../../generator/runtime/types.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import type { ToolIR } from "../../generator/ir.js";
import { applyEdits, DEMO } from "../diff/helpers.js";
import { connectInMemory } from "./connect-sdk2.js";
import { cpSync } from "node:fs";

function ajv(useDefaults: boolean): Ajv2020 {
  const instance = new Ajv2020({ allErrors: true, useDefaults, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats.default(instance);
  instance.addKeyword({ keyword: "x-sensitive", schemaType: "boolean" });
  instance.addKeyword({ keyword: "x-mcp-header", schemaType: "string" });
  return instance;
}

/** Runtime contracts straight from toolc's IR, with validators compiled by a real Ajv. */
function contractOf(tool: ToolIR): ToolContract {
  return {
    name: tool.name, version: tool.version, effect: tool.effect, idempotent: tool.idempotent, timeoutMs: tool.timeoutMs, retry: tool.retry,
    errors: Object.fromEntries(tool.errors.map((e) => [e.code, e.description])),
    inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations, meta: tool.meta, sensitive: tool.sensitive,
    validators: { validateInput: ajv(true).compile(tool.inputSchema), validateOutput: ajv(false).compile(tool.outputSchema) },
  };
}

/** The demo definitions with `edits`, compiled by toolc's own load and normalize. */
function compiledFrom(edits: Parameters<typeof applyEdits>[1]): ContractMap {
  const dir = mkdtempSync(join(tmpdir(), "toolc-drift-"));
  try {
    cpSync(DEMO, dir, { recursive: true });
    applyEdits(dir, edits);
    const { ir, diagnostics } = normalize(loadDefinitions(dir));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return Object.fromEntries(ir.tools.map((t) => [t.name, contractOf(t)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A server serves only the tools it has a handler for: give every tool one. */
async function serve(served: ContractMap, handlers: Partial<HandlersFor<ContractMap>> = {}) {
  const all = Object.fromEntries(Object.keys(served).map((name) => [name, handlers[name] ?? (async () => ({}))]));
  const { client, close } = await connectInMemory(createToolServer(served, all as HandlersFor<ContractMap>));
  cleanup = close;
  return client;
}

const NEWER = {
  // A new output property, and a docs edit, at the same version.
  "search_orders.yaml": [["    source: { type: string, format: uri }", "    source: { type: string, format: uri }\n    total: { type: integer }"], ["Find orders by customer", "Find the orders of a customer"]],
  // A breaking change, with its version bump.
  "get_order.yaml": [["minLength: 1", "minLength: 3"], ["version: 1", "version: 2"]],
  "delete_customer.yaml": null,
  // Docs only: no drift.
  "create_refund.yaml": [["Refund part or all of a paid order.", "Refund a paid order, in part or in full."]],
} as const;

describe("the drift check on connect", () => {
  it("reports nothing against a server compiled from the same contracts", async () => {
    const client = await serve(compiledFrom({}));
    expect(await verifyServer(client)).toEqual({ ok: true, tools: [] });
  });

  it("names each incompatible tool of a server compiled from newer contracts", async () => {
    const client = await serve(compiledFrom(NEWER));
    const report = await verifyServer(client);
    expect(report.ok).toBe(false);
    expect(report.tools.map((t) => [t.tool, t.problem])).toEqual([
      ["delete_customer", "missing"],
      ["get_order", "version"],
      ["search_orders", "schema"],
    ]);
    expect(report.tools[1]?.message).toBe("the server serves `get_order` version 2; this client was compiled from version 1");
  });

  it("reports a server whose tools/list carries no contract metadata as unverified", async () => {
    const server = new Server({ name: "foreign", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({ tools: Object.values(contracts).map((c) => ({ name: c.name, inputSchema: { ...c.inputSchema, type: "object" as const } })) }));
    const { client, close } = await connectInMemory(server);
    cleanup = close;
    const report = await verifyServer(client);
    expect(report.tools.map((t) => t.problem)).toEqual(["unverified", "unverified", "unverified", "unverified"]);
  });
});

describe("a newer server's output, through the older typed client", () => {
  it("drops the output property the client does not know, and validates the rest", async () => {
    const handlers = { search_orders: async () => ({ orders: [{ id: "ord_1", status: "paid" }], nextCursor: null, total: 1 }) };
    const client = await serve(compiledFrom(NEWER), handlers as unknown as HandlersFor<ContractMap>);
    const result = await createClient(client).search_orders({ filter: { customerId: "cus_1" } });
    expect(result).toEqual({ ok: true, data: { orders: [{ id: "ord_1", status: "paid" }], nextCursor: null } });
  });

  it("still refuses output that breaks what the client knows", async () => {
    const handlers = { search_orders: async () => ({ orders: [{ id: "ord_1", status: "paid" }], nextCursor: 7, total: 1 }) };
    const served = compiledFrom({ "search_orders.yaml": [["nextCursor: { type: [string, \"null\"]", "nextCursor: { type: [string, integer, \"null\"]"]] });
    const client = await serve(served, handlers as unknown as HandlersFor<ContractMap>);
    const result = await createClient(client).search_orders({ filter: { customerId: "cus_1" } });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });
});
