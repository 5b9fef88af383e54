// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The types handlers, hooks and callers are written against. Each is bound
 * to one contract through the phantom types on `ToolContract`.
 */
import type { ContentBlockOf, ContentKind } from "./content.js";
import type {
  ContractMap,
  KindOf,
  OutputOf,
  ReasonOf,
  ResolvedInputOf,
} from "./contract.js";
import type { ToolEffect, ToolErrorCode, ToolIssue } from "./envelope.js";
import type { ConfirmHook } from "./approval.js";
import type { GuardTrace, LoopGuard } from "./loop-guard.js";
import type { SharedStore } from "./store.js";

/**
 * Who is calling: the verified access token's identity, over Streamable
 * HTTP with auth on. Never the token itself, which stays in the HTTP entry's
 * check; to call an upstream API, use a token of its own.
 */
export interface CallerIdentity {
  /** The token's `sub`: the user, or for a client acting on its own behalf, the client. */
  readonly subject: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`, else `sub`). */
  readonly clientId: string;
  /** The scopes the token grants, implied ones (`auth.impliedScopes`) included. */
  readonly scopes: readonly string[];
  /** The token's claims as verified (for a JWT, its payload). */
  readonly claims: { readonly [claim: string]: unknown };
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt: number | undefined;
}

/** What a handler gets besides its input. */
export interface HandlerContext<
  Reason extends string,
  Kind extends ContentKind = ContentKind,
> {
  /** The verified caller, over Streamable HTTP with auth on (or as `execute`'s `caller` option says); undefined otherwise. */
  readonly auth: CallerIdentity | undefined;
  /** Aborted when the call times out (the contract's timeoutMs) or the caller cancels. Pass it on to I/O. */
  readonly signal: AbortSignal;
  /** 1 on the first attempt, 2 on the first retry, and so on. */
  readonly attempt: number;
  /** The value of the contract's idempotency-key property, when it declares one. */
  readonly idempotencyKey: string | undefined;
  /**
   * Ends the call with REJECTED and one of the contract's declared reasons.
   * It throws, so `return ctx.reject(...)` reads naturally; do not catch it.
   */
  reject(reason: Reason, message?: string): never;
  /**
   * Adds a content block (image, audio, embedded resource, resource link,
   * text) to a successful result; it follows the output's JSON text block.
   * Dropped if the call fails; on a retry, only the last attempt's blocks go.
   */
  attach(block: ContentBlockOf<Kind>): void;
  /**
   * Sends `notifications/progress` when the caller passed a progressToken; a
   * no-op otherwise. Progress must increase across the whole call (retries
   * included): a value not above the last one sent is dropped, as is a
   * non-finite one. Never rejects.
   */
  progress(update: ProgressUpdate): Promise<void>;
  /**
   * Sends `notifications/message` when the caller asked for log messages
   * and `level` is at or above the level it asked for: a 2026-07-28 request
   * asks in its `_meta`, a 2025-era client with `logging/setLevel` (or the
   * server's `logLevel`). A no-op otherwise. `data` must be plain JSON, or
   * nothing is sent. Never rejects.
   */
  log(level: LoggingLevel, data: unknown): Promise<void>;
}

/** What `ctx.progress` reports; `progress` must increase from one update to the next. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** MCP's logging levels (RFC 5424's severities), least severe first. */
export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** A handler for contract `C`: input is validated with defaults applied; the return value is validated too. */
export type HandlerFor<C> = (
  input: ResolvedInputOf<C>,
  ctx: HandlerContext<ReasonOf<C>, KindOf<C>>,
) => OutputOf<C> | Promise<OutputOf<C>>;

/** Handlers by tool name. A tool without a handler is not served. */
export type HandlersFor<M extends ContractMap> = {
  [K in keyof M]?: HandlerFor<M[K]>;
};

/** How `classify` sorts an error the handler threw; undefined leaves it to the defaults. */
export type Classification =
  | "transient"
  | { transient: true; retryAfterMs?: number }
  | "failed"
  | undefined;

/** One event per attempt (or one, with attempt 0, when the input is rejected). Never carries payload values. */
export interface TraceEvent {
  tool: string;
  version: number;
  /** 0 when the handler was never called (invalid input, no handler, cancelled first). */
  attempt: number;
  durationMs: number;
  code: ToolErrorCode | "OK";
  effect: ToolEffect;
  /** Paths of input issues (INVALID_INPUT) or output issues (INVALID_OUTPUT). */
  issuePaths: string[];
  /** What the handler threw (or the timeout), with secrets scrubbed from its strings. */
  error?: unknown;
  /**
   * A call refused before its handler ran, for the operator: why
   * (`STORE_UNAVAILABLE`: the shared store could not say whether an
   * approval was used; `RATE_LIMITED`: the caller is over its limit).
   */
  reason?: string;
  /** INVALID_OUTPUT: what was wrong with the output. Never sent to the caller. */
  outputIssues?: ToolIssue[];
  /**
   * The MCP protocol generation the call came in on: `"modern"` for
   * 2026-07-28 (every request carries its version in `_meta`, no session),
   * `"legacy"` for 2025-11-25 and earlier (the `initialize` handshake).
   * Set on every event of a call served over MCP; absent for `execute` and
   * a provider's `run`, which no protocol carries.
   */
  protocolEra?: "modern" | "legacy";
  /** The protocol revision (`"2026-07-28"`, `"2025-11-25"`, …), when the request or its connection names it. */
  protocolVersion?: string;
  /** Set when a loop guard refused the call (attempt 0, the handler never ran) or stopped the loop after it (runtime/loop-guard.ts). */
  guard?: GuardTrace;
}

export interface ExecuteOptions {
  /**
   * Asks the user to approve a call of a confirmed tool (`confirm: true`)
   * before its handler runs, with the exact arguments and a question that
   * shows them all (runtime/approval.ts); only `true` runs it. Without a
   * hook such a call is refused (REJECTED, reason CONFIRMATION_UNAVAILABLE,
   * effect none) and its handler never runs. The MCP server sets it per
   * call from the user's answer to its elicitation.
   */
  confirm?: ConfirmHook;
  /** The caller, handed to the handler as `ctx.auth`; the MCP server sets it per call from the verified token. */
  caller?: CallerIdentity;
  /**
   * Where a tool's declared rate limit (`rateLimit` in its contract or the
   * config) counts calls, per `caller`: the store every instance shares
   * (runtime/store.ts). Unset: one store in this process.
   */
  store?: SharedStore;
  /**
   * `false`: declared rate limits are not counted here, because something
   * in front already counted the call (the generated HTTP and fetch
   * handlers count them at the border, and answer 429). Default true.
   */
  countRateLimits?: boolean;
  /** Called once per attempt, and for each refusal and stop of `guard`. Exceptions it throws are ignored. */
  onTrace?(event: TraceEvent): void;
  /**
   * The conversation's loop guard (`createLoopGuard()`, runtime/loop-guard.ts):
   * it refuses a repeated call the failure table forbids without running the
   * handler, and sets `guard.stop` when the loop must stop. One per conversation.
   */
  guard?: LoopGuard;
  /** Maps your own errors (HTTP 429/503, say) to transient or failed. */
  classify?(error: unknown): Classification;
  /** Cancels the call: no further attempts, and the handler's ctx.signal aborts. */
  signal?: AbortSignal;
  /** Jitter source in [0, 1); defaults to Math.random. */
  random?: () => number;
  /** How to wait between attempts; defaults to a timer that ends early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Receives the handler's `ctx.progress` updates while an attempt runs.
   * Unset: ctx.progress is a no-op. The MCP server sets it per call when the
   * caller sent a progressToken. Errors it throws or rejects with are ignored.
   */
  onProgress?(update: ProgressUpdate): void | Promise<void>;
  /** Receives the handler's `ctx.log` calls while an attempt runs. Unset: ctx.log is a no-op. Errors are ignored. */
  onLog?(level: LoggingLevel, data: unknown): void | Promise<void>;
}
