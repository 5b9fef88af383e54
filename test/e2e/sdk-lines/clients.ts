/**
 * Real clients of each MCP SDK line behind one small interface, so the same
 * tests drive SDK 1.x and SDK 2.x: in memory, over stdio to a spawned
 * server, and over Streamable HTTP. Each line's client is built only from
 * that line's packages.
 */
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as InMemory1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ListToolsResultSchema, LoggingMessageNotificationSchema, ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, InMemoryTransport as InMemory2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import type { SdkLine } from "./generate.js";

export interface RawResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

export interface ListedTool {
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  _meta?: unknown;
}

export interface ProgressSeen {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

export interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface LineClient {
  /** The SDK's own client object, for the generated createClient and verifyServer. */
  readonly sdkClient: unknown;
  listTools(): Promise<ListedTool[]>;
  /** tools/call, with the result as sent (no output-schema check by the SDK). */
  call(name: string, args: Record<string, unknown>): Promise<RawResult>;
  /** tools/call carrying `_meta.progressToken: token`. */
  callWithToken(name: string, args: Record<string, unknown>, token: string): Promise<RawResult>;
  /**
   * Every notifications/progress received so far. Recorded by a plain
   * notification handler rather than `onprogress`: the SDKs drop progress for
   * a request whose response was read in the same chunk before it was
   * dispatched, which a pipe under load makes likely.
   */
  readonly progress: ProgressSeen[];
  setLoggingLevel(level: string): Promise<void>;
  /** Every notifications/message received so far, in order. */
  readonly logs: LogMessage[];
  /** Errors the client reported outside a request (a progress notification under an unknown token, say). */
  readonly errors: Error[];
  ping(): Promise<void>;
  close(): Promise<void>;
}

interface Connectable {
  connect(transport: never): Promise<void>;
}

const INFO = { name: "toolc-sdk-line-e2e", version: "1.0.0" };

function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...extra };
}

function wrap1(client: Client1): LineClient {
  const logs: LogMessage[] = [];
  const errors: Error[] = [];
  const progress: ProgressSeen[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setNotificationHandler(ProgressNotificationSchema, (n) => void progress.push(n.params));
  client.onerror = (error) => void errors.push(error);
  return {
    sdkClient: client,
    logs,
    errors,
    progress,
    listTools: async () => (await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema)).tools,
    call: (name, args) => client.request({ method: "tools/call", params: { name, arguments: args } }, CallToolResultSchema),
    callWithToken: (name, args, token) => client.request({ method: "tools/call", params: { name, arguments: args, _meta: { progressToken: token } } }, CallToolResultSchema),
    setLoggingLevel: async (level) => void (await client.setLoggingLevel(level as "debug")),
    ping: async () => void (await client.ping()),
    close: () => client.close(),
  };
}

function wrap2(client: Client2): LineClient {
  const logs: LogMessage[] = [];
  const errors: Error[] = [];
  const progress: ProgressSeen[] = [];
  client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
  client.setNotificationHandler("notifications/progress", (n) => void progress.push(n.params));
  client.onerror = (error) => void errors.push(error);
  return {
    sdkClient: client,
    logs,
    errors,
    progress,
    listTools: async () => (await client.request({ method: "tools/list", params: {} })).tools,
    call: async (name, args) => (await client.request({ method: "tools/call", params: { name, arguments: args } })) as RawResult,
    callWithToken: async (name, args, token) => (await client.request({ method: "tools/call", params: { name, arguments: args, _meta: { progressToken: token } } })) as RawResult,
    setLoggingLevel: async (level) => void (await client.setLoggingLevel(level as "debug")),
    ping: async () => void (await client.ping()),
    close: () => client.close(),
  };
}

export interface StdioTarget {
  script: string;
  cwd: string;
  env: Record<string, string>;
  /** Receives the child's stderr. */
  onStderr(stream: NodeJS.ReadableStream | null): void;
}

export interface ClientKit {
  inMemory(server: Connectable): Promise<LineClient>;
  stdio(target: StdioTarget): Promise<LineClient>;
  http(url: URL): Promise<LineClient>;
}

const kit1: ClientKit = {
  async inMemory(server) {
    const [clientSide, serverSide] = InMemory1.createLinkedPair();
    const client = new Client1(INFO);
    await Promise.all([server.connect(serverSide as never), client.connect(clientSide)]);
    return wrap1(client);
  },
  async stdio(target) {
    const transport = new Stdio1({ command: process.execPath, args: ["--import", "tsx", target.script], cwd: target.cwd, env: childEnv(target.env), stderr: "pipe" });
    target.onStderr(transport.stderr as NodeJS.ReadableStream | null);
    const client = new Client1(INFO);
    await client.connect(transport);
    return wrap1(client);
  },
  async http(url) {
    const client = new Client1(INFO);
    await client.connect(new Http1(url));
    return wrap1(client);
  },
};

const kit2: ClientKit = {
  async inMemory(server) {
    const [clientSide, serverSide] = InMemory2.createLinkedPair();
    const client = new Client2(INFO);
    await Promise.all([server.connect(serverSide as never), client.connect(clientSide)]);
    return wrap2(client);
  },
  async stdio(target) {
    const transport = new Stdio2({ command: process.execPath, args: ["--import", "tsx", target.script], cwd: target.cwd, env: childEnv(target.env), stderr: "pipe" });
    target.onStderr(transport.stderr as NodeJS.ReadableStream | null);
    const client = new Client2(INFO);
    await client.connect(transport);
    return wrap2(client);
  },
  async http(url) {
    const client = new Client2(INFO);
    await client.connect(new Http2(url));
    return wrap2(client);
  },
};

export const clientKits: Record<SdkLine, ClientKit> = { 1: kit1, 2: kit2 };
