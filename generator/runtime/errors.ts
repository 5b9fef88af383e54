// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Errors a handler throws to steer the executor. A `TransientError` says "try
 * again later"; whether the executor actually retries is decided by the
 * contract (idempotency, retry policy), never by the handler.
 */

// Brands survive two copies of the runtime in one process (two generated
// folders, say), where `instanceof` would not.
const TRANSIENT = Symbol.for("toolc.TransientError");
const REJECTION = Symbol.for("toolc.Rejection");

export interface TransientErrorOptions {
  /** How long the failing dependency asked us to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** Throw from a handler when a dependency is temporarily unavailable. */
export class TransientError extends Error {
  readonly retryAfterMs: number | undefined;
  readonly [TRANSIENT] = true;

  constructor(message: string, options: TransientErrorOptions = {}) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "TransientError";
    const after = options.retryAfterMs;
    this.retryAfterMs =
      typeof after === "number" && Number.isFinite(after) && after >= 0
        ? after
        : undefined;
  }
}

export function isTransientError(error: unknown): error is TransientError {
  return hasMark(error, TRANSIENT);
}

/** Reads one mark; a thrown value can be a Proxy whose reads throw, and then it has no mark. */
function hasMark(error: unknown, mark: symbol): boolean {
  if (typeof error !== "object" || error === null) return false;
  try {
    return (error as { [key: symbol]: unknown })[mark] === true;
  } catch {
    return false;
  }
}

/**
 * What `ctx.reject(reason, message)` throws. It is internal: the executor
 * catches it and turns it into a REJECTED envelope. It extends Error only so
 * that a stray one that escapes user code still has a stack.
 */
export class RejectionSignal extends Error {
  readonly reason: string;
  readonly detail: string | undefined;
  readonly [REJECTION] = true;

  constructor(reason: string, detail: string | undefined) {
    super(`Rejected: ${reason}`);
    this.name = "RejectionSignal";
    this.reason = reason;
    this.detail = detail;
  }
}

export function isRejectionSignal(error: unknown): error is RejectionSignal {
  return hasMark(error, REJECTION);
}
