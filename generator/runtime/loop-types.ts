// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What a loop guard (loop-guard.ts) says about a conversation: why it
 * refused a call or stopped the loop, the evidence it keeps, the trace event
 * it emits, and its options.
 */
import type { ToolEffect, ToolErrorCode } from "./envelope.js";

/** Why a guard refused a call without running it. */
export type GuardRefusal = "REPEATED_CALL" | "LOOP_STOPPED";

/** Why a guard stopped the loop. */
export type GuardStopReason =
  /** The tool returned output its contract does not allow: nothing it said can be trusted. */
  | "INVALID_OUTPUT"
  /** A write failed with its effect unknown: check its status before anything calls it again. */
  | "UNKNOWN_EFFECT"
  /** The tool's correction budget is spent and its input is still invalid. */
  | "CORRECTIONS_SPENT"
  /** The model kept repeating a call the guard refused. */
  | "REPEATED_CALL"
  /** The model kept calling tools that do not exist. */
  | "UNKNOWN_TOOL"
  /** More calls than `maxCalls`: a runaway loop, or one guard shared by many conversations. */
  | "CALL_LIMIT"
  /** The guard was bound to one conversation and a call came from another (`bind`). */
  | "SHARED_GUARD";

/** One call as the guard remembers it: codes, counts and paths, never values. */
export interface GuardEvidence {
  readonly tool: string;
  readonly version: number;
  readonly code: ToolErrorCode | "OK";
  readonly effect: ToolEffect;
  readonly attempts: number;
  readonly issuePaths: readonly string[];
  /** Set when the guard refused the call itself. */
  readonly refused?: GuardRefusal;
}

/** What `guard.stop` holds once the loop must stop. */
export interface GuardStop {
  readonly reason: GuardStopReason;
  readonly tool: string;
  readonly version: number;
  /** The conversation's last failed and refused calls (at most `MAX_EVIDENCE`), oldest first, ending with the one that stopped it. */
  readonly evidence: readonly GuardEvidence[];
  /** For an operator, not the model: what happened and what to check. */
  readonly summary: string;
}

/** What the guard adds to a trace event for a refusal or a stop. */
export interface GuardTrace {
  readonly action: "refused" | "stopped";
  readonly reason: GuardRefusal | GuardStopReason;
}

/** The trace event the guard emits; the same shape as the executor's TraceEvent, with `guard` set. */
export interface GuardTraceEvent {
  tool: string;
  version: number;
  attempt: number;
  durationMs: number;
  code: ToolErrorCode | "OK";
  effect: ToolEffect;
  issuePaths: string[];
  guard: GuardTrace;
}

export interface LoopGuardOptions {
  /** Corrections allowed per tool after INVALID_INPUT before the loop stops; default 1. */
  corrections?: number;
  /** Per tool name, overriding `corrections`. */
  correctionsByTool?: { readonly [tool: string]: number };
  /** Calls the guard admits in all before it stops the loop (CALL_LIMIT); default 500. */
  maxCalls?: number;
  /** Receives the guard's refusals and stops, besides each call's own `onTrace`. Exceptions are ignored. */
  onTrace?(event: GuardTraceEvent): void;
}
