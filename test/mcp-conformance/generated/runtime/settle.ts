// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What an attempt's outcome becomes: the envelope the caller gets (`settle`)
 * and the trace event the application sees (`traceFor`, `emit`), with
 * nothing of a sensitive value in either. The executor (executor.ts) decides
 * when an outcome is final; this module only says what it reads as.
 */
import type { AnyToolContract } from "./contract.js";
import type { ToolEffect, ToolIssue, ToolResult } from "./envelope.js";
import type { Outcome } from "./attempt.js";
import { isTransientError } from "./errors.js";
import {
  completedEffect,
  failure,
  isRetrySafe,
  truncate,
  uncertainEffect,
} from "./policy.js";
import { redactError, redactText, type Secrets } from "./redact.js";
import type { ExecuteOptions, TraceEvent } from "./types.js";

export const MESSAGES = {
  invalidInput: "The input does not match the tool's input schema.",
  invalidOutput:
    "The tool produced output that does not match its output schema.",
  unexpected: "The tool failed unexpectedly.",
  noHandler: "The tool has no handler.",
  cancelled: "The call was cancelled.",
  undeclared:
    "The tool rejected the call with a reason its contract does not declare.",
} as const;

type Result = ToolResult<unknown, string>;

/** What of a call its envelope and its trace read (executor.ts's `Call` is one). */
export interface CallView {
  readonly contract: AnyToolContract;
  readonly options: ExecuteOptions;
  readonly secrets: Secrets;
}

export function emit(
  call: CallView,
  event: Omit<TraceEvent, "tool" | "version">,
): void {
  const { contract, options } = call;
  if (!options.onTrace) return;
  const full: TraceEvent = {
    tool: contract.name,
    version: contract.version,
    ...event,
  };
  if ("error" in event) full.error = redactError(event.error, call.secrets);
  try {
    options.onTrace(full);
  } catch {
    // Tracing is best effort; a failing sink must not change the result.
  }
}

export function redactIssues(
  issues: ToolIssue[],
  secrets: Secrets,
): ToolIssue[] {
  // Paths too: a key is data, and a caller may have put a secret in one.
  return issues.map((issue) => ({
    path: redactText(issue.path, secrets),
    message: redactText(issue.message, secrets),
  }));
}

export function transientMessage(
  call: CallView,
  outcome: Extract<Outcome, { kind: "transient" }>,
): string {
  if (outcome.stillRunning)
    return `The tool timed out after ${call.contract.timeoutMs} ms, and the timed-out attempt was still running, so it was not retried; it may still take effect.`;
  if (outcome.timedOut)
    return `The tool timed out after ${call.contract.timeoutMs} ms.`;
  // Only a TransientError's own message is meant for the caller; other errors stay in the trace.
  if (!isTransientError(outcome.error)) return "The tool failed temporarily.";
  let message: unknown;
  try {
    message = outcome.error.message;
  } catch {
    // Something dressed up as a TransientError whose message cannot be read.
  }
  if (typeof message !== "string") return "The tool failed temporarily.";
  const detail = truncate(redactText(message, call.secrets), 300).replace(
    /[.\s]+$/,
    "",
  );
  return `The tool failed temporarily: ${detail}.`;
}

/** The final envelope for an attempt that will not be retried. */
export function settle(
  call: CallView,
  outcome: Outcome,
  attempts: number,
): Result {
  const { contract, secrets } = call;
  switch (outcome.kind) {
    case "ok":
      return outcome.content === undefined
        ? { ok: true, data: outcome.data }
        : { ok: true, data: outcome.data, content: outcome.content };
    case "invalid-output":
      return failure(
        contract,
        "INVALID_OUTPUT",
        MESSAGES.invalidOutput,
        false,
        completedEffect(contract),
        attempts,
      );
    case "rejected": {
      const text =
        outcome.detail ?? contract.errors[outcome.reason] ?? outcome.reason;
      return failure(
        contract,
        "REJECTED",
        truncate(redactText(String(text), secrets)),
        false,
        "none",
        attempts,
        { reason: outcome.reason },
      );
    }
    case "transient":
      if (isRetrySafe(contract))
        return failure(
          contract,
          "RETRYABLE",
          transientMessage(call, outcome),
          true,
          uncertainEffect(contract),
          attempts,
        );
      return failure(
        contract,
        "FAILED",
        `${transientMessage(call, outcome)} It is not safe to retry, and it may have taken effect.`,
        false,
        "unknown",
        attempts,
      );
    case "cancelled":
      return failure(
        contract,
        "FAILED",
        MESSAGES.cancelled,
        false,
        uncertainEffect(contract),
        attempts,
      );
    case "undeclared-reason":
      return failure(
        contract,
        "FAILED",
        MESSAGES.undeclared,
        false,
        uncertainEffect(contract),
        attempts,
      );
    case "failed":
      return failure(
        contract,
        "FAILED",
        MESSAGES.unexpected,
        false,
        uncertainEffect(contract),
        attempts,
      );
  }
}

export function traceFor(
  call: CallView,
  outcome: Outcome,
  result: Result,
  attempt: number,
  durationMs: number,
): Omit<TraceEvent, "tool" | "version"> {
  const code = result.ok ? "OK" : result.code;
  const effect: ToolEffect = result.ok
    ? completedEffect(call.contract)
    : result.effect;
  const event: Omit<TraceEvent, "tool" | "version"> = {
    attempt,
    durationMs,
    code,
    effect,
    issuePaths: [],
  };
  if (outcome.kind === "invalid-output") {
    event.outputIssues = redactIssues(outcome.issues, call.secrets);
    event.issuePaths = event.outputIssues.map((i) => i.path);
  } else if (
    outcome.kind === "undeclared-reason" ||
    outcome.kind === "transient" ||
    outcome.kind === "failed" ||
    outcome.kind === "cancelled"
  ) {
    event.error = outcome.error;
  }
  return event;
}
