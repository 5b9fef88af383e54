/**
 * toolc's tools on an `McpServer` the application owns (generated
 * mcp-host.ts, `registerTools`), beside a hand-written resource and prompt,
 * served by the SDK's own `createMcpHandler` as Vercel's `mcp-handler` or
 * `agents` would serve it, and called by the real SDK 2.x client on
 * 2026-07-28 and 2025-11-25: progress notifications and log messages arrive,
 * `logging/setLevel` is answered (it was -32601 with the recipe this
 * replaces), validation and the envelope hold, confirmation asks the user
 * and runs only what was approved, and the scopes of the `authInfo` the host
 * hands the SDK are enforced.
 */
import { rmSync } from "node:fs";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, McpServer, type AuthInfo } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlers as conformanceHandlers } from "../mcp-conformance/handlers.js";
import { registerTools } from "../mcp-conformance/generated/mcp-host.js";
import { authProject, load } from "./auth/harness.js";
import { envelopeOf } from "./helpers.js";

type Era = "modern" | "legacy";

/** An application's own server: a hand-written resource and prompt, and toolc's tools registered beside them. */
function appServer(register: (mcp: McpServer) => string[]): McpServer {
  const mcp = new McpServer({ name: "app", version: "1.0.0" });
  mcp.registerResource("readme", "app://readme", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "hand-written" }] }));
  mcp.registerPrompt("greet", { description: "Hand-written prompt" }, async () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
  register(mcp);
  return mcp;
}

/** A client of `build`'s servers through createMcpHandler's fetch face; `authInfo` is what the host verified (mcp-handler's withMcpAuth, say). */
async function connect(build: () => McpServer, era: Era, options: { authInfo?: AuthInfo; elicit?: () => { action: "accept" | "decline"; content?: Record<string, boolean> } } = {}): Promise<Client> {
  const handler = createMcpHandler(build);
  const capabilities = options.elicit === undefined ? {} : { elicitation: { form: {} } };
  const client = new Client({ name: "host-test", version: "1.0.0" }, { ...(era === "modern" ? { versionNegotiation: { mode: "auto" as const } } : {}), capabilities });
  if (options.elicit !== undefined) client.setRequestHandler("elicitation/create", async () => options.elicit!());
  const fetch = (url: string | URL, init?: RequestInit): Promise<Response> =>
    handler.fetch(new Request(url, init), options.authInfo === undefined ? undefined : { authInfo: options.authInfo });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://in-process.test/mcp"), { fetch }));
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

describe.each(["modern", "legacy"] as const)("registerTools on an McpServer, %s client", (era) => {
  // A 2025-era client's logging/setLevel reaches one stateless POST only; the server's logLevel covers the call (docs/runtime.md).
  const build = (): McpServer => appServer((mcp) => registerTools(mcp, conformanceHandlers, { logLevel: "info" }));

  it("lists toolc's tools with the contracts' schemas beside the hand-written resource and prompt", async () => {
    const client = await connect(build, era);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("test_tool_with_progress");
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["app://readme"]);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    } finally {
      await client.close();
    }
  });

  it("forwards ctx.progress as progress notifications for the call's token", async () => {
    const client = await connect(build, era);
    try {
      const seen: number[] = [];
      const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
      expect(result.isError).not.toBe(true);
      expect(seen).toEqual([0, 50, 100]);
    } finally {
      await client.close();
    }
  });

  it("answers logging/setLevel and forwards ctx.log as log messages", async () => {
    const client = await connect(build, era);
    try {
      const messages: unknown[] = [];
      client.setNotificationHandler("notifications/message", (n) => void messages.push(n.params.data));
      if (era === "legacy") await client.setLoggingLevel("info");
      const meta = era === "modern" ? { "io.modelcontextprotocol/logLevel": "info" } : {};
      await client.callTool({ name: "test_tool_with_logging", arguments: {}, _meta: meta });
      expect(messages).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    } finally {
      await client.close();
    }
  });

  it("validates input with the contract's validators and answers with toolc's envelope", async () => {
    const client = await connect(build, era);
    try {
      const result = await client.callTool({ name: "test_mcp_param_header", arguments: { region: 42 } });
      expect(envelopeOf(result)).toMatchObject({ code: "INVALID_INPUT", tool: "test_mcp_param_header", attempts: 0 });
    } finally {
      await client.close();
    }
  });
});

describe("registerTools with confirmed and scoped tools (test/fixtures/auth)", () => {
  let dir: string;
  let register: (mcp: McpServer, handlers: unknown, options?: object) => string[];
  const deleted: string[] = [];
  const handlers = {
    delete_customer: (input: { customerId: string }) => (deleted.push(input.customerId), { deleted: input.customerId }),
    refund_order: () => ({ refunded: true }),
    get_order: (input: { orderId: string }) => ({ orderId: input.orderId, status: "paid" }),
    whoami: () => ({ subject: "", clientId: "", scopes: [] }),
  };
  const caller = (scopes: string[]): AuthInfo => ({ token: "verified-by-the-host", clientId: "agent-app", scopes, extra: { subject: "user-1" } });
  const build = (): McpServer => appServer((mcp) => register(mcp, handlers, { confirm: { secret: "a test secret of more than thirty-two bytes" } }));

  beforeAll(async () => {
    dir = await authProject();
    ({ registerTools: register } = await load<{ registerTools: typeof register }>(dir, "mcp-host.ts"));
  }, 120_000);
  afterAll(() => dir !== undefined && rmSync(dir, { recursive: true, force: true }));

  it.each(["modern", "legacy"] as const)("%s: a tool outside the authInfo's scopes is REJECTED, INSUFFICIENT_SCOPE, and nothing runs", async (era) => {
    const client = await connect(build, era, { authInfo: caller(["orders:read"]) });
    try {
      expect(envelopeOf(await client.callTool({ name: "refund_order", arguments: { orderId: "o1" } }))).toMatchObject({ code: "REJECTED", reason: "INSUFFICIENT_SCOPE", attempts: 0 });
      expect((await client.callTool({ name: "get_order", arguments: { orderId: "o1" } })).structuredContent).toEqual({ orderId: "o1", status: "paid" });
    } finally {
      await client.close();
    }
  });

  it("modern, over stateless HTTP: a confirmed tool runs once the user accepts, and not when they decline or cannot be asked", async () => {
    const scoped = { authInfo: caller(["customers:delete"]) };
    const accepting = await connect(build, "modern", { ...scoped, elicit: () => ({ action: "accept", content: { confirm: true } }) });
    const declining = await connect(build, "modern", { ...scoped, elicit: () => ({ action: "decline" }) });
    const unasked = await connect(build, "modern", scoped);
    try {
      const accepted = await accepting.callTool({ name: "delete_customer", arguments: { customerId: "modern-1" } });
      expect(accepted.structuredContent).toEqual({ deleted: "modern-1" });
      expect(envelopeOf(await declining.callTool({ name: "delete_customer", arguments: { customerId: "modern-2" } }))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
      expect(envelopeOf(await unasked.callTool({ name: "delete_customer", arguments: { customerId: "modern-3" } }))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE" });
      expect(deleted.filter((id) => id.startsWith("modern-"))).toEqual(["modern-1"]);
    } finally {
      await Promise.all([accepting.close(), declining.close(), unasked.close()]);
    }
  });

  it("legacy: over stateless HTTP the question cannot be carried back (CONFIRMATION_UNAVAILABLE, as toolc's own server); on a connection (in memory, as stdio) the user is asked", async () => {
    const overHttp = await connect(build, "legacy", { authInfo: caller(["customers:delete"]), elicit: () => ({ action: "accept", content: { confirm: true } }) });
    try {
      expect(envelopeOf(await overHttp.callTool({ name: "delete_customer", arguments: { customerId: "legacy-1" } }))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE" });
    } finally {
      await overHttp.close();
    }
    for (const [answer, id] of [[{ action: "accept" as const, content: { confirm: true } }, "legacy-2"], [{ action: "decline" as const }, "legacy-3"]] as const) {
      const mcp = build();
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: "host-test", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler("elicitation/create", async () => answer);
      await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
      try {
        const result = await client.callTool({ name: "delete_customer", arguments: { customerId: id } });
        if (answer.action === "accept") expect(result.structuredContent).toEqual({ deleted: id });
        else expect(envelopeOf(result)).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
      } finally {
        await client.close();
      }
    }
    expect(deleted.filter((id) => id.startsWith("legacy-"))).toEqual(["legacy-2"]);
  });
});
