/**
 * The MCP SDK port, SDK 2.x line (`@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client`). toolc emits it as `runtime/sdk.ts` for
 * projects on this line, in place of the 1.x port; both offer the same
 * interface, so the rest of the runtime is shared. The client package is
 * imported for its types only: a server-only build loads nothing from it.
 */
import { LOG_LEVEL_META_KEY, Server } from "@modelcontextprotocol/server";
import type { CallToolResult, ListToolsResult, Tool } from "@modelcontextprotocol/server";
import type { Client } from "@modelcontextprotocol/client";

export type { CallToolResult, Client, ListToolsResult, Server, Tool };

/** Which SDK line this port targets. */
export const MCP_SDK_LINE: 1 | 2 = 2;

export interface ServerIdentity {
  name: string;
  version: string;
  instructions?: string;
}

/** What a tools/call handler gets from the SDK besides the call. */
export interface CallContext {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The request's `_meta.progressToken`, when it carried one. */
  progressToken: string | number | undefined;
  /** The logging level the request itself carries in its 2026-07-28 `_meta` envelope, when it does. */
  requestLogLevel: string | undefined;
  /** Sends a notification related to this request: Streamable HTTP puts it on this request's response stream. */
  notify(notification: CallNotification): Promise<void>;
}

/** The notifications a tools/call sends while it runs. */
export type CallNotification =
  | { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }
  | { method: "notifications/message"; params: { level: LoggingLevelName; logger: string; data: unknown } };

type LoggingLevelName = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** The `_meta` key a request carries its own logging level under (protocol 2026-07-28). */
export const REQUEST_LOG_LEVEL_KEY: string | undefined = LOG_LEVEL_META_KEY;

/** A type alias, not an interface: SDK 2.x takes params as a record, and only aliases are assignable to one. */
export type ToolCallParams = {
  name: string;
  arguments?: Record<string, unknown> | undefined;
};

/** How the runtime tells an SDK error apart: refused by the server, timed out, or anything else. */
export type SdkErrorKind = "refused" | "timeout" | "other";

/** JSON-RPC error codes (the spec's, so fixed) and the SDK 2.x timeout code. */
const INVALID_PARAMS = -32602;
const REFUSALS: readonly unknown[] = [-32700, -32600, -32601, INVALID_PARAMS];
const REQUEST_TIMEOUT = "REQUEST_TIMEOUT";

/**
 * A low-level SDK Server that declares the tools and logging capabilities.
 * SDK 2.x marks `logging` deprecated as of protocol 2026-07-28 (SEP-2577),
 * but it stays in the specification for at least twelve months and 2025-era
 * clients rely on it, so it is still declared.
 */
export function newToolServer(identity: ServerIdentity): Server {
  const { name, version, instructions } = identity;
  return new Server({ name, version }, { capabilities: { tools: {}, logging: {} }, ...(instructions === undefined ? {} : { instructions }) });
}

/**
 * Handles `logging/setLevel`, replacing the SDK's built-in handler: the
 * runtime keeps the level itself, because it filters `ctx.log` against a
 * server default too (see server.ts).
 */
export function onSetLoggingLevel(server: Server, set: (level: string) => void): void {
  server.setRequestHandler("logging/setLevel", (request) => {
    set(request.params.level);
    return {};
  });
}

export function onListTools(server: Server, list: () => Tool[]): void {
  server.setRequestHandler("tools/list", () => ({ tools: list() }));
}

/**
 * The tools/list entries as this line serves them: as they are. The SDK's
 * wire codec wraps an output schema whose root is not an object when it
 * encodes the list for a 2025-era request, and serves it as it is to a
 * 2026-07-28 one (SEP-2106).
 */
export function projectToolList(tools: Tool[]): Tool[] {
  return tools;
}

/**
 * A tools/call result in the form the request's protocol generation carries,
 * by the SDK's own projection (which its docs ask low-level servers to call):
 * a non-object output as `{ result }` for a 2025-era client, as it is for a
 * 2026-07-28 one.
 */
export function projectCallResult(server: Server, result: CallToolResult, outputSchema: { readonly [key: string]: unknown }): CallToolResult {
  return server.projectCallToolResult(result, outputSchema);
}

/** The envelope's level, read as a record: the SDK's declared envelope type names no keys. */
function requestLogLevel(envelope: object | undefined): string | undefined {
  const level = (envelope as { readonly [key: string]: unknown } | undefined)?.[LOG_LEVEL_META_KEY];
  return typeof level === "string" ? level : undefined;
}

export function onCallTool(server: Server, call: (params: ToolCallParams, context: CallContext) => Promise<CallToolResult>): void {
  server.setRequestHandler("tools/call", (request, ctx) => {
    const { mcpReq } = ctx;
    return call(request.params, {
      signal: mcpReq.signal,
      progressToken: mcpReq._meta?.progressToken,
      requestLogLevel: requestLogLevel(mcpReq.envelope),
      notify: mcpReq.notify,
    });
  });
}

/**
 * The protocol error for tools/call naming a tool the server does not serve
 * (InvalidParams, per the spec). The server sends any thrown error's `code`
 * and message; a plain Error carrying the code keeps this module free of the
 * client package's error classes.
 */
export function unknownToolError(message: string): Error {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}

export interface SdkRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

function sdkOptions(options: SdkRequestOptions): { signal?: AbortSignal; timeout?: number } {
  const out: { signal?: AbortSignal; timeout?: number } = {};
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeoutMs !== undefined) out.timeout = options.timeoutMs;
  return out;
}

/** tools/call through `request()`, not `callTool()`: the typed client checks the output itself and reports INVALID_OUTPUT. */
export function requestToolCall(client: Client, params: ToolCallParams, options: SdkRequestOptions): Promise<CallToolResult> {
  return client.request({ method: "tools/call", params }, sdkOptions(options)) as Promise<CallToolResult>;
}

/** One page of tools/list. */
export function requestToolList(client: Client, cursor: string | undefined): Promise<ListToolsResult> {
  return client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } });
}

/** Whether a connected server sends a non-object output wrapped as `{ result }`: on a 2025-era connection, not on a 2026-07-28 one. */
export function receivesWrappedOutput(client: Client): boolean {
  return client.getProtocolEra() !== "modern";
}

/** Sorted by the errors' public `code`: a JSON-RPC number from ProtocolError, a string from SdkError. */
export function sdkErrorKind(error: unknown): SdkErrorKind {
  if (!(error instanceof Error) || !("code" in error)) return "other";
  if (error.code === REQUEST_TIMEOUT) return "timeout";
  return REFUSALS.includes(error.code) ? "refused" : "other";
}
