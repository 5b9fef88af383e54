// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port, SDK 1.x line (`@modelcontextprotocol/sdk`). Every SDK
 * import of the runtime is in this module and sdk-http.ts; the rest of the
 * runtime is written against the small interface below and the types of
 * sdk-port.ts, which the SDK 2.x port (runtime/sdk2/) implements too. toolc
 * emits one port or the other under these same names, so generated code for
 * one line imports nothing from the other.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransportOptions } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type {
  CallToolResult,
  ListToolsResult,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { legacyCallResult, legacyOutputSchema } from "./legacy-output.js";
import type {
  CacheHint,
  CalledTool,
  CallContext as PortCallContext,
  ConfirmationChannel as PortConfirmationChannel,
  ListContext,
  ProtocolInfo,
  SdkAuthFailure,
  SdkErrorKind,
  SdkRequestOptions,
  ServerIdentity,
  TokenSource,
  ToolCallParams,
} from "./sdk-port.js";

export type { CallToolResult, Client, ListToolsResult, Server, Tool };

/** What a tools/call handler may answer: on this line, a result (SDK 1.x has no multi round-trip requests). */
export type ToolCallAnswer = CallToolResult;
/** How a call asks the user to confirm it; on this line it never can (NO_CONFIRMATION). */
export type ConfirmationChannel = PortConfirmationChannel<ToolCallAnswer>;
export type CallContext = PortCallContext<ToolCallAnswer>;

/** The approval state's codec; none on this line. */
export type ApprovalCodec = never;

export function approvalCodec(
  _key: Uint8Array,
  _ttlSeconds: number,
): ApprovalCodec | undefined {
  return undefined;
}

/**
 * SDK 1.x serves the 2025 revisions only, without the multi round-trip
 * requests or the SDK 2.x shim that carries them to 2025-era clients, so a
 * confirmed tool is refused with CONFIRMATION_UNAVAILABLE.
 */
const NO_CONFIRMATION: ConfirmationChannel = {
  canAsk: false,
  state: undefined,
  answer: "missing",
  ask: () => Promise.reject(new Error("SDK 1.x cannot ask for a confirmation")),
};

/** Which SDK line this port targets. */
export const MCP_SDK_LINE: 1 | 2 = 1;

/** The `_meta` key a 2026-07-28 request names its version under; none on this line, which serves the 2025 revisions only. */
export const MODERN_VERSION_META_KEY: string | undefined = undefined;

/** A low-level SDK Server that declares the tools and logging capabilities. 2025-era results carry no cache hint, so it is not used. */
export function newToolServer(
  identity: ServerIdentity,
  _cacheHint: CacheHint | undefined,
  _approvals?: ApprovalCodec,
): Server {
  const { name, version, instructions } = identity;
  return new Server(
    { name, version },
    {
      capabilities: { tools: {}, logging: {} },
      ...(instructions === undefined ? {} : { instructions }),
    },
  );
}

/**
 * Handles `logging/setLevel`, replacing the SDK's built-in handler: the
 * runtime keeps the level itself, because it filters `ctx.log` against a
 * server default too (see server.ts).
 */
export function onSetLoggingLevel(
  server: Server,
  set: (level: string) => void,
): void {
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    set(request.params.level);
    return {};
  });
}

export function onListTools(
  server: Server,
  list: (context: ListContext) => Tool[],
): void {
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: list({ auth: undefined }),
  }));
}

/**
 * The tools/list entries as this line serves them. SDK 1.x speaks only the
 * 2025-era protocol, whose outputSchema is always an object, so an output
 * schema of another root is wrapped here, exactly as SDK 2.x wraps it for a
 * 2025-era client (runtime/legacy-output.ts).
 */
export function projectToolList(tools: Tool[]): Tool[] {
  return tools.map((tool) =>
    tool.outputSchema === undefined
      ? tool
      : {
          ...tool,
          outputSchema: legacyOutputSchema(tool.outputSchema) as NonNullable<
            Tool["outputSchema"]
          >,
        },
  );
}

/** A tools/call result as this line's (2025-era) clients get it: a non-object output wrapped as `{ result }`, as SDK 2.x does for them. */
export function projectCallResult(
  _server: Server,
  result: CallToolResult,
  outputSchema: { readonly [key: string]: unknown },
): CallToolResult {
  return legacyCallResult(result, outputSchema);
}

/** Every request is a 2025-era one; over HTTP its revision is the `MCP-Protocol-Version` header (SDK 1.x exposes no negotiated version over stdio). */
function protocolOf(
  headers:
    { readonly [name: string]: string | string[] | undefined } | undefined,
): ProtocolInfo {
  const header = headers?.["mcp-protocol-version"];
  return {
    era: "legacy",
    version: typeof header === "string" ? header : undefined,
  };
}

export function onCallTool(
  server: Server,
  call: (
    params: ToolCallParams,
    context: CallContext,
  ) => Promise<ToolCallAnswer>,
  _approvals?: ApprovalCodec,
): void {
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    call(request.params, {
      signal: extra.signal,
      progressToken: extra._meta?.progressToken,
      requestLogLevel: undefined,
      protocol: protocolOf(extra.requestInfo?.headers),
      notify: extra.sendNotification,
      auth: undefined,
      confirmation: NO_CONFIRMATION,
    }),
  );
}

/** SDK 1.x has no host for toolc's tools on an application's McpServer: runtime/tool-host.ts is written for SDK 2.x only. */
export function hostedCallContext(
  _server: unknown,
  _ctx: unknown,
  _approvals?: ApprovalCodec,
): Promise<CallContext> {
  return Promise.reject(
    new Error("toolc's McpServer host (registerTools) needs MCP SDK 2.x"),
  );
}

/** The protocol error for tools/call naming a tool the server does not serve (InvalidParams, per the spec). */
export function unknownToolError(message: string): Error {
  return new McpError(ErrorCode.InvalidParams, message);
}

/**
 * tools/call through `request()`, not `callTool()`: callTool throws on an
 * output-schema mismatch, which the typed client reports as INVALID_OUTPUT.
 */
export function requestToolCall(
  client: Client,
  params: ToolCallParams,
  options: SdkRequestOptions,
  _tool: CalledTool,
): Promise<CallToolResult> {
  return client.request(
    { method: "tools/call", params },
    CallToolResultSchema,
    options,
  );
}

/** One page of tools/list, again through `request()`: listTools() would compile every output schema with the SDK's validator. */
export function requestToolList(
  client: Client,
  cursor: string | undefined,
): Promise<ListToolsResult> {
  return client.request(
    { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
    ListToolsResultSchema,
  );
}

/** Whether a connected server sends a non-object output wrapped as `{ result }`: always on this line, whose connections are all 2025-era. */
export function receivesWrappedOutput(_client: Client): boolean {
  return true;
}

const REFUSALS: readonly number[] = [
  ErrorCode.InvalidParams,
  ErrorCode.InvalidRequest,
  ErrorCode.MethodNotFound,
  ErrorCode.ParseError,
];

/**
 * An HTTP 401 or 403 the transport met: `UnauthorizedError` (an OAuth
 * provider that could not authorize), or its `StreamableHTTPError`, whose
 * public `code` is the HTTP status.
 */
export function sdkAuthFailure(error: unknown): SdkAuthFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { readonly code?: unknown }).code;
  if (
    error.name === "UnauthorizedError" ||
    (error.name === "StreamableHTTPError" && code === 401)
  )
    return { kind: "unauthorized" };
  if (error.name === "StreamableHTTPError" && code === 403)
    return { kind: "forbidden", scopes: undefined };
  return undefined;
}

/**
 * The `StreamableHTTPClientTransport` options that send `token` with every
 * request. SDK 1.x's `authProvider` is a whole OAuth client, so this wraps
 * the transport's documented `fetch` option to set the header.
 */
export function bearerAuth(
  token: TokenSource,
): Pick<StreamableHTTPClientTransportOptions, "fetch"> {
  return {
    fetch: async (url, init) => {
      const value = typeof token === "string" ? token : await token();
      const headers = new Headers(init?.headers);
      if (value !== undefined) headers.set("authorization", `Bearer ${value}`);
      return fetch(url, { ...init, headers });
    },
  };
}

export function sdkErrorKind(error: unknown): SdkErrorKind {
  if (!(error instanceof McpError)) return "other";
  if (error.code === ErrorCode.RequestTimeout) return "timeout";
  return REFUSALS.includes(error.code) ? "refused" : "other";
}
