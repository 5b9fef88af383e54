// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Calls by tool name, as they arrive from a model: the name is untrusted too.
 * A name that no contract declares is a FAILED envelope, never a throw.
 */
import type { ContractMap, OutputOf, ReasonOf } from "./contract.js";
import type { ToolFailure, ToolResult } from "./envelope.js";
import { executeTool } from "./executor.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

const MAX_NAME_IN_MESSAGE = 128;

function unknownTool(name: string): ToolFailure<never> {
  return {
    ok: false,
    code: "FAILED",
    message: `Unknown tool ${JSON.stringify(name)}.`,
    retryable: false,
    effect: "none",
    tool: name,
    version: 0,
    attempts: 0,
  };
}

/** A name for a message: a string as it is (shortened); anything else only by its type, since converting it may run its code. */
function nameForMessage(tool: unknown): string {
  return typeof tool === "string"
    ? tool.slice(0, MAX_NAME_IN_MESSAGE)
    : `(a ${tool === null ? "null" : typeof tool})`;
}

/**
 * Runs `tool` from `contracts` with its handler from `handlers`. Never throws
 * and never rejects, whatever it is given: a name that no contract declares,
 * `handlers` that are null or not an object, or a hostile options object all
 * end in a FAILED envelope.
 */
export function executeByName<
  M extends ContractMap,
  K extends keyof M & string,
>(
  contracts: M,
  tool: K,
  rawInput: unknown,
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): Promise<ToolResult<OutputOf<M[K]>, ReasonOf<M[K]>>> {
  try {
    if (typeof tool !== "string" || !Object.hasOwn(contracts, tool)) {
      const refused = unknownTool(nameForMessage(tool));
      const guard = options?.guard;
      // The guard sees the unknown name too: it refuses the same one again, and stops a model that keeps inventing tools.
      if (guard === undefined) return Promise.resolve(refused);
      // A guard's refusal carries its own reason (REPEATED_CALL, LOOP_STOPPED), outside the contract's declared ones.
      return guard
        .run(undefined, refused.tool, rawInput, options?.onTrace, () =>
          Promise.resolve(refused),
        )
        .catch(() => refused) as Promise<ToolFailure<never>>;
    }
    const table: unknown = handlers;
    const handler =
      typeof table === "object" && table !== null && Object.hasOwn(table, tool)
        ? (table as Record<string, unknown>)[tool]
        : undefined;
    // Own property, checked above; the assertion is for noUncheckedIndexedAccess, which cannot see that.
    return executeTool(
      contracts[tool] as M[K],
      rawInput,
      handler as HandlersFor<M>[K] | undefined,
      options,
    );
  } catch {
    // Only a Proxy for `handlers` or `contracts` whose traps throw gets here.
    return Promise.resolve(unknownTool(nameForMessage(tool)));
  }
}
