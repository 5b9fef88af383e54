// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The failure envelope every tool call resolves to. It is data the agent loop
 * can act on: what went wrong, whether to retry, and whether anything changed.
 */

import type { ContentBlock } from "./content.js";

export type ToolErrorCode =
  "INVALID_INPUT" | "INVALID_OUTPUT" | "RETRYABLE" | "REJECTED" | "FAILED";

/** Did anything change before the failure? */
export type ToolEffect = "none" | "applied" | "unknown";

export interface ToolIssue {
  /** The field to fix: `address.city`, `status[1]`; the root is "". */
  path: string;
  message: string;
}

export type ToolFailure<Reason extends string = never> = {
  ok: false;
  code: ToolErrorCode;
  /** Short, safe to show a model. */
  message: string;
  /** INVALID_INPUT: what to fix. */
  issues?: ToolIssue[];
  /** REJECTED: one of the contract's declared errors. */
  reason?: Reason;
  /** Decided by the runtime from the contract, never by the model. */
  retryable: boolean;
  effect: ToolEffect;
  tool: string;
  version: number;
  attempts: number;
};

export type ToolSuccess<Out> = {
  ok: true;
  data: Out;
  /** The blocks the handler attached (ctx.attach), checked; present only when there are some. */
  content?: ContentBlock[];
};

export type ToolResult<Out, Reason extends string = never> =
  ToolSuccess<Out> | ToolFailure<Reason>;
