// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What a view (MCP Apps) reads from a tool result the host hands it: the
 * result as toolc's envelope, the same `ToolResult` a typed client gets. A
 * success is the result's `structuredContent`; a failure is the envelope
 * toolc's server puts in the result's `_meta` (server.ts `toCallResult`).
 * The generated view wrappers (views/<tool>.ts) type it by the contract;
 * this module imports nothing, so a view's bundle stays small.
 */
import type { ToolResult } from "./envelope.js";

/** The `_meta` key the failure envelope travels under (server.ts FAILURE_META_KEY). */
const FAILURE_META_KEY = "toolc/failure";

/** The parts of an MCP tool result a view reads. */
export interface ViewToolResult {
  readonly isError?: boolean | undefined;
  readonly structuredContent?: unknown;
  readonly _meta?: { readonly [key: string]: unknown } | undefined;
}

/**
 * The result as an envelope. An error result without toolc's envelope (a
 * host's own refusal, say) is a FAILED envelope with the text it carried.
 */
export function viewResultOf<Out, Reason extends string>(
  result: ViewToolResult & { readonly content?: readonly unknown[] },
  tool: string,
): ToolResult<Out, Reason> {
  if (result.isError !== true)
    return { ok: true, data: result.structuredContent as Out };
  const failure = result._meta?.[FAILURE_META_KEY];
  if (typeof failure === "object" && failure !== null)
    return failure as ToolResult<Out, Reason>;
  const first = result.content?.[0] as { text?: unknown } | undefined;
  return {
    ok: false,
    code: "FAILED",
    message: typeof first?.text === "string" ? first.text : "the call failed",
    retryable: false,
    effect: "unknown",
    tool,
    version: 0,
    attempts: 1,
  };
}
