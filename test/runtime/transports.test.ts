/**
 * The server over real transports: stdio with a spawned process, Streamable
 * HTTP on loopback, and the MCP Inspector CLI as an independent client.
 */
import { once } from "node:events";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createToolClient } from "../../generator/runtime/client.js";
import { createToolHttpHandler } from "../../generator/runtime/http.js";
import { createToolServer } from "../../generator/runtime/server.js";
import { inspectorCli } from "../helpers/inspector.js";
import { contracts, FakeOrders, makeHandlers } from "./fixtures.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const serverScript = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));

function newClient(): Client {
  return new Client({ name: "transport-test", version: "1.0.0" });
}

describe("stdio, with a spawned server process", () => {
  let client: Client;
  beforeAll(async () => {
    client = newClient();
    await client.connect(new StdioClientTransport({ command: tsx, args: [serverScript], cwd: root, stderr: "pipe" }));
  });
  afterAll(async () => { await client.close(); });

  it("lists the tools and round-trips typed calls", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_order", "delete_order", "charge_card", "tag_resource"]);
    expect(tools[0].inputSchema).toEqual(contracts.get_order.inputSchema);
    const typed = createToolClient(contracts, client);
    expect(await typed.get_order({ customerId: "cus_1" })).toMatchObject({ ok: true, data: { customerId: "cus_1" } });
    expect(await typed.get_order({ customerId: "cus_blocked" })).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED" });
    expect(await typed.delete_order({ orderId: "flaky" })).toMatchObject({ code: "FAILED", effect: "unknown", attempts: 1 });
  });

  it("reports a bad argument at its own path, through the server", async () => {
    const result = await client.callTool({ name: "get_order", arguments: { customerId: "c", includeDeleted: true } });
    expect(result.isError).toBe(true);
    expect((result._meta as Record<string, unknown>)["toolc/failure"]).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "includeDeleted" }] });
  });
});

describe("Streamable HTTP, stateless, on loopback", () => {
  let http: HttpServer;
  let url: URL;
  let created = 0;
  beforeAll(async () => {
    const handlers = makeHandlers(new FakeOrders());
    http = createServer(createToolHttpHandler(() => { created++; return createToolServer(contracts, handlers); }));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => { http.closeAllConnections(); await new Promise((resolve) => http.close(resolve)); });

  it("serves typed calls, with a fresh server per request", async () => {
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(url));
    const before = created;
    const typed = createToolClient(contracts, client);
    expect(await typed.get_order({ customerId: "cus_1" })).toMatchObject({ ok: true });
    expect(await typed.tag_resource({ tags: { a: "b" } })).toEqual({ ok: true, data: { count: 1 } });
    expect(created - before).toBe(2);
    const list = await client.listTools();
    expect(list.tools).toHaveLength(4);
    await client.close();
  });

  it("answers two clients at once", async () => {
    const clients = [newClient(), newClient()];
    await Promise.all(clients.map((c) => c.connect(new StreamableHTTPClientTransport(url))));
    const results = await Promise.all(clients.map((c, i) => createToolClient(contracts, c).get_order({ customerId: `cus_${i}` })));
    expect(results.map((r) => r.ok && r.data.customerId)).toEqual(["cus_0", "cus_1"]);
    await Promise.all(clients.map((c) => c.close()));
  });

  it("returns 405 for GET and DELETE, and 404 elsewhere", async () => {
    expect((await fetch(url, { method: "GET" })).status).toBe(405);
    expect((await fetch(url, { method: "DELETE" })).status).toBe(405);
    const missing = await fetch(new URL("/other", url), { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });

  it("uses a body that a framework's body parser already read", async () => {
    const inner = createToolHttpHandler(() => createToolServer(contracts, makeHandlers(new FakeOrders())));
    const parsing = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      if (text !== "") Object.assign(req, { body: JSON.parse(text) as unknown });
      await inner(req, res);
    });
    parsing.listen(0, "127.0.0.1");
    await once(parsing, "listening");
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(parsing.address() as AddressInfo).port}/mcp`)));
      expect(await createToolClient(contracts, client).get_order({ customerId: "cus_1" })).toMatchObject({ ok: true });
    } finally {
      await client.close();
      parsing.closeAllConnections();
      parsing.close();
    }
  });

  it("works with the Inspector CLI", async () => {
    const args = [url.href, "--transport", "http", "--method", "tools/call", "--tool-name", "get_order", "--tool-arg", "customerId=c", "includeDeleted=true"];
    // Not a synchronous child process: the server lives in this process.
    const result = (await inspectorCli(args, root)) as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "includeDeleted" }] });
  });
});

describe("the MCP Inspector CLI", () => {
  async function inspect(...args: string[]): Promise<unknown> {
    return inspectorCli([tsx, serverScript, ...args], root);
  }

  it("lists the tools with their schemas and annotations", async () => {
    const listed = (await inspect("--method", "tools/list")) as { tools: { name: string; inputSchema: unknown; annotations: unknown }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(["get_order", "delete_order", "charge_card", "tag_resource"]);
    expect(listed.tools[0].inputSchema).toEqual(contracts.get_order.inputSchema);
    expect(listed.tools[1].annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it("shows a failing call as isError with the envelope", async () => {
    const result = (await inspect("--method", "tools/call", "--tool-name", "get_order", "--tool-arg", "customerId=cus_blocked")) as {
      isError: boolean;
      content: { text: string }[];
      structuredContent?: unknown;
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse(result.content[0].text)).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED", tool: "get_order" });
  });
});
