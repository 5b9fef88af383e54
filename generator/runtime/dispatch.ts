/**
 * Calls by tool name, as they arrive from a model: the name is untrusted too.
 * A name that no contract declares is a FAILED envelope, never a throw.
 */
import type { ContractMap, OutputOf, ReasonOf } from "./contract.js";
import type { ToolResult } from "./envelope.js";
import { executeTool } from "./executor.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

const MAX_NAME_IN_MESSAGE = 128;

export function executeByName<M extends ContractMap, K extends keyof M & string>(
  contracts: M,
  tool: K,
  rawInput: unknown,
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Promise<ToolResult<OutputOf<M[K]>, ReasonOf<M[K]>>> {
  if (typeof tool !== "string" || !Object.hasOwn(contracts, tool)) {
    const name = String(tool).slice(0, MAX_NAME_IN_MESSAGE);
    return Promise.resolve({
      ok: false,
      code: "FAILED",
      message: `Unknown tool ${JSON.stringify(name)}.`,
      retryable: false,
      effect: "none",
      tool: name,
      version: 0,
      attempts: 0,
    });
  }
  const handler = Object.hasOwn(handlers, tool) ? handlers[tool] : undefined;
  // Own property, checked above; the assertion is for noUncheckedIndexedAccess, which cannot see that.
  return executeTool(contracts[tool] as M[K], rawInput, handler, options);
}
