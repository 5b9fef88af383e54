// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The types of the MCP SDK port that are the same on both SDK lines: what
 * the rest of the runtime hands to a port and gets from it. Each port
 * (runtime/sdk.ts for 1.x, runtime/sdk2/sdk.ts for 2.x, emitted under the
 * one name sdk.ts) imports them from here, and adds what differs by line:
 * the SDK's own types, and the answer a tools/call handler may give, which
 * the call context and the confirmation channel are generic over. Types
 * only, and no SDK import, so both lines share it as it is.
 */
import type { LogLevelSetting } from "./notify.js";
import type { CallerIdentity, LoggingLevel } from "./types.js";

export type { CallerIdentity };

export interface ServerIdentity {
  name: string;
  version: string;
  instructions?: string;
}

/** A freshness hint for a cacheable result (protocol 2026-07-28, SEP-2549); no 2025-era result carries one. */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/**
 * Which protocol generation a request came in on. `modern` is 2026-07-28
 * and later (every request carries its version in `_meta`, no session),
 * which SDK 1.x does not serve; `legacy` is 2025-11-25 and earlier (the
 * `initialize` handshake).
 */
export interface ProtocolInfo {
  era: "modern" | "legacy";
  /** The revision, when the request or its connection names it. */
  version: string | undefined;
}

/** The approval a confirmation round carries, as toolc minted it (runtime/confirm.ts). */
export interface ApprovalState {
  readonly tool: string;
  /** A keyed digest of the exact arguments approved. */
  readonly args: string;
  /** This approval's own id, so that it is used once. */
  readonly id: string;
}

/**
 * How a call asks the user to confirm it, answering with `Answer`, what the
 * line's tools/call handler may return. On SDK 2.x, protocol 2026-07-28's
 * multi round-trip `InputRequiredResult` with an elicitation (on a 2025-era
 * connection, the SDK's shim sends the elicitation and re-enters the call).
 * SDK 1.x has neither, so there it never can ask: a confirmed tool is
 * refused with CONFIRMATION_UNAVAILABLE.
 */
export interface ConfirmationChannel<Answer> {
  /** The client declared form elicitation for this request (2026-07-28) or at `initialize` (2025). */
  readonly canAsk: boolean;
  /** The approval state the request echoes back, verified by the state codec; undefined when it carries none. */
  readonly state: ApprovalState | undefined;
  /** What the user answered to the last round's question. */
  readonly answer: "accepted" | "declined" | "missing";
  /** The answer that asks the user, carrying `state` for the client to echo back. */
  ask(message: string, state: ApprovalState): Promise<Answer>;
}

/** What a tools/call handler gets from the SDK besides the call; `Answer` as for ConfirmationChannel. */
export interface CallContext<Answer> {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The request's `_meta.progressToken`, when it carried one. */
  progressToken: string | number | undefined;
  /** The logging level the request itself carries in its 2026-07-28 `_meta` envelope, when it does (never on SDK 1.x). */
  requestLogLevel: string | undefined;
  /** The protocol generation and revision the request was served under. */
  protocol: ProtocolInfo;
  /** Sends a notification related to this request: Streamable HTTP puts it on this request's response stream. */
  notify(notification: CallNotification): Promise<void>;
  /**
   * The verified caller, as the HTTP entry's token check left it on the
   * request, over HTTP with auth on; undefined otherwise, and always on
   * SDK 1.x, which has no resource server.
   */
  auth: CallerIdentity | undefined;
  /** How to ask the user to confirm the call. */
  confirmation: ConfirmationChannel<Answer>;
}

/** What a tools/list handler gets: the caller, so that the list can show what its scopes allow. */
export interface ListContext {
  auth: CallerIdentity | undefined;
}

/** The notifications a tools/call sends while it runs. */
export type CallNotification =
  | {
      method: "notifications/progress";
      params: {
        progressToken: string | number;
        progress: number;
        total?: number;
        message?: string;
      };
    }
  | {
      method: "notifications/message";
      params: { level: LoggingLevel; logger: string; data: unknown };
    };

/** A type alias, not an interface: SDK 2.x takes params as a record, and only aliases are assignable to one. */
export type ToolCallParams = {
  name: string;
  arguments?: Record<string, unknown> | undefined;
};

/** How the runtime tells an SDK error apart: refused by the server, timed out, or anything else. */
export type SdkErrorKind = "refused" | "timeout" | "other";

/** An HTTP 401 or 403 the client's transport met; `scopes` are those a 403's challenge named, when it named any. */
export type SdkAuthFailure =
  { kind: "unauthorized" } | { kind: "forbidden"; scopes: string | undefined };

/** A request's abort signal and timeout (milliseconds), named as both SDK lines' request options name them, so a port passes them on as they are. */
export interface SdkRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/**
 * The part of a tool's definition a tools/call passes: on SDK 2.x the
 * client mirrors its `x-mcp-header` arguments into `Mcp-Param-*` headers;
 * 2025-era calls carry none.
 */
export interface CalledTool {
  name: string;
  inputSchema: { [key: string]: unknown };
}

/** A bearer token as the typed client's transport sends it: a fixed one, or a function asked before every request. */
export type TokenSource =
  string | (() => string | undefined | Promise<string | undefined>);

/** What the port's HTTP entry (sdk-http.ts) is told besides how to make a server. */
export interface HttpEntryOptions {
  /**
   * The server's `logLevel`. SDK 1.x gives a tools/call an SSE response
   * unless it is `"off"`, since any call may then log; SDK 2.x does not need
   * it (the SDK answers with one JSON body and upgrades to SSE when a call
   * sends a notification before its result).
   */
  logLevel?: LogLevelSetting;
}

/**
 * A port's HTTP entry: one POST that passed toolc's border, its body
 * already parsed (undefined when it is not a JSON POST, which the SDK then
 * reads and answers itself) and the caller the border verified, answered
 * with a web-standard `Response`.
 */
export type HttpEntry = (
  request: Request,
  passed: {
    readonly parsedBody: unknown;
    readonly authInfo: object | undefined;
  },
) => Promise<Response>;
