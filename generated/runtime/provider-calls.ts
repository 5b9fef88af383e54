// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What every provider path does with a model's tool call before and after
 * the executor: read the fields a model sent without trusting them, parse an
 * argument string into a value or an INVALID_INPUT envelope, and write the
 * result as the text a model reads. Shared by providers.ts and
 * provider-agents.ts, so each provider answers a call the same way.
 */
import type { ContractMap } from "./contract.js";
import { executeByName } from "./dispatch.js";
import type { ToolFailure, ToolResult } from "./envelope.js";
import { type NullPlanSet, nullsToAbsent } from "./provider-nulls.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

export type AnyResult = ToolResult<unknown, string>;

const MAX_NAME_IN_MESSAGE = 128;

/** A field a model sent, as a string: anything else (a number, an object with its own toString) is "". */
export const text = (value: unknown): string =>
  typeof value === "string" ? value : "";

/** What a tool result says to a model: the output on success, the envelope on failure. */
export function resultText(result: AnyResult): string {
  return JSON.stringify(result.ok ? result.data : result) ?? "null";
}

export function malformedArguments(
  contracts: ContractMap,
  name: string,
  detail: string,
  options: ExecuteOptions | undefined,
): ToolFailure<string> {
  const contract = Object.hasOwn(contracts, name) ? contracts[name] : undefined;
  const tool = name.slice(0, MAX_NAME_IN_MESSAGE);
  const message = `The arguments are not valid JSON: ${detail}.`;
  const failure: ToolFailure<string> = {
    ok: false,
    code: "INVALID_INPUT",
    message,
    issues: [{ path: "", message }],
    retryable: false,
    effect: "none",
    tool,
    version: contract?.version ?? 0,
    attempts: 0,
  };
  try {
    options?.onTrace?.({
      tool,
      version: failure.version,
      attempt: 0,
      durationMs: 0,
      code: "INVALID_INPUT",
      effect: "none",
      issuePaths: [""],
    });
  } catch {
    // Tracing is best effort, as in the executor.
  }
  return failure;
}

/**
 * Parses a model's argument string: the value, or what is wrong with it, in
 * words of our own. The parser's message is not passed on: V8 quotes the text
 * around the error, which can be a secret the model was sending.
 */
function parseArguments(
  text: unknown,
): { ok: true; value: unknown } | { ok: false; detail: string } {
  if (typeof text !== "string")
    return { ok: false, detail: "they are not a string" };
  if (text.trim() === "")
    return {
      ok: false,
      detail: "they are empty; send a JSON object, `{}` for none",
    };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      detail: `the ${text.length}-character string does not parse; send one JSON object`,
    };
  }
}

/** Never rejects: `executeByName` never throws, and everything before it is guarded. */
export async function runParsed(
  contracts: ContractMap,
  nullPlans: { readonly [tool: string]: NullPlanSet },
  name: string,
  argumentsText: unknown,
  handlers: HandlersFor<ContractMap>,
  options: ExecuteOptions | undefined,
): Promise<AnyResult> {
  const parsed = parseArguments(argumentsText);
  if (!parsed.ok) {
    const guard = options?.guard;
    if (guard === undefined)
      return malformedArguments(contracts, name, parsed.detail, options);
    // The guard keeps the text's digest: the same unparseable text again is refused, a changed one is a correction.
    const contract = Object.hasOwn(contracts, name)
      ? contracts[name]
      : undefined;
    return guard
      .run(contract, name, argumentsText, options?.onTrace, () =>
        Promise.resolve(
          malformedArguments(contracts, name, parsed.detail, options),
        ),
      )
      .catch(() => malformedArguments(contracts, name, parsed.detail, {}));
  }
  const plans = Object.hasOwn(nullPlans, name) ? nullPlans[name] : undefined;
  return executeByName(
    contracts,
    name,
    nullsToAbsent(parsed.value, plans),
    handlers,
    options,
  );
}
