// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The OpenAI Agents SDK's function tools: each tool as the SDK's
 * `FunctionTool` (a structural copy, so generated code needs none of its
 * packages), whose `invoke` runs the call through the executor, and whose
 * `deferLoading` leaves a deferred tool out of the model's context until the
 * SDK's `toolSearchTool()` loads it. A failure comes back as the envelope,
 * as JSON, like every other provider path.
 */
import type { ContractMap } from "./contract.js";
import type { NullPlanSet } from "./provider-nulls.js";
import { resultText, runParsed } from "./provider-calls.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

/** The Agents SDK's `JsonObjectSchema`: a root object that lists `properties` and `required`, open or closed. */
export interface OpenAIAgentsParameters {
  type: "object";
  properties: { [name: string]: unknown };
  required: string[];
  additionalProperties: boolean;
  [key: string]: unknown;
}

/** An Agents SDK `FunctionTool`, for `new Agent({ tools })`; `deferLoading` (Responses API only) needs `toolSearchTool()` beside it. */
export interface OpenAIAgentsFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: OpenAIAgentsParameters;
  strict: boolean;
  deferLoading?: boolean;
  /** Runs the call's argument string through the executor; the output, or the failure envelope, as JSON. Never throws. */
  invoke: (runContext: unknown, input: string) => Promise<string>;
  /** No SDK approval: a confirmed tool is confirmed by the executor (`ExecuteOptions.confirm`), bound to the exact arguments. */
  needsApproval: (
    runContext: unknown,
    input: unknown,
    callId?: string,
  ) => Promise<boolean>;
  isEnabled: (runContext: unknown, agent: unknown) => Promise<boolean>;
}

/** What the Agents SDK needs of a Responses `FunctionTool` (providers.ts's `openai.responsesTools`). */
interface ResponsesTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters: { readonly [key: string]: unknown };
  readonly strict: boolean;
  readonly defer_loading?: boolean;
}

/** The root as the SDK's type has it: `properties` and `required` written out (their absence means the same), and whether it is open. */
function agentsParameters(schema: {
  readonly [key: string]: unknown;
}): OpenAIAgentsParameters {
  const properties = schema["properties"];
  const required = schema["required"];
  return {
    ...schema,
    type: "object",
    properties:
      typeof properties === "object" && properties !== null
        ? (properties as { [name: string]: unknown })
        : {},
    required: Array.isArray(required) ? (required as string[]) : [],
    additionalProperties: schema["additionalProperties"] !== false,
  };
}

/**
 * The Responses tools as Agents SDK function tools, the strict ones in
 * OpenAI's strict form (their null-for-absent optionals removed before the
 * executor, as `openai.run` does) and the deferred ones with `deferLoading`.
 */
export function openAIAgentsTools<M extends ContractMap>(
  contracts: M,
  nullPlans: { readonly [tool: string]: NullPlanSet },
  tools: readonly ResponsesTool[],
  handlers: HandlersFor<M>,
  options?: ExecuteOptions,
): OpenAIAgentsFunctionTool[] {
  const all = handlers as HandlersFor<ContractMap>;
  return tools.map((tool) => {
    const agentsTool: OpenAIAgentsFunctionTool = {
      type: "function",
      name: tool.name,
      description: tool.description ?? "",
      parameters: agentsParameters(tool.parameters),
      strict: tool.strict,
      invoke: async (_runContext, input) =>
        resultText(
          await runParsed(contracts, nullPlans, tool.name, input, all, options),
        ),
      needsApproval: () => Promise.resolve(false),
      isEnabled: () => Promise.resolve(true),
    };
    if (tool.defer_loading === true) agentsTool.deferLoading = true;
    return agentsTool;
  });
}
