// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The decisions the failure table makes from the contract alone: may a call
 * be retried, how long to wait, and what a failure says about side effects.
 */
import type { AnyToolContract, RetryPolicy } from "./contract.js";
import type {
  ToolEffect,
  ToolErrorCode,
  ToolFailure,
  ToolIssue,
} from "./envelope.js";

/** Retrying is safe when repeating the call cannot repeat a side effect. */
export function isRetrySafe(contract: AnyToolContract): boolean {
  return (
    contract.effect === "read" ||
    contract.idempotent ||
    contract.idempotencyKey !== undefined
  );
}

/** Total attempts the policy allows, at least 1. */
export function maxAttempts(contract: AnyToolContract): number {
  if (!isRetrySafe(contract)) return 1;
  const attempts = Math.floor(contract.retry.attempts);
  return Number.isFinite(attempts) && attempts > 1 ? attempts : 1;
}

function unit(random: () => number): number {
  const r = random();
  return Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
}

/**
 * Delay before retry number `retry` (1 = before the second attempt): full
 * jitter over backoffMs * 2^(retry-1), capped at maxBackoffMs. A dependency's
 * own Retry-After is honoured as a floor, under the same cap.
 */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  random: () => number,
  retryAfterMs?: number,
): number {
  const cap = Math.max(0, policy.maxBackoffMs);
  const ceiling = Math.min(
    cap,
    Math.max(0, policy.backoffMs) * 2 ** Math.max(0, retry - 1),
  );
  const jittered = Math.floor(unit(random) * ceiling);
  return Math.min(cap, Math.max(jittered, retryAfterMs ?? 0));
}

const isWrite = (contract: AnyToolContract): boolean =>
  contract.effect !== "read";

/** A write that failed part-way may have changed something; a read never did. */
export function uncertainEffect(contract: AnyToolContract): ToolEffect {
  return isWrite(contract) ? "unknown" : "none";
}

/** The handler returned, so a write did whatever it does, even if its output was bad. */
export function completedEffect(contract: AnyToolContract): ToolEffect {
  return isWrite(contract) ? "applied" : "none";
}

export interface FailureDetails {
  issues?: ToolIssue[];
  reason?: string;
}

/** Builds an envelope with a fixed key order, so envelopes serialize identically. */
export function failure(
  contract: AnyToolContract,
  code: ToolErrorCode,
  message: string,
  retryable: boolean,
  effect: ToolEffect,
  attempts: number,
  details?: FailureDetails,
): ToolFailure<string> {
  const tool = contract.name;
  const version = contract.version;
  // One literal per shape rather than spreads of optional parts: spreads copy through temporary objects on every failed call.
  const issues = details?.issues;
  const reason = details?.reason;
  if (issues !== undefined && reason !== undefined)
    return {
      ok: false,
      code,
      message,
      issues,
      reason,
      retryable,
      effect,
      tool,
      version,
      attempts,
    };
  if (issues !== undefined)
    return {
      ok: false,
      code,
      message,
      issues,
      retryable,
      effect,
      tool,
      version,
      attempts,
    };
  if (reason !== undefined)
    return {
      ok: false,
      code,
      message,
      reason,
      retryable,
      effect,
      tool,
      version,
      attempts,
    };
  return {
    ok: false,
    code,
    message,
    retryable,
    effect,
    tool,
    version,
    attempts,
  };
}

/** Messages go to a model; keep them short. */
export function truncate(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
