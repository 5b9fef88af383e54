/**
 * The MCP SDK port, SDK 2.x line (`@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client`). toolc emits it as `runtime/sdk.ts` for
 * projects on this line, in place of the 1.x port; both offer the same
 * interface, so the rest of the runtime is shared. The client package is
 * imported for its types only: a server-only build loads nothing from it.
 */
import { LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, Server } from "@modelcontextprotocol/server";
import type { CallToolResult, ListToolsResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import type { Client } from "@modelcontextprotocol/client";

export type { CallToolResult, Client, ListToolsResult, Server, Tool };

/** Which SDK line this port targets. */
export const MCP_SDK_LINE: 1 | 2 = 2;

export interface ServerIdentity {
  name: string;
  version: string;
  instructions?: string;
}

/** A freshness hint for a cacheable result (protocol 2026-07-28, SEP-2549). */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/**
 * Which protocol generation a request came in on. `modern` is 2026-07-28
 * and later (every request carries its version in `_meta`, no session);
 * `legacy` is 2025-11-25 and earlier (the `initialize` handshake).
 */
export interface ProtocolInfo {
  era: "modern" | "legacy";
  /** The revision, when the request or its connection names it. */
  version: string | undefined;
}

/** What a tools/call handler gets from the SDK besides the call. */
export interface CallContext {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The request's `_meta.progressToken`, when it carried one. */
  progressToken: string | number | undefined;
  /** The logging level the request itself carries in its 2026-07-28 `_meta` envelope, when it does. */
  requestLogLevel: string | undefined;
  /** The protocol generation and revision the request was served under. */
  protocol: ProtocolInfo;
  /** Sends a notification related to this request: Streamable HTTP puts it on this request's response stream. */
  notify(notification: CallNotification): Promise<void>;
}

/** The notifications a tools/call sends while it runs. */
export type CallNotification =
  | { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }
  | { method: "notifications/message"; params: { level: LoggingLevelName; logger: string; data: unknown } };

type LoggingLevelName = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/**
 * The `_meta` key under which a 2026-07-28 request names its protocol
 * version: a request that carries it is served on the modern path. None on
 * the 1.x line, which serves the 2025 revisions only.
 */
export const MODERN_VERSION_META_KEY: string | undefined = PROTOCOL_VERSION_META_KEY;

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
 * Protocol 2026-07-28 deprecates `logging` (SEP-2577) but keeps it in the
 * specification during the deprecation window: a server that sends log
 * messages must still declare it, and 2025-era clients need it for
 * `logging/setLevel`. The cache hint fills `ttlMs`/`cacheScope` on the
 * 2026-07-28 `tools/list` and `server/discover` results (2025-era results
 * never carry them); the SDK fills the fields it leaves out with `0` and
 * `"private"`.
 */
export function newToolServer(identity: ServerIdentity, cacheHint: CacheHint | undefined): Server {
  const { name, version, instructions } = identity;
  const cacheHints = cacheHint === undefined ? {} : { cacheHints: { "tools/list": cacheHint, "server/discover": cacheHint } };
  return new Server({ name, version }, { capabilities: { tools: {}, logging: {} }, ...cacheHints, ...(instructions === undefined ? {} : { instructions }) });
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

/** One string field of the request's envelope, read as a record: the SDK's declared envelope type names no keys. */
function envelopeString(envelope: object | undefined, key: string): string | undefined {
  const value = (envelope as { readonly [key: string]: unknown } | undefined)?.[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * A request with a version in its envelope is a 2026-07-28 request. Any
 * other was served on the 2025 path: over stateless HTTP its revision is the
 * `MCP-Protocol-Version` header, on a stdio connection the one `initialize`
 * negotiated (the accessor the SDK keeps for 2025-era connections).
 */
function protocolOf(server: Server, ctx: ServerContext): ProtocolInfo {
  const modern = envelopeString(ctx.mcpReq.envelope, PROTOCOL_VERSION_META_KEY);
  if (modern !== undefined) return { era: "modern", version: modern };
  const header = ctx.http?.req?.headers.get("mcp-protocol-version") ?? undefined;
  return { era: "legacy", version: header ?? server.getNegotiatedProtocolVersion() };
}

export function onCallTool(server: Server, call: (params: ToolCallParams, context: CallContext) => Promise<CallToolResult>): void {
  server.setRequestHandler("tools/call", (request, ctx) => {
    const { mcpReq } = ctx;
    return call(request.params, {
      signal: mcpReq.signal,
      progressToken: mcpReq._meta?.progressToken,
      requestLogLevel: envelopeString(mcpReq.envelope, LOG_LEVEL_META_KEY),
      protocol: protocolOf(server, ctx),
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

/** The part of a tool's definition the client needs to mirror its `x-mcp-header` arguments into `Mcp-Param-*` headers. */
export interface CalledTool {
  name: string;
  inputSchema: { [key: string]: unknown };
}

/**
 * tools/call through `callTool()` with the contract's input schema as the
 * tool definition, so that on a 2026-07-28 Streamable HTTP connection the
 * SDK mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers (SEP-2243)
 * without a prior tools/list. The definition carries no output schema, so
 * the SDK validates no output: the typed client checks it itself and
 * reports INVALID_OUTPUT.
 */
export function requestToolCall(client: Client, params: ToolCallParams, options: SdkRequestOptions, tool: CalledTool): Promise<CallToolResult> {
  const toolDefinition = { name: tool.name, inputSchema: tool.inputSchema as Tool["inputSchema"] };
  return client.callTool(params, { ...sdkOptions(options), toolDefinition });
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
