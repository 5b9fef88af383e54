// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * One tool of a provider's tool list, built at load from its contract: the
 * name and description are the contract's (no provider changes them), so a
 * project's providers.ts writes only what the provider's form adds (its
 * schema, strictness, examples, deferred loading), not each tool's
 * description once more per provider. Each builder is typed for one element:
 * TypeScript types an array literal as the union of its elements' types and
 * gives up on a thousand or so object literals (TS2590); a call's type is its
 * return type, and the literal passed to it is still checked, excess
 * properties included.
 */
import type { JsonSchemaObject } from "./contract.js";
import type {
  AnthropicTool,
  GeminiFunctionDeclaration,
  OpenAIChatTool,
} from "./providers.js";

/** What a provider's tool takes from its contract. */
export interface NamedContract {
  readonly name: string;
  readonly description?: string;
}

/** The contract's name, and its description when it has one (no key otherwise, as a provider expects). */
function nameAndDescription(contract: NamedContract): {
  name: string;
  description?: string;
} {
  return contract.description === undefined
    ? { name: contract.name }
    : { name: contract.name, description: contract.description };
}

/** A Chat Completions tool: the contract's name and description, then `function`'s other fields. */
export function openaiChatTool(
  contract: NamedContract,
  fields: Omit<OpenAIChatTool["function"], "name" | "description">,
): OpenAIChatTool {
  return {
    type: "function",
    function: { ...nameAndDescription(contract), ...fields },
  };
}

/**
 * A Messages API tool: the contract's name and description, then the other
 * fields. `input_schema` is a served schema or a form of it, each of which
 * has `type: "object"`, as Anthropic's type wants.
 */
export function anthropicTool(
  contract: NamedContract,
  fields: Omit<AnthropicTool, "name" | "description" | "input_schema"> & {
    input_schema: JsonSchemaObject;
  },
): AnthropicTool {
  return {
    ...nameAndDescription(contract),
    ...(fields as Omit<AnthropicTool, "name" | "description">),
  };
}

/** A Gemini function declaration: the contract's name and description, then its parameters. */
export function geminiDeclaration(
  contract: NamedContract,
  fields: Omit<GeminiFunctionDeclaration, "name" | "description">,
): GeminiFunctionDeclaration {
  return { ...nameAndDescription(contract), ...fields };
}
