/**
 * The demo's view on an `McpServer` the application owns: generated
 * mcp-host.ts's `registerTools` registers get_order's `ui://` resource beside
 * the application's own, so the `_meta.ui.resourceUri` it lists names a
 * resource a host can list and read (it named nothing before: only
 * `createServer` served views). Real SDK 2.x client and McpServer, in memory.
 */
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { registerTools } from "../../generated/mcp-host.js";
import type { Handlers } from "../../generated/index.js";

const URI = "ui://get_order/view.html";
const handlers: Handlers = {
  get_order: (input) => ({ found: true, customerId: input.customerId, orders: [{ id: "ord_1", status: "paid" }] }),
};

async function connected(): Promise<Client> {
  const mcp = new McpServer({ name: "app", version: "1.0.0" });
  mcp.registerResource("readme", "app://readme", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "hand-written" }] }));
  registerTools(mcp, handlers);
  const client = new Client(
    { name: "host-test", version: "1.0.0" },
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } as never },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe("registerTools with a view, on an McpServer of the application's", () => {
  it("lists get_order's view beside the application's resource, reads it as an MCP Apps view, and declares the extension", async () => {
    const client = await connected();
    try {
      const { tools } = await client.listTools();
      const meta = tools.find((t) => t.name === "get_order")?._meta as { ui?: { resourceUri?: string } } | undefined;
      expect(meta?.ui?.resourceUri).toBe(URI);
      const { resources } = await client.listResources();
      expect(resources.map((r) => [r.uri, r.mimeType]).sort()).toEqual([
        ["app://readme", "text/plain"],
        [URI, "text/html;profile=mcp-app"],
      ]);
      const read = await client.readResource({ uri: URI });
      const content = read.contents[0] as { uri: string; mimeType?: string; text?: string; _meta?: { ui?: unknown } };
      expect(content.mimeType).toBe("text/html;profile=mcp-app");
      expect(content.text).toContain("<html");
      expect(content._meta?.ui).toBeDefined();
      const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> };
      expect(capabilities.extensions?.["io.modelcontextprotocol/ui"]).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
    } finally {
      await client.close();
    }
  });
});
