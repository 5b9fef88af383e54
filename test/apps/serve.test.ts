/**
 * MCP Apps served from the contract, on both MCP SDK lines and both protocol
 * generations, to real SDK clients: the tool's `_meta.ui` (and the legacy
 * flat key), the app-only tool's visibility, the `ui://` view listed and read
 * with the extension's MIME type and its CSP, the capabilities declared, and
 * a call from the view's side going through the same border (validation and
 * the failure envelope) as any other.
 */
import { createServer as createNodeServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import type { SdkLine } from "../e2e/sdk-lines/generate.js";
import { appsProject } from "./project.js";

const MIME = "text/html;profile=mcp-app";
const handlers = {
  show_order: (input: { orderId: string }) => ({ orderId: input.orderId, status: "paid", total: 1250 }),
  refund_order: (input: { amount: number }) => ({ refunded: input.amount }),
};

/** What the tests ask of a client, the same on both lines. */
interface AppsClient {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  listResources(): Promise<{ resources: Record<string, unknown>[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  getServerCapabilities(): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

const projects = new Map<SdkLine, string>();
beforeAll(async () => {
  for (const line of [1, 2] as const) projects.set(line, await appsProject(line));
}, 180_000);
afterAll(() => {
  for (const dir of projects.values()) rmSync(dir, { recursive: true, force: true });
});

async function serve(line: SdkLine): Promise<{ url: URL; close(): Promise<void> }> {
  const { createHttpHandler } = (await import(pathToFileURL(join(projects.get(line)!, "generated/http.ts")).href)) as {
    createHttpHandler(h: unknown): RequestListener;
  };
  const http = createNodeServer(createHttpHandler(handlers));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`),
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const UI_CLIENT = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } };

async function connect(line: SdkLine, url: URL, era: "legacy" | "modern"): Promise<{ client: AppsClient; version: string | undefined }> {
  if (line === 1) {
    const client = new Client1({ name: "apps-test", version: "1" }, { capabilities: UI_CLIENT });
    await client.connect(new Http1(url));
    return { client: client as unknown as AppsClient, version: undefined };
  }
  const options = era === "modern" ? { versionNegotiation: { mode: "auto" as const }, capabilities: UI_CLIENT } : { capabilities: UI_CLIENT };
  const client = new Client2({ name: "apps-test", version: "1" }, options);
  await client.connect(new Http2(url));
  return { client: client as unknown as AppsClient, version: client.getNegotiatedProtocolVersion() };
}

const CASES: [SdkLine, "legacy" | "modern", string | undefined][] = [
  [1, "legacy", undefined],
  [2, "legacy", "2025-11-25"],
  [2, "modern", "2026-07-28"],
];

describe.each(CASES)("SDK %s, %s protocol", (line, era, version) => {
  let session: { client: AppsClient; close(): Promise<void> };
  beforeAll(async () => {
    const server = await serve(line);
    const { client, version: negotiated } = await connect(line, server.url, era);
    if (version !== undefined) expect(negotiated).toBe(version);
    session = { client, close: async () => (await client.close(), await server.close()) };
  }, 60_000);
  afterAll(async () => session?.close());

  it("lists the tool with _meta.ui.resourceUri and the legacy ui/resourceUri key, and the app-only tool with its visibility", async () => {
    const { tools } = await session.client.listTools();
    const show = tools.find((t) => t.name === "show_order");
    expect(show?._meta).toMatchObject({ ui: { resourceUri: "ui://show_order/view.html" }, "ui/resourceUri": "ui://show_order/view.html" });
    const refund = tools.find((t) => t.name === "refund_order");
    expect(refund?._meta?.["ui"]).toEqual({ visibility: ["app"] });
    expect(refund?._meta).not.toHaveProperty("ui/resourceUri");
  });

  it("declares the resources capability and the extension", () => {
    const capabilities = session.client.getServerCapabilities();
    expect(capabilities).toHaveProperty("resources");
    expect(capabilities?.["extensions"]).toEqual({ "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } });
  });

  it("lists the view as a ui:// resource with the extension's MIME type and its _meta.ui", async () => {
    const { resources } = await session.client.listResources();
    expect(resources).toEqual([
      {
        uri: "ui://show_order/view.html",
        name: "show_order",
        title: "Order",
        description: "The order's status and total, with a button that refunds it.",
        mimeType: MIME,
        _meta: {
          ui: {
            csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] },
            permissions: { clipboardWrite: {} },
            prefersBorder: true,
          },
        },
      },
    ]);
  });

  it("reads the view: the HTML file as it is, with the MIME type and the CSP on the content item", async () => {
    const { contents } = await session.client.readResource({ uri: "ui://show_order/view.html" });
    expect(contents).toEqual([
      {
        uri: "ui://show_order/view.html",
        mimeType: MIME,
        text: readFileSync(join(projects.get(line)!, "definitions/views/order.html"), "utf8"),
        _meta: { ui: expect.objectContaining({ csp: expect.objectContaining({ connectDomains: ["https://api.example.com"] }) }) },
      },
    ]);
  });

  it("refuses a ui:// URI it does not have with the line's resource-not-found error", async () => {
    // SDK 1.x: the 2025 revisions' -32002; SDK 2.x: its ResourceNotFoundError, -32602 as protocol 2026-07-28 has it.
    await expect(session.client.readResource({ uri: "ui://nope/view.html" })).rejects.toMatchObject({ code: line === 1 ? -32002 : -32602 });
  });

  it("a call from the view goes through the border: a bad argument is INVALID_INPUT at its path, a good one succeeds", async () => {
    const bad = await session.client.callTool({ name: "refund_order", arguments: { orderId: "ord_1", amount: 0 } });
    expect(bad["isError"]).toBe(true);
    expect((bad["_meta"] as Record<string, unknown>)["toolc/failure"]).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "amount" }] });
    const good = await session.client.callTool({ name: "refund_order", arguments: { orderId: "ord_1", amount: 300 } });
    expect(good["structuredContent"]).toEqual({ refunded: 300 });
  });
});
