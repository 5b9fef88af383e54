/**
 * Both MCP SDK lines, end to end: the demo contracts generated for SDK 1.x
 * and for SDK 2.x, each served by its own generated server and driven by a
 * real client of the same line, in memory, over stdio and over Streamable
 * HTTP. The same behaviour tests run for every pair. Output for one line
 * must import nothing from the other.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer as createNodeServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientKits, type LineClient, type RawResult } from "./sdk-lines/clients.js";
import { generateForLine, removeLineOutputs, type SdkLine } from "./sdk-lines/generate.js";
import { BLOCKED, CHATTY, DOWN, LEAKED, LEAKY, LOG_LEVELS, lineHandlers, type GeneratedApi, type LineCall } from "./sdk-lines/handlers.js";
import { LogBuffer, root, stopProcess } from "./helpers.js";

const lineServer = fileURLToPath(new URL("./sdk-lines/server.ts", import.meta.url));

interface Contract {
  name: string;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: unknown;
  meta: unknown;
  retry: { attempts: number };
}

type ToolResultShape = { ok: boolean; code?: string; reason?: string; data?: unknown };

/** The generated index of one line's tree, as these tests use it. */
interface GeneratedIndex extends GeneratedApi {
  contracts: Record<string, Contract>;
  FAILURE_META_KEY: string;
  createServer(handlers: unknown, options?: unknown): { connect(transport: never): Promise<void>; close(): Promise<void> };
  createClient(client: unknown): Record<string, (input: unknown) => Promise<ToolResultShape>>;
  verifyServer(client: unknown): Promise<{ ok: boolean; tools: unknown[] }>;
}

interface Session {
  client: LineClient;
  /** Stateless Streamable HTTP: every POST meets a fresh server. */
  stateless: boolean;
  /** The endpoint, over HTTP. */
  url?: URL;
  /** Runs `work` and returns the handler calls it caused, in order. */
  track<T>(work: () => Promise<T>): Promise<{ result: T; calls: LineCall[] }>;
  close(): Promise<void>;
}

const outs = new Map<SdkLine, string>();

async function loadIndex(line: SdkLine): Promise<GeneratedIndex> {
  return (await import(pathToFileURL(join(outs.get(line)!, "index.ts")).href)) as GeneratedIndex;
}

/** Out of process, handler calls arrive on stderr; a marker call after the work shows they have all arrived. */
function remoteTracker(client: LineClient, log: LogBuffer): Session["track"] {
  let markers = 0;
  return async (work) => {
    const before = log.lines().length;
    const result = await work();
    const marker = `cus_marker_${++markers}`;
    await client.call("get_order", { customerId: marker });
    await log.waitFor(new RegExp(`^call .*"${marker}"`, "m"));
    const calls = log.lines().slice(before).filter((l) => l.startsWith("call ")).map((l) => JSON.parse(l.slice(5)) as LineCall);
    return { result, calls: calls.filter((c) => c.seen["customerId"] !== marker) };
  };
}

async function inMemorySession(line: SdkLine): Promise<Session> {
  const api = await loadIndex(line);
  const calls: LineCall[] = [];
  const server = api.createServer(lineHandlers(api, (c) => calls.push(c)));
  const client = await clientKits[line].inMemory(server);
  return {
    client,
    stateless: false,
    async track(work) {
      const start = calls.length;
      const result = await work();
      return { result, calls: calls.slice(start) };
    },
    close: async () => { await client.close(); await server.close(); },
  };
}

const envFor = (line: SdkLine): Record<string, string> => ({ TOOLC_E2E_OUT: outs.get(line)!, TOOLC_E2E_SDK: String(line) });

async function stdioSession(line: SdkLine): Promise<Session> {
  const log = new LogBuffer();
  const client = await clientKits[line].stdio({ script: lineServer, cwd: root, env: envFor(line), onStderr: (s) => log.attach(s) });
  return { client, stateless: false, track: remoteTracker(client, log), close: () => client.close() };
}

/** A spawned HTTP server; `extraEnv` may set TOOLC_E2E_LOG_LEVEL, the server's logLevel. */
async function httpSession(line: SdkLine, extraEnv: Record<string, string> = {}): Promise<Session> {
  const env = { ...process.env, ...envFor(line), ...extraEnv };
  const child = spawn(process.execPath, ["--import", "tsx", lineServer, "--http"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stderr);
  let client: LineClient;
  let url: URL;
  try {
    const [, listening] = await log.waitFor(/listening on (http:\/\/\S+)/);
    url = new URL(listening!);
    client = await clientKits[line].http(url);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { client, stateless: true, url, track: remoteTracker(client, log), close: async () => { await client.close(); await stopProcess(child); } };
}

function envelopeOf(api: GeneratedIndex, result: RawResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const meta = result._meta?.[api.FAILURE_META_KEY] as Record<string, unknown> | undefined;
  const text = result.content[0]?.text;
  expect(meta).toBeDefined();
  expect(JSON.parse(text ?? "null")).toEqual(meta);
  return meta!;
}

const LINES: SdkLine[] = [1, 2];
const TRANSPORTS: [string, (line: SdkLine) => Promise<Session>][] = [
  ["in memory", inMemorySession],
  ["stdio (spawned)", stdioSession],
  ["Streamable HTTP (spawned)", httpSession],
];

beforeAll(async () => {
  for (const line of LINES) outs.set(line, await generateForLine(line));
}, 120_000);
afterAll(() => removeLineOutputs());

/** Every module specifier a file imports or re-exports. */
function specifiersIn(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
}

function allSpecifiers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts")) found.push(...specifiersIn(readFileSync(join(entry.parentPath, entry.name), "utf8")));
  }
  return found;
}

describe("what each line's output imports", () => {
  it("SDK 2 output imports @modelcontextprotocol/server and client, and nothing from @modelcontextprotocol/sdk", () => {
    const packages = new Set(allSpecifiers(outs.get(2)!).filter((s) => !s.startsWith(".")));
    expect([...packages].filter((s) => s.startsWith("@modelcontextprotocol/sdk"))).toEqual([]);
    expect(packages).toContain("@modelcontextprotocol/server");
    expect(packages).toContain("@modelcontextprotocol/client");
  });

  it("SDK 1 output imports @modelcontextprotocol/sdk, and nothing from the 2.x packages", () => {
    const packages = new Set(allSpecifiers(outs.get(1)!).filter((s) => !s.startsWith(".")));
    expect([...packages].filter((s) => /^@modelcontextprotocol\/(server|client|core)\b/.test(s))).toEqual([]);
    expect([...packages].some((s) => s.startsWith("@modelcontextprotocol/sdk/"))).toBe(true);
  });
});

describe("SDK 1 line: every trace event names the protocol generation, as docs/mcp-sdk.md says", () => {
  type Traced = { tool: string; code: string; protocolEra?: string; protocolVersion?: string };
  const traced = (events: Traced[]) => events.map((e) => ({ tool: e.tool, code: e.code, protocolEra: e.protocolEra, protocolVersion: e.protocolVersion }));

  it("in memory: legacy, with no revision (SDK 1.x exposes none outside HTTP)", async () => {
    const api = await loadIndex(1);
    const events: Traced[] = [];
    const server = api.createServer(lineHandlers(api, () => {}), { onTrace: (e: Traced) => events.push(e) });
    const client = await clientKits[1].inMemory(server);
    try {
      await client.call("get_order", { customerId: "cus_1" });
      await client.call("get_order", { customerId: "cus_1", includeDeleted: true });
    } finally {
      await client.close();
      await server.close();
    }
    expect(traced(events)).toEqual([
      { tool: "get_order", code: "OK", protocolEra: "legacy", protocolVersion: undefined },
      { tool: "get_order", code: "INVALID_INPUT", protocolEra: "legacy", protocolVersion: undefined },
    ]);
  });

  it("over Streamable HTTP: legacy, with the revision of the request's MCP-Protocol-Version header", async () => {
    const api = await loadIndex(1);
    const events: Traced[] = [];
    const { createHttpHandler } = (await import(pathToFileURL(join(outs.get(1)!, "http.ts")).href)) as { createHttpHandler(h: unknown, o: unknown): (req: IncomingMessage, res: ServerResponse) => Promise<void> };
    const handle = createHttpHandler(lineHandlers(api, () => {}), { onTrace: (e: Traced) => events.push(e) });
    const http = createNodeServer((req, res) => void handle(req, res));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    try {
      const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_order", arguments: { customerId: "cus_1" } } };
      const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" };
      const response = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      http.closeAllConnections();
      http.close();
    }
    expect(traced(events)).toEqual([{ tool: "get_order", code: "OK", protocolEra: "legacy", protocolVersion: "2025-06-18" }]);
  });
});

describe.each(LINES)("SDK %s line", (line) => {
  describe.each(TRANSPORTS)("over %s, with an SDK client of the same line", (_name, start) => {
    let s: Session;
    let api: GeneratedIndex;
    beforeAll(async () => {
      api = await loadIndex(line);
      s = await start(line);
    }, 60_000);
    afterAll(async () => { await s?.close(); });

    it("lists each tool with exactly the compiled schemas, annotations and _meta", async () => {
      const tools = await s.client.listTools();
      const served = new Map(tools.map((t) => [t.name, t]));
      expect([...served.keys()]).toEqual(["get_order"]);
      const contract = api.contracts["get_order"]!;
      expect(served.get("get_order")?.inputSchema).toStrictEqual(contract.inputSchema);
      expect(served.get("get_order")?.outputSchema).toStrictEqual(contract.outputSchema);
      expect(served.get("get_order")?.annotations).toStrictEqual(contract.annotations);
      expect(served.get("get_order")?._meta).toStrictEqual(contract.meta);
    });

    it("answers a valid call with structuredContent and its JSON text", async () => {
      const result = await s.client.call("get_order", { customerId: "cus_1" });
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent).toEqual({ found: false, customerId: "cus_1", orders: [] });
      expect(JSON.parse(result.content[0]?.text ?? "null")).toEqual(result.structuredContent);
    });

    it("never lets bad input reach the handler, and locates the issue", async () => {
      const { result, calls } = await s.track(() => s.client.call("get_order", { customerId: "cus_1", includeDeleted: true }));
      expect(calls).toEqual([]);
      const failure = envelopeOf(api, result);
      expect(failure).toMatchObject({ code: "INVALID_INPUT", attempts: 0, effect: "none", retryable: false });
      expect((failure["issues"] as { path: string }[]).map((i) => i.path)).toEqual(["includeDeleted"]);
    });

    it("applies defaults before the handler runs", async () => {
      const { calls } = await s.track(() => s.client.call("get_order", { customerId: "cus_2" }));
      expect(calls.map((c) => c.seen)).toEqual([{ customerId: "cus_2", includeHistory: false }]);
    });

    it("retries a transient failure on a read exactly up to the policy", async () => {
      const { result, calls } = await s.track(() => s.client.call("get_order", { customerId: DOWN }));
      expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
      expect(envelopeOf(api, result)).toMatchObject({ code: "RETRYABLE", retryable: true, attempts: api.contracts["get_order"]!.retry.attempts });
    });

    it("carries a rejection's declared reason, raw and through the typed client", async () => {
      expect(envelopeOf(api, await s.client.call("get_order", { customerId: BLOCKED }))).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED" });
      const typed = api.createClient(s.client.sdkClient);
      expect(await typed["get_order"]!({ customerId: BLOCKED })).toMatchObject({ ok: false, code: "REJECTED", reason: "CUSTOMER_BLOCKED" });
      expect(await typed["get_order"]!({ customerId: "cus_3" })).toEqual({ ok: true, data: { found: false, customerId: "cus_3", orders: [] } });
    });

    it("never lets an undeclared output field leave the server", async () => {
      const result = await s.client.call("get_order", { customerId: LEAKY });
      expect(envelopeOf(api, result)).toMatchObject({ code: "INVALID_OUTPUT", retryable: false });
      expect(JSON.stringify(result)).not.toContain(LEAKED);
    });

    it("refuses an unknown tool with InvalidParams, which the typed client reports as nothing having run", async () => {
      await expect(s.client.call("no_such_tool", {})).rejects.toMatchObject({ code: -32602 });
      // create_refund has no handler here, so the server does not serve it: the refusal means nothing ran.
      const typed = api.createClient(s.client.sdkClient);
      const refund = { requestId: "0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10", orderId: "ord_1", amount: { amountCents: 100, currency: "EUR" } };
      expect(await typed["create_refund"]!(refund)).toMatchObject({ ok: false, code: "FAILED", effect: "none", attempts: 0 });
    });

    it("sends increasing progress under the caller's token, and none to a call without one", async () => {
      const token = `tok-${line}-${_name}`;
      expect((await s.client.callWithToken("get_order", { customerId: CHATTY }, token)).isError).not.toBe(true);
      await s.client.ping(); // everything the server sent before the ping's answer has been handled
      expect(s.client.progress).toEqual([0, 50, 100].map((p) => ({ progressToken: token, progress: p, total: 100, message: `at ${p}` })));
      expect((await s.client.call("get_order", { customerId: CHATTY })).isError).not.toBe(true);
      await s.client.ping();
      expect(s.client.progress).toHaveLength(3);
      expect(s.client.errors).toEqual([]);
    });

    it("logs nothing to a client that set no level, then at and above the level it sets (over a connection)", async () => {
      s.client.logs.length = 0;
      await s.client.call("get_order", { customerId: CHATTY });
      await s.client.ping();
      expect(s.client.logs).toEqual([]);
      await s.client.setLoggingLevel("error");
      await s.client.call("get_order", { customerId: CHATTY });
      await s.client.ping();
      // Stateless HTTP: the level went to the server that answered that POST, and no further.
      if (s.stateless) expect(s.client.logs).toEqual([]);
      else expect(s.client.logs).toEqual(["error", "critical", "alert", "emergency"].map((level) => ({ level, logger: "get_order", data: { level } })));
    });

    it("reports, on connect, exactly the contracts the server does not serve", async () => {
      const report = (await api.verifyServer(s.client.sdkClient)) as { ok: boolean; tools: { tool: string; problem: string }[] };
      expect(report.ok).toBe(false);
      expect(report.tools.map((t) => `${t.tool}:${t.problem}`).sort()).toEqual(["create_refund:missing", "delete_customer:missing", "search_orders:missing"]);
    });
  });
});

describe("the SDK 2 HTTP entry in a Node server of the application's own", () => {
  type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  const listen = async (handler: NodeHandler): Promise<{ url: URL; close(): void }> => {
    const http = createNodeServer((req, res) => void handler(req, res));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    return { url, close: () => { http.closeAllConnections(); http.close(); } };
  };
  const httpHandler = async (): Promise<NodeHandler> => {
    const api = await loadIndex(2);
    const { createHttpHandler } = (await import(pathToFileURL(join(outs.get(2)!, "http.ts")).href)) as { createHttpHandler(h: unknown): NodeHandler };
    return createHttpHandler(lineHandlers(api, () => {}));
  };

  it("uses a body that a framework's body parser already read", async () => {
    const inner = await httpHandler();
    const server = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      if (text !== "") Object.assign(req, { body: JSON.parse(text) as unknown });
      await inner(req, res);
    });
    const client = await clientKits[2].http(server.url);
    try {
      const api = await loadIndex(2);
      expect(await api.createClient(client.sdkClient)["get_order"]!({ customerId: "cus_1" })).toEqual({ ok: true, data: { found: false, customerId: "cus_1", orders: [] } });
    } finally {
      await client.close();
      server.close();
    }
  });

  it("returns 405 for GET and DELETE, 404 on another path, and 403 to a Host that is not allowed", async () => {
    const server = await listen(await httpHandler());
    try {
      expect((await fetch(server.url, { method: "GET" })).status).toBe(405);
      expect((await fetch(server.url, { method: "DELETE" })).status).toBe(405);
      expect((await fetch(new URL("/other", server.url), { method: "POST", body: "{}" })).status).toBe(404);
      // fetch will not send a Host header of the caller's choosing; node:http will.
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      const headers = { host: "not a host", "content-type": "application/json", accept: "application/json, text/event-stream" };
      const request = httpRequest({ host: "127.0.0.1", port: server.url.port, path: "/mcp", method: "POST", headers });
      request.end(body);
      const [response] = (await once(request, "response")) as [IncomingMessage];
      response.resume();
      // The Host/Origin checks run before either SDK line's transport: a DNS-rebinding name gets nothing.
      expect(response.statusCode).toBe(403);
    } finally {
      server.close();
    }
  });
});

describe.each(LINES)("SDK %s line over stateless Streamable HTTP: when a response is an event stream", (line) => {
  /** A raw POST, as a client that accepts both response types sends it. */
  const post = (url: URL, body: unknown): Promise<Response> =>
    fetch(url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(body),
    });
  const toolsCall = (meta?: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "get_order", arguments: { customerId: CHATTY }, ...(meta === undefined ? {} : { _meta: meta }) },
  });
  const contentType = (response: Response): string => (response.headers.get("content-type") ?? "").split(";")[0]!;
  /** The JSON-RPC messages of an SSE response, in order. */
  const events = async (response: Response): Promise<Record<string, unknown>[]> =>
    (await response.text()).split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
  /**
   * What a 2025-era request that can receive nothing gets: one JSON body on SDK 1.x, whose
   * transport toolc tells when to stream; on SDK 2.x the SDK's entry serves 2025-era requests
   * through its stateless transport, which answers every one as an event stream (clients
   * accept both), while a 2026-07-28 request gets JSON until its handler notifies.
   */
  const plainType = line === 1 ? "application/json" : "text/event-stream";
  const messagesOf = async (response: Response): Promise<Record<string, unknown>[]> =>
    contentType(response) === "text/event-stream" ? events(response) : [JSON.parse(await response.text()) as Record<string, unknown>];

  describe("with the server's logLevel off (the default)", () => {
    let s: Session;
    beforeAll(async () => { s = await httpSession(line, { TOOLC_E2E_LOG_LEVEL: "off" }); }, 60_000);
    afterAll(async () => { await s?.close(); });

    it(line === 1 ? "answers a plain tools/call, tools/list and ping with JSON" : "answers a plain tools/call, tools/list and ping with the result alone", async () => {
      for (const body of [toolsCall(), { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { jsonrpc: "2.0", id: 2, method: "ping" }]) {
        const response = await post(s.url!, body);
        expect(response.status).toBe(200);
        expect(contentType(response)).toBe(plainType);
        expect(await messagesOf(response)).toEqual([expect.objectContaining({ jsonrpc: "2.0", id: body.id, result: expect.any(Object) })]);
      }
    });

    it("streams a tools/call carrying a progressToken: its progress, then its result", async () => {
      const response = await post(s.url!, toolsCall({ progressToken: "tok-1" }));
      expect(contentType(response)).toBe("text/event-stream");
      const messages = await events(response);
      const progress = messages.filter((m) => m["method"] === "notifications/progress").map((m) => m["params"]);
      expect(progress).toEqual([0, 50, 100].map((p) => ({ progressToken: "tok-1", progress: p, total: 100, message: `at ${p}` })));
      expect(messages.filter((m) => m["method"] === "notifications/message")).toEqual([]);
      expect(messages.at(-1)).toMatchObject({ id: 7, result: { structuredContent: { customerId: CHATTY } } });
    });

    it(line === 2 ? "streams a call carrying its own log level, logging at that level" : "ignores a per-request log level, which protocol 2025 does not have", async () => {
      const response = await post(s.url!, toolsCall({ "io.modelcontextprotocol/logLevel": "alert" }));
      if (line === 1) {
        expect(contentType(response)).toBe("application/json");
        return;
      }
      expect(contentType(response)).toBe("text/event-stream");
      const messages = await events(response);
      expect(messages.filter((m) => m["method"] === "notifications/message").map((m) => m["params"])).toEqual(
        ["alert", "emergency"].map((level) => ({ level, logger: "get_order", data: { level } })),
      );
      expect(messages.at(-1)).toMatchObject({ id: 7, result: { structuredContent: { customerId: CHATTY } } });
    });

    it("refuses a body that is not JSON, or over 4 MiB, before any server runs", async () => {
      const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
      const broken = await fetch(s.url!, { method: "POST", headers, body: "{not json" });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
      const huge = await fetch(s.url!, { method: "POST", headers, body: JSON.stringify({ pad: "x".repeat(4 * 1024 * 1024) }) });
      expect(huge.status).toBe(413);
    });

    it("keeps JSON for a client that does not accept an event stream, token or not", async () => {
      const response = await fetch(s.url!, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify(toolsCall({ progressToken: "tok-2" })),
      });
      // The transport refuses such a client (the spec has clients accept both); it never gets a stream.
      expect(contentType(response)).not.toBe("text/event-stream");
    });
  });

  describe("with the server's logLevel info", () => {
    let s: Session;
    beforeAll(async () => { s = await httpSession(line, { TOOLC_E2E_LOG_LEVEL: "info" }); }, 60_000);
    afterAll(async () => { await s?.close(); });

    it("streams every tools/call, since any may log, and answers other requests as it would without", async () => {
      expect(contentType(await post(s.url!, toolsCall()))).toBe("text/event-stream");
      expect(contentType(await post(s.url!, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }))).toBe(plainType);
    });

    it("logs at the server's level to a client whose setLevel went to another POST (the conformance logging scenario)", async () => {
      s.client.logs.length = 0;
      await s.client.setLoggingLevel("debug");
      expect((await s.client.call("get_order", { customerId: CHATTY })).isError).not.toBe(true);
      expect(s.client.logs.map((l) => l.level)).toEqual(LOG_LEVELS.filter((level) => level !== "debug"));
    });
  });
});
