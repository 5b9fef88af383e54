/**
 * The generated tools beside hand-written ones on one `McpServer` (SDK 2.x),
 * as docs/runtime.md shows: each contract registered with its own schemas
 * and `execute` as the callback, so toolc still validates, retries and
 * answers with its envelopes. Served by the SDK's `createMcpHandler` and
 * driven through its fetch face by a 2026-07-28 client and a 2025-era one.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, fromJsonSchema, McpServer, type jsonSchemaValidator } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { contracts, createClient, execute, toCallResult, type ToolName } from "../../generated/index.js";
import { createDemoHandlers } from "../../demo/handlers.js";
import { envelopeOf } from "./helpers.js";

// --- the by-hand way docs/runtime.md names under "On an McpServer of your own": execute and toCallResult ---
const { handlers } = createDemoHandlers();

// toolc checks every call itself, with the contract's compiled validators: the SDK's own check lets everything through to it.
const checkedByToolc: jsonSchemaValidator = { getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }) };

function buildServer(): McpServer {
  const mcp = new McpServer({ name: "orders", version: "1.0.0" });
  mcp.registerTool("ping_crm", { description: "Hand-written: is the CRM up?" }, async () => ({ content: [{ type: "text", text: "up" }] }));
  for (const name of Object.keys(contracts) as ToolName[]) {
    const contract = contracts[name];
    mcp.registerTool(
      name,
      {
        title: contract.title,
        description: contract.description,
        inputSchema: fromJsonSchema(contract.inputSchema, checkedByToolc),
        outputSchema: fromJsonSchema(contract.outputSchema, checkedByToolc),
        annotations: contract.annotations,
        _meta: contract.meta,
      },
      async (args, ctx) => toCallResult(await execute(name, args, handlers, { signal: ctx.mcpReq.signal })),
    );
  }
  return mcp;
}
// --- end ---

async function connect(era: "modern" | "legacy"): Promise<Client> {
  const handler = createMcpHandler(buildServer);
  const client = new Client({ name: "combined-test", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL("http://in-process.test/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
  return client;
}

describe.each(["modern", "legacy"] as const)("generated and hand-written tools on one McpServer, %s client", (era) => {
  it("lists both, the generated ones with the contracts' exact schemas", async () => {
    const client = await connect(era);
    expect(client.getProtocolEra()).toBe(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["create_refund", "delete_customer", "get_order", "ping_crm", "search_orders"]);
    for (const name of Object.keys(contracts) as ToolName[]) {
      const listed = tools.find((t) => t.name === name);
      expect(listed?.inputSchema).toEqual(contracts[name].inputSchema);
      expect(listed?._meta).toMatchObject(contracts[name].meta);
    }
    await client.close();
  });

  it("calls both; the generated ones answer with toolc's results and envelopes", async () => {
    const client = await connect(era);
    expect(await client.callTool({ name: "ping_crm", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "up" }] });
    expect(await createClient(client).get_order({ customerId: "cus_1" })).toMatchObject({ ok: true, data: { found: true } });
    const failure = envelopeOf((await client.callTool({ name: "get_order", arguments: { customerId: 42 } })) as Parameters<typeof envelopeOf>[0]);
    expect(failure).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "customerId" }] });
    await client.close();
  });
});
