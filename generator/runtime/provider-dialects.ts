// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Each provider's dialect of a served input schema, as rules for the
 * rewriter (provider-rewrite.ts). The compiler rewrites every tool with
 * these to decide whether it takes a provider's strict form and to write
 * its warnings; a project's providers.ts calls the same functions on the
 * served schemas at load for the tools whose dialect differs from the
 * served schema, so the dialects are not written out per tool. Which
 * function a tool's export calls (strict or not) is the compiler's
 * decision, written into providers.ts.
 */
import type { JsonSchemaObject } from "./contract.js";
import {
  type DialectRules,
  type Rewritten,
  rewriteSchema,
} from "./provider-rewrite.js";
import { withoutAnnotations } from "./provider-schema.js";

/**
 * OpenAI strict mode (Structured Outputs' supported schemas): every object
 * closed and every property required, optional ones nullable; no string
 * length bounds, no uniqueItems, no default, no minItems beyond what is kept.
 */
const OPENAI_STRICT: DialectRules = {
  keeps: new Set([
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
  ]),
  formats: new Set([
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
  ]),
  requireAll: true,
  closedObjects: true,
};

/** Backreferences, lookaround and word boundaries are outside the regex subset strict grammars compile. */
const UNSUPPORTED_REGEX = /\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/;

/** Anthropic's strict subset: objects closed, optional properties stay optional, minItems of 0 or 1, no numeric or length bounds. */
const ANTHROPIC_STRICT: DialectRules = {
  keeps: new Set(["allOf", "default", "pattern"]),
  formats: new Set([
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
  ]),
  requireAll: false,
  closedObjects: true,
  maxMinItems: 1,
  patternSupported: (pattern: string) => !UNSUPPORTED_REGEX.test(pattern),
};

/** Gemini's JSON Schema subset for `parametersJsonSchema`: no strict flag, so nothing here is a problem. */
const GEMINI: DialectRules = {
  keeps: new Set(["minimum", "maximum", "maxItems", "prefixItems"]),
  formats: new Set(["date-time", "date", "time"]),
  requireAll: false,
  closedObjects: false,
};

/** The served schema in OpenAI's strict form, with why it has none (problems) and where nulls mean "left out". */
export const openaiStrictRewrite = (served: JsonSchemaObject): Rewritten =>
  rewriteSchema(served, OPENAI_STRICT);

/** The served schema in Anthropic's strict subset, with why it has none. */
export const anthropicStrictRewrite = (served: JsonSchemaObject): Rewritten =>
  rewriteSchema(served, ANTHROPIC_STRICT);

/** A strict OpenAI tool's `parameters`. */
export const openaiStrictParameters = (
  served: JsonSchemaObject,
): JsonSchemaObject => openaiStrictRewrite(served).schema;

/** A strict Anthropic tool's `input_schema`. */
export const anthropicStrictSchema = (
  served: JsonSchemaObject,
): JsonSchemaObject => anthropicStrictRewrite(served).schema;

/** A Gemini declaration's `parametersJsonSchema`. */
export const geminiParameters = (served: JsonSchemaObject): JsonSchemaObject =>
  rewriteSchema(served, GEMINI).schema;

/** A tool that is not strict: the served schema without its `x-` annotations, which providers do not know. */
export const unannotatedSchema = (served: JsonSchemaObject): JsonSchemaObject =>
  withoutAnnotations(served) as JsonSchemaObject;
