/**
 * ctx.progress and ctx.log: what the executor passes on (checked, increasing,
 * plain JSON, never after the attempt), and what a real SDK 1.x client
 * receives from the MCP server in memory: progress only under its token, log
 * messages only at or above the level in force. The SDK 2.x line and the
 * other transports are covered in test/e2e/sdk-lines.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CallToolResultSchema, LoggingMessageNotificationSchema, type LoggingMessageNotification, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { createToolServer, type ServerOptions } from "../../generator/runtime/server.js";
import type { HandlerFor, LoggingLevel, ProgressUpdate, TraceEvent } from "../../generator/runtime/types.js";
import { connectInMemory } from "./connect.js";
import { contracts, getOrder, SECRET, TransientError } from "./fixtures.js";

type GetOrder = HandlerFor<typeof getOrder>;
const found = (customerId: string) => ({ found: true, customerId, orders: [] });

describe("ctx.progress in the executor", () => {
  it("is a no-op that resolves when nobody listens", async () => {
    const handler: GetOrder = async (input, ctx) => {
      await expect(ctx.progress({ progress: 1 })).resolves.toBeUndefined();
      await expect(ctx.log("error", "x")).resolves.toBeUndefined();
      return found(input.customerId);
    };
    expect(await executeTool(getOrder, { customerId: "c" }, handler)).toMatchObject({ ok: true });
  });

  it("passes on increasing values only, across retries too, and drops malformed updates", async () => {
    const seen: ProgressUpdate[] = [];
    const handler: GetOrder = async (input, ctx) => {
      await ctx.progress({ progress: 0, total: 10 });
      await ctx.progress({ progress: 5, total: 10, message: "half" });
      await ctx.progress({ progress: 5 }); // not above the last: dropped
      await ctx.progress({ progress: 3 }); // lower: dropped
      await ctx.progress({ progress: Number.NaN });
      await ctx.progress({ progress: 6, total: "10" as unknown as number });
      await ctx.progress(null as unknown as ProgressUpdate);
      if (ctx.attempt === 1) throw new TransientError("again");
      // The retry starts over from 0, which the caller has already seen: dropped; 7 is new.
      await ctx.progress({ progress: 7, total: 10 });
      return found(input.customerId);
    };
    const result = await executeTool(getOrder, { customerId: "c" }, handler, { onProgress: (u) => void seen.push(u), sleep: async () => {} });
    expect(result).toMatchObject({ ok: true });
    expect(seen).toEqual([{ progress: 0, total: 10 }, { progress: 5, total: 10, message: "half" }, { progress: 7, total: 10 }]);
  });

  it("never rejects, whatever the sink does", async () => {
    const handler: GetOrder = async (input, ctx) => {
      await ctx.progress({ progress: 1 });
      await ctx.progress({ progress: 2 });
      await ctx.log("info", "a");
      await ctx.log("info", "b");
      return found(input.customerId);
    };
    let calls = 0;
    const result = await executeTool(getOrder, { customerId: "c" }, handler, {
      onProgress: (u) => { calls++; if (u.progress === 1) throw new Error("sync"); return Promise.reject(new Error("async")); },
      onLog: (_l, d) => { calls++; if (d === "a") throw new Error("sync"); return Promise.reject(new Error("async")); },
    });
    expect(result).toMatchObject({ ok: true });
    expect(calls).toBe(4);
  });

  it("drops ctx.log with an unknown level or data that is not JSON, and sends a checked copy", async () => {
    const seen: [LoggingLevel, unknown][] = [];
    const data = { step: 1, nested: { list: [1, "two"] } };
    const handler: GetOrder = async (input, ctx) => {
      await ctx.log("verbose" as LoggingLevel, "unknown level");
      await ctx.log("info", { big: 1n });
      const cyclic: Record<string, unknown> = {};
      cyclic["self"] = cyclic;
      await ctx.log("info", cyclic);
      await ctx.log("warning", data);
      data.step = 2; // changed after sending: the copy already went out
      return found(input.customerId);
    };
    await executeTool(getOrder, { customerId: "c" }, handler, { onLog: (level, d) => void seen.push([level, d]) });
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe("warning");
    expect(JSON.stringify(seen[0]![1])).toBe(JSON.stringify({ step: 1, nested: { list: [1, "two"] } }));
  });

  it("mutes a handler still running after its attempt timed out", async () => {
    const sent: string[] = [];
    let late: Promise<void> | undefined;
    const handler: GetOrder = async (input, ctx) => {
      if (ctx.attempt === 1) {
        // Outlives the 50 ms timeout: once its signal aborts it tries to notify, then settles (the retry waits for that; see executor.ts).
        late = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true })).then(() => ctx.log("error", "late").then(() => ctx.progress({ progress: 99 })));
        return late.then(() => {
          throw new Error("finished too late");
        });
      }
      await ctx.log("info", `attempt ${ctx.attempt}`);
      return found(input.customerId);
    };
    const options = { onLog: (_l: LoggingLevel, d: unknown) => void sent.push(String(d)), onProgress: (u: ProgressUpdate) => void sent.push(`p${u.progress}`), sleep: async () => {} };
    expect(await executeTool(getOrder, { customerId: "c" }, handler, options)).toMatchObject({ ok: true });
    await late;
    expect(sent).toEqual(["attempt 2"]);
  });

  it("keeps progress and log payloads out of trace events", async () => {
    const events: TraceEvent[] = [];
    const handler: GetOrder = async (input, ctx) => {
      await ctx.progress({ progress: 1, message: `progress ${SECRET}` });
      await ctx.log("error", { note: `log ${SECRET}` });
      return found(input.customerId);
    };
    const sent: unknown[] = [];
    await executeTool(getOrder, { customerId: "c" }, handler, { onTrace: (e) => events.push(e), onProgress: (u) => void sent.push(u), onLog: (_l, d) => void sent.push(d) });
    expect(sent).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(Object.keys(events[0]!).sort()).toEqual(["attempt", "code", "durationMs", "effect", "issuePaths", "tool", "version"]);
  });
});

describe("progress and logging over MCP (SDK 1.x client, in memory)", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => { await cleanup?.(); cleanup = undefined; });

  /** get_order sends 0, 50, 100 of 100 and one message per level, least severe first. */
  const chatty: GetOrder = async (input, ctx) => {
    for (const progress of [0, 50, 100]) await ctx.progress({ progress, total: 100 });
    for (const level of ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const) await ctx.log(level, { level });
    return found(input.customerId);
  };

  async function start(options: ServerOptions = {}) {
    const connection = await connectInMemory(createToolServer(contracts, { get_order: chatty }, options));
    cleanup = connection.close;
    const logs: LoggingMessageNotification["params"][] = [];
    connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    return { client: connection.client, logs };
  }

  it("declares the logging capability", async () => {
    const { client } = await start();
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
  });

  it("sends increasing progress under the caller's token, and none without one", async () => {
    const { client } = await start();
    // A progress notification under no token of the client's surfaces here.
    const errors: Error[] = [];
    client.onerror = (error) => void errors.push(error);
    const progress: Progress[] = [];
    const params = { name: "get_order", arguments: { customerId: "c" } };
    const result = await client.request({ method: "tools/call", params }, CallToolResultSchema, { onprogress: (p) => void progress.push(p) });
    expect(result.isError).not.toBe(true);
    expect(progress.map((p) => [p.progress, p.total])).toEqual([[0, 100], [50, 100], [100, 100]]);
    // Without onprogress the client sends no token; a progress notification would then be an error on its side.
    const plain = await client.request({ method: "tools/call", params }, CallToolResultSchema);
    expect(plain.isError).not.toBe(true);
    await client.ping();
    expect(errors).toEqual([]);
  });

  it("logs nothing to a client that has not asked, by default", async () => {
    const { client, logs } = await start();
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping(); // everything sent before the ping's answer has arrived
    expect(logs).toEqual([]);
  });

  it("logs at info and above to a client that has not asked, with logLevel info", async () => {
    const { client, logs } = await start({ logLevel: "info" });
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping();
    expect(logs.map((l) => l.level)).toEqual(["info", "notice", "warning", "error", "critical", "alert", "emergency"]);
  });

  it("logs at and above the level the client set, with the tool as the logger", async () => {
    const { client, logs } = await start();
    await client.setLoggingLevel("error");
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping();
    expect(logs.map((l) => l.level)).toEqual(["error", "critical", "alert", "emergency"]);
    expect(logs[0]).toEqual({ level: "error", logger: "get_order", data: { level: "error" } });
    await client.setLoggingLevel("debug");
    logs.length = 0;
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping();
    expect(logs).toHaveLength(8);
  });

  it("uses the server's logLevel until the client sets one", async () => {
    const { client, logs } = await start({ logLevel: "warning" });
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping();
    expect(logs.map((l) => l.level)).toEqual(["warning", "error", "critical", "alert", "emergency"]);
    await client.setLoggingLevel("alert");
    logs.length = 0;
    await client.callTool({ name: "get_order", arguments: { customerId: "c" } });
    await client.ping();
    expect(logs.map((l) => l.level)).toEqual(["alert", "emergency"]);
  });
});
