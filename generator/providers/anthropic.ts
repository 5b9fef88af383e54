/**
 * Anthropic's dialect: `input_schema`, in the strict subset when the
 * contract fits it, as "Strict tool use" and the Structured Outputs "JSON
 * Schema limitations" document
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use,
 * https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations):
 *
 * - supported: all basic types, enum (strings, numbers, booleans, nulls),
 *   const, anyOf, allOf, $ref/$defs (local), default, required,
 *   additionalProperties: false (required on every object), minItems of 0
 *   or 1, pattern without backreferences, lookaround or word boundaries;
 * - formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid;
 * - not supported: recursive schemas, numeric bounds (minimum, maximum,
 *   multipleOf, ...), string length bounds, other array bounds, open objects;
 * - per request at most 20 strict tools, 24 optional parameters and 16
 *   parameters with a union type (anyOf or a type list), over all strict tools;
 * - tool names match ^[a-zA-Z0-9_-]{1,64}$ (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools).
 * Optional properties stay optional: strict mode does not need them required.
 */
import type { JsonObject, JsonValue, ToolIR } from "../ir.js";
import { anthropicStrictRewrite } from "../runtime/provider-dialects.js";
import { recursiveDefs, type SchemaProblem, typesOf, withoutAnnotations } from "./schema-facts.js";
import { isJsonObject } from "../schema/json.js";

export const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const ANTHROPIC_LIMITS = { strictTools: 20, optionalParameters: 24, unionParameters: 16 } as const;

export interface AnthropicDialect {
  readonly inputSchema: JsonObject & { type: "object" };
  readonly strict: boolean;
  readonly problems: readonly SchemaProblem[];
  /** Whether the contract's examples fit `inputSchema`: not when its strict form closed an object open to extra keys. */
  readonly examplesFit: boolean;
  /** What this tool adds to the per-request strict budgets. */
  readonly optionalParameters: number;
  readonly unionParameters: number;
}

function countParameters(node: JsonValue, counts: { optional: number; union: number }): void {
  if (Array.isArray(node)) return node.forEach((n) => countParameters(n, counts));
  if (!isJsonObject(node)) return;
  if (isJsonObject(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    counts.optional += Object.keys(node.properties).filter((name) => !required.has(name)).length;
    for (const child of Object.values(node.properties)) {
      if (isJsonObject(child) && (Array.isArray(child.anyOf) || typesOf(child).length > 1)) counts.union += 1;
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "enum" && key !== "const" && key !== "default")
      countParameters(key === "properties" || key === "$defs" ? Object.values(value as JsonObject) : value, counts);
  }
}

/** One tool's `input_schema` for Anthropic: the strict subset, or the served schema with the reasons it is not strict. */
export function anthropicDialect(tool: ToolIR): AnthropicDialect {
  const rewritten = anthropicStrictRewrite(tool.inputSchema);
  const recursive = recursiveDefs(isJsonObject(tool.inputSchema.$defs) ? tool.inputSchema.$defs : {});
  const problems = [...rewritten.problems, ...recursive.map((name) => ({ path: ["$defs", name], message: `the recursive type ${name} has no strict form` }))];
  const strict = problems.length === 0;
  const inputSchema = (strict ? rewritten.schema : withoutAnnotations(tool.inputSchema)) as JsonObject & { type: "object" };
  const counts = { optional: 0, union: 0 };
  if (strict) countParameters(inputSchema, counts);
  return {
    inputSchema,
    strict,
    problems,
    examplesFit: !strict || !rewritten.closedOpenObjects,
    optionalParameters: counts.optional,
    unionParameters: counts.union,
  };
}
