/**
 * OpenAI's dialect: function tools in strict mode where the contract can be
 * written in it, as Structured Outputs documents
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
 * https://platform.openai.com/docs/guides/function-calling):
 *
 * - every object has `additionalProperties: false` and lists every property
 *   in `required`; an optional property is written as a union with null;
 * - supported keywords: type (with null), properties, required,
 *   additionalProperties: false, items, enum, anyOf, $ref/$defs, description,
 *   title; strings: pattern, format; numbers: minimum, maximum,
 *   exclusiveMinimum, exclusiveMaximum, multipleOf; arrays: minItems, maxItems;
 * - formats: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid;
 * - not supported: allOf, not, if/then/else, dependentRequired/Schemas, oneOf
 *   (written here as anyOf; toolc checks "exactly one"), string length
 *   bounds, uniqueItems, default, other formats (uri, ...);
 * - at most 5,000 object properties and 10 levels of nesting; at most 1,000
 *   enum values in all; property, definition, enum and const strings of at
 *   most 120,000 characters in all, and at most 15,000 for one string enum
 *   of more than 250 values;
 * - function names match ^[a-zA-Z0-9_-]{1,64}$.
 */
import type { JsonObject, JsonValue, ToolIR } from "../ir.js";
import type { NullPlanSet } from "../runtime/provider-nulls.js";
import { openaiStrictRewrite } from "../runtime/provider-dialects.js";
import { type SchemaProblem, withoutAnnotations } from "./schema-facts.js";
import { isJsonObject } from "../schema/json.js";

export const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const OPENAI_LIMITS = { properties: 5000, nesting: 10, enumValues: 1000, stringChars: 120_000, largeEnum: 250, largeEnumChars: 15_000 } as const;

export interface OpenAIDialect {
  readonly parameters: JsonObject;
  readonly strict: boolean;
  /** Why the tool is not strict; empty when it is. */
  readonly problems: readonly SchemaProblem[];
  /** Strict only: where a null means "left out". */
  readonly nulls?: NullPlanSet;
}

interface Tally {
  properties: number;
  enumValues: number;
  chars: number;
  depth: number;
  problems: SchemaProblem[];
}

function tallyEnum(values: readonly JsonValue[], path: readonly (string | number)[], tally: Tally): void {
  tally.enumValues += values.length;
  const chars = values.reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0);
  tally.chars += chars;
  if (values.length > OPENAI_LIMITS.largeEnum && chars > OPENAI_LIMITS.largeEnumChars) {
    tally.problems.push({
      path,
      message: `an enum of ${values.length} values with ${chars} characters exceeds OpenAI's ${OPENAI_LIMITS.largeEnumChars} for enums of more than ${OPENAI_LIMITS.largeEnum} values`,
    });
  }
}

/** Counts what OpenAI's size limits count, with nesting measured in object and array levels below the root. */
function tally(node: JsonValue, depth: number, path: readonly (string | number)[], out: Tally): void {
  if (!isJsonObject(node)) return;
  out.depth = Math.max(out.depth, depth);
  if (Array.isArray(node.enum)) tallyEnum(node.enum, [...path, "enum"], out);
  if (isJsonObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      out.properties += 1;
      out.chars += name.length;
      tally(child, depth + 1, [...path, "properties", name], out);
    }
  }
  if (node.items !== undefined) tally(node.items, depth + 1, [...path, "items"], out);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((b, i) => tally(b, depth, [...path, "anyOf", i], out));
  if (isJsonObject(node.$defs)) {
    for (const [name, def] of Object.entries(node.$defs)) {
      out.chars += name.length;
      tally(def, depth, [...path, "$defs", name], out);
    }
  }
}

function sizeProblems(schema: JsonObject): SchemaProblem[] {
  const t: Tally = { properties: 0, enumValues: 0, chars: 0, depth: 0, problems: [] };
  tally(schema, 0, [], t);
  const L = OPENAI_LIMITS;
  if (t.properties > L.properties) t.problems.push({ path: [], message: `${t.properties} object properties exceed OpenAI's ${L.properties}` });
  if (t.depth > L.nesting) t.problems.push({ path: [], message: `${t.depth} levels of nesting exceed OpenAI's ${L.nesting}` });
  if (t.enumValues > L.enumValues) t.problems.push({ path: [], message: `${t.enumValues} enum values exceed OpenAI's ${L.enumValues}` });
  if (t.chars > L.stringChars)
    t.problems.push({ path: [], message: `${t.chars} characters of property names, definition names and enum values exceed OpenAI's ${L.stringChars}` });
  return t.problems;
}

/** One tool's parameters for OpenAI: the strict form, or the served schema non-strict with the reasons. */
export function openaiDialect(tool: ToolIR): OpenAIDialect {
  const rewritten = openaiStrictRewrite(tool.inputSchema);
  const problems = [...rewritten.problems, ...(rewritten.problems.length === 0 ? sizeProblems(rewritten.schema as JsonObject) : [])];
  if (problems.length > 0) return { parameters: withoutAnnotations(tool.inputSchema) as JsonObject, strict: false, problems };
  return { parameters: rewritten.schema as JsonObject, strict: true, problems: [], ...(rewritten.nulls === undefined ? {} : { nulls: rewritten.nulls }) };
}
