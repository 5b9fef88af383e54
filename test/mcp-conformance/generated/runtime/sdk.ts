// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port, SDK 2.x line (`@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client`). toolc emits it as `runtime/sdk.ts` for
 * projects on this line, in place of the 1.x port; both offer the same
 * interface, with the types of runtime/sdk-port.ts, so the rest of the
 * runtime is shared. The client package is imported for its types only: a
 * server-only build loads nothing from it.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
} from "@modelcontextprotocol/server";
import type {
  AuthInfo,
  CallToolResult,
  InputRequiredResult,
  ListToolsResult,
  ServerContext,
  Tool,
} from "@modelcontextprotocol/server";
import type {
  Client,
  StreamableHTTPClientTransportOptions,
} from "@modelcontextprotocol/client";
import type {
  ApprovalState,
  CacheHint,
  CalledTool,
  CallContext as PortCallContext,
  CallerIdentity,
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

/** What a tools/call handler may answer: a result, or (protocol 2026-07-28, multi round-trip) a request for input. */
export type ToolCallAnswer = CallToolResult | InputRequiredResult;
/** How a call asks the user to confirm it: protocol 2026-07-28's `InputRequiredResult` with an elicitation. */
export type ConfirmationChannel = PortConfirmationChannel<ToolCallAnswer>;
export type CallContext = PortCallContext<ToolCallAnswer>;

/** Which SDK line this port targets. */
export const MCP_SDK_LINE: 1 | 2 = 2;

/** The key of the one question a confirmation round asks. */
const CONFIRM_INPUT = "confirm";

/** The question: a flat form with one box, as elicitation's restricted schema allows. */
const CONFIRM_SCHEMA = {
  type: "object",
  properties: {
    confirm: {
      type: "boolean",
      title: "Confirm",
      description: "Run the tool with exactly these arguments.",
    },
  },
  required: ["confirm"],
} as const;

/** The signed, expiring approval state: the SDK's HMAC codec, bound to the caller, so another principal cannot present it. */
export interface ApprovalCodec {
  mint(state: ApprovalState, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<ApprovalState>;
}

/** The principal a request is made by: the verified token's client and subject, or nobody (stdio, no auth). */
function principalOf(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  return auth === undefined
    ? ""
    : `${auth.clientId}\u0000${String(auth.extra?.["subject"] ?? "")}`;
}

export function approvalCodec(
  key: Uint8Array,
  ttlSeconds: number,
): ApprovalCodec {
  return createRequestStateCodec<ApprovalState>({
    key,
    ttlSeconds,
    bind: (ctx) => `tools/call\u0000${principalOf(ctx)}`,
  });
}

/** Whether the client can answer a form elicitation: `elicitation: {}` means form, for compatibility. */
function declaresFormElicitation(capabilities: unknown): boolean {
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const elicitation = (capabilities as { readonly elicitation?: unknown })
    .elicitation;
  if (typeof elicitation !== "object" || elicitation === null) return false;
  const modes = elicitation as {
    readonly form?: unknown;
    readonly url?: unknown;
  };
  return modes.form !== undefined || modes.url === undefined;
}

function confirmationChannel(
  server: Server,
  ctx: ServerContext,
  codec: ApprovalCodec | undefined,
  modern: boolean,
): ConfirmationChannel {
  const capabilities = modern
    ? (
        ctx.mcpReq.envelope as { readonly [key: string]: unknown } | undefined
      )?.[CLIENT_CAPABILITIES_META_KEY]
    : server.getClientCapabilities();
  const view = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_INPUT);
  const answer =
    view.kind !== "elicit"
      ? "missing"
      : view.action === "accept" && view.content?.["confirm"] === true
        ? "accepted"
        : "declined";
  return {
    canAsk: codec !== undefined && declaresFormElicitation(capabilities),
    // The SDK ran the codec's verify before this handler, so the state read here is the one it proved.
    state:
      codec === undefined
        ? undefined
        : ctx.mcpReq.requestState<ApprovalState>(),
    answer,
    async ask(message, state) {
      if (codec === undefined) throw new Error("no approval codec");
      const question = inputRequired.elicit({
        message,
        requestedSchema: CONFIRM_SCHEMA as never,
      });
      return inputRequired({
        inputRequests: { [CONFIRM_INPUT]: question },
        requestState: await codec.mint(state, ctx),
      });
    },
  };
}

/** The caller the HTTP entry verified, from the SDK's pass-through `AuthInfo`; undefined without one. */
function callerOf(authInfo: AuthInfo | undefined): CallerIdentity | undefined {
  if (authInfo === undefined) return undefined;
  const extra = authInfo.extra ?? {};
  const claims =
    typeof extra["claims"] === "object" && extra["claims"] !== null
      ? (extra["claims"] as CallerIdentity["claims"])
      : {};
  const subject =
    typeof extra["subject"] === "string" ? extra["subject"] : authInfo.clientId;
  return {
    subject,
    clientId: authInfo.clientId,
    scopes: [...authInfo.scopes],
    claims,
    expiresAt: authInfo.expiresAt,
  };
}

/**
 * The `_meta` key under which a 2026-07-28 request names its protocol
 * version: a request that carries it is served on the modern path. None on
 * the 1.x line, which serves the 2025 revisions only.
 */
export const MODERN_VERSION_META_KEY: string | undefined =
  PROTOCOL_VERSION_META_KEY;

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
export function newToolServer(
  identity: ServerIdentity,
  cacheHint: CacheHint | undefined,
  approvals?: ApprovalCodec,
): Server {
  const { name, version, instructions } = identity;
  const cacheHints =
    cacheHint === undefined
      ? {}
      : {
          cacheHints: { "tools/list": cacheHint, "server/discover": cacheHint },
        };
  // The codec checks every echoed requestState before a handler runs; one that fails is answered -32602.
  const requestState =
    approvals === undefined
      ? {}
      : { requestState: { verify: approvals.verify } };
  return new Server(
    { name, version },
    {
      capabilities: { tools: {}, logging: {} },
      ...cacheHints,
      ...requestState,
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
  server.setRequestHandler("logging/setLevel", (request) => {
    set(request.params.level);
    return {};
  });
}

export function onListTools(
  server: Server,
  list: (context: ListContext) => Tool[],
): void {
  server.setRequestHandler("tools/list", (_request, ctx) => ({
    tools: list({ auth: callerOf(ctx.http?.authInfo) }),
  }));
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
export function projectCallResult(
  server: Server,
  result: CallToolResult,
  outputSchema: { readonly [key: string]: unknown },
): CallToolResult {
  return server.projectCallToolResult(result, outputSchema);
}

/** One string field of the request's envelope, read as a record: the SDK's declared envelope type names no keys. */
function envelopeString(
  envelope: object | undefined,
  key: string,
): string | undefined {
  const value = (envelope as { readonly [key: string]: unknown } | undefined)?.[
    key
  ];
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
  const header =
    ctx.http?.req?.headers.get("mcp-protocol-version") ?? undefined;
  return {
    era: "legacy",
    version: header ?? server.getNegotiatedProtocolVersion(),
  };
}

export function onCallTool(
  server: Server,
  call: (
    params: ToolCallParams,
    context: CallContext,
  ) => Promise<ToolCallAnswer>,
  approvals?: ApprovalCodec,
): void {
  server.setRequestHandler("tools/call", (request, ctx) =>
    call(request.params, callContextOf(server, ctx, approvals)),
  );
}

/** What a tools/call handler needs of the SDK's request context: its signal, progress token, log level, protocol, notifier, caller and confirmation channel. */
export function callContextOf(
  server: Server,
  ctx: ServerContext,
  approvals?: ApprovalCodec,
): CallContext {
  const { mcpReq } = ctx;
  const protocol = protocolOf(server, ctx);
  return {
    signal: mcpReq.signal,
    progressToken: mcpReq._meta?.progressToken,
    requestLogLevel: envelopeString(mcpReq.envelope, LOG_LEVEL_META_KEY),
    protocol,
    notify: mcpReq.notify,
    auth: callerOf(ctx.http?.authInfo),
    confirmation: confirmationChannel(
      server,
      ctx,
      approvals,
      protocol.era === "modern",
    ),
  };
}

/**
 * The call context for a tool that an application's `McpServer` dispatches
 * (runtime/tool-host.ts). Such a server was made without toolc's
 * `requestState.verify`, so an echoed confirmation state arrives as the
 * client sent it: it is verified here, and one that fails counts as none
 * (the user is asked again; nothing runs unapproved).
 */
export async function hostedCallContext(
  server: Server,
  ctx: ServerContext,
  approvals?: ApprovalCodec,
): Promise<CallContext> {
  const echoed: unknown = ctx.mcpReq.requestState();
  if (approvals === undefined || echoed === undefined)
    return callContextOf(server, ctx, approvals);
  const state =
    typeof echoed === "string"
      ? await approvals.verify(echoed, ctx).catch(() => undefined)
      : undefined;
  const requestState = (() => state) as ServerContext["mcpReq"]["requestState"];
  return callContextOf(
    server,
    { ...ctx, mcpReq: { ...ctx.mcpReq, requestState } },
    approvals,
  );
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

/**
 * tools/call through `callTool()` with the contract's input schema as the
 * tool definition, so that on a 2026-07-28 Streamable HTTP connection the
 * SDK mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers (SEP-2243)
 * without a prior tools/list. The definition carries no output schema, so
 * the SDK validates no output: the typed client checks it itself and
 * reports INVALID_OUTPUT.
 */
export function requestToolCall(
  client: Client,
  params: ToolCallParams,
  options: SdkRequestOptions,
  tool: CalledTool,
): Promise<CallToolResult> {
  const toolDefinition = {
    name: tool.name,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
  };
  return client.callTool(params, { ...options, toolDefinition });
}

/** One page of tools/list. */
export function requestToolList(
  client: Client,
  cursor: string | undefined,
): Promise<ListToolsResult> {
  return client.request({
    method: "tools/list",
    params: cursor === undefined ? {} : { cursor },
  });
}

/** Whether a connected server sends a non-object output wrapped as `{ result }`: on a 2025-era connection, not on a 2026-07-28 one. */
export function receivesWrappedOutput(client: Client): boolean {
  return client.getProtocolEra() !== "modern";
}

/**
 * An HTTP 401 or 403 the transport met, by the errors' public names and
 * codes (the client package is not loaded for its classes): 401 is
 * `UnauthorizedError` (no way to refresh) or `SdkHttpError` with
 * `CLIENT_HTTP_AUTHENTICATION` (still 401 after a refresh); a 403
 * `insufficient_scope` is `InsufficientScopeError`, carrying the scopes the
 * challenge named, or `CLIENT_HTTP_FORBIDDEN`.
 */
export function sdkAuthFailure(error: unknown): SdkAuthFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { readonly code?: unknown }).code;
  if (
    error.name === "UnauthorizedError" ||
    code === "CLIENT_HTTP_AUTHENTICATION"
  )
    return { kind: "unauthorized" };
  if (error.name === "InsufficientScopeError") {
    const scope = (error as { readonly requiredScope?: unknown }).requiredScope;
    return {
      kind: "forbidden",
      scopes: typeof scope === "string" ? scope : undefined,
    };
  }
  if (code === "CLIENT_HTTP_FORBIDDEN")
    return { kind: "forbidden", scopes: undefined };
  return undefined;
}

/**
 * The `StreamableHTTPClientTransport` options that send `token` with every
 * request: the SDK's own minimal `AuthProvider`, whose `token()` it calls
 * before each request. A 401 then throws, and the typed client reports it.
 */
export function bearerAuth(
  token: TokenSource,
): Pick<StreamableHTTPClientTransportOptions, "authProvider"> {
  return {
    authProvider: {
      token: async () => (typeof token === "string" ? token : await token()),
    },
  };
}

/** Sorted by the errors' public `code`: a JSON-RPC number from ProtocolError, a string from SdkError. */
export function sdkErrorKind(error: unknown): SdkErrorKind {
  if (!(error instanceof Error) || !("code" in error)) return "other";
  if (error.code === REQUEST_TIMEOUT) return "timeout";
  return REFUSALS.includes(error.code) ? "refused" : "other";
}
