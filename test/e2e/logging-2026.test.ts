/**
 * Logging and progress as MCP 2026-07-28 has them (SEP-2575; SEP-2577
 * deprecates the Logging feature itself): a server MUST NOT send `notifications/message` for a request that carries no log level
 * in its `_meta`, whatever the server's own `logLevel` says; a request that
 * carries one gets exactly the messages at or above it; progress goes to any
 * request with a token, in either generation. A 2025-era client that never
 * sent `logging/setLevel` gets the server's `logLevel` (here `debug`; by
 * default none). The server is tests/e2e/fixtures/notifying-server.ts, whose
 * handler logs at all eight levels and reports progress on every call.
 */
import { fileURLToPath } from "node:url";
import type { Client, LoggingMessageNotification } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, spawnHttp, type HttpProcess } from "./helpers.js";
import { final, legacyRequest, modernRequest, notifications } from "./rpc.js";

const notifyingServer = fileURLToPath(new URL("./fixtures/notifying-server.ts", import.meta.url));
const ALL = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const call = { name: "get_order", arguments: { customerId: "cus_1" } };
const levels = (messages: Record<string, unknown>[]): unknown[] => messages.map((m) => (m["params"] as { level: string }).level);

describe("logging and progress over Streamable HTTP", () => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await spawnHttp(notifyingServer, ["--http"]);
  });
  afterAll(async () => server?.stop());

  it("sends no log message to a 2026-07-28 request without a level, though the server's logLevel is debug", async () => {
    const response = await modernRequest(server.url, "tools/call", call, { headers: { "mcp-param-customer-id": "cus_1" } });
    expect(final(response)).toMatchObject({ result: { structuredContent: { found: false } } });
    expect(notifications(response, "notifications/message")).toEqual([]);
  });

  it("sends progress, and still no log message, to a 2026-07-28 request with a token and no level", async () => {
    const response = await modernRequest(server.url, "tools/call", call, { meta: { progressToken: "p1" }, headers: { "mcp-param-customer-id": "cus_1" } });
    expect(notifications(response, "notifications/progress").map((n) => n["params"])).toEqual([
      { progressToken: "p1", progress: 1, total: 2 },
      { progressToken: "p1", progress: 2, total: 2 },
    ]);
    expect(notifications(response, "notifications/message")).toEqual([]);
  });

  it("sends exactly the levels at or above a 2026-07-28 request's own level", async () => {
    const response = await modernRequest(server.url, "tools/call", call, { meta: { "io.modelcontextprotocol/logLevel": "error" }, headers: { "mcp-param-customer-id": "cus_1" } });
    expect(levels(notifications(response, "notifications/message"))).toEqual(["error", "critical", "alert", "emergency"]);
    expect(notifications(response, "notifications/message")[0]?.["params"]).toEqual({ level: "error", logger: "get_order", data: { level: "error" } });
  });

  it("refuses a 2026-07-28 request whose level is not one of MCP's with -32602", async () => {
    const response = await modernRequest(server.url, "tools/call", call, { meta: { "io.modelcontextprotocol/logLevel": "loud" }, headers: { "mcp-param-customer-id": "cus_1" } });
    expect(final(response)).toMatchObject({ error: { code: -32602 } });
  });

  it("has no logging/setLevel in 2026-07-28", async () => {
    expect(final(await modernRequest(server.url, "logging/setLevel", { level: "debug" }))).toMatchObject({ error: { code: -32601 } });
  });

  it("gives a 2025-era request that never set a level the server's logLevel, and progress under its token", async () => {
    const response = await legacyRequest(server.url, "tools/call", { ...call, _meta: { progressToken: 7 } });
    expect(levels(notifications(response, "notifications/message"))).toEqual(ALL);
    expect(notifications(response, "notifications/progress")).toHaveLength(2);
  });
});

describe("logging and progress over stdio, through the SDK 2.4 Client", () => {
  async function collecting(era: "modern" | "legacy"): Promise<{ client: Client; logs: LoggingMessageNotification["params"][]; progress: unknown[] }> {
    const { client } = await connectStdio(notifyingServer, [], era);
    const logs: LoggingMessageNotification["params"][] = [];
    const progress: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
    client.setNotificationHandler("notifications/progress", (n) => void progress.push(n.params));
    return { client, logs, progress };
  }

  it("sends no log message to a 2026-07-28 request without a level, and progress to one with a token", async () => {
    const { client, logs, progress } = await collecting("modern");
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const result = await client.callTool({ ...call, _meta: { progressToken: "s1" } });
      expect(result.structuredContent).toMatchObject({ found: false });
      // stdio keeps order: once a later call has answered, every notification of the first has been handled.
      await client.callTool(call);
      expect(progress).toEqual([1, 2].map((p) => ({ progressToken: "s1", progress: p, total: 2 })));
      expect(logs).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("gives a 2025-era connection the level it set with logging/setLevel", async () => {
    const { client, logs } = await collecting("legacy");
    try {
      expect(client.getProtocolEra()).toBe("legacy");
      await client.setLoggingLevel("alert");
      await client.callTool(call);
      expect(logs.map((l) => l.level)).toEqual(["alert", "emergency"]);
    } finally {
      await client.close();
    }
  });
});
