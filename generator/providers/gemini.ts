/**
 * Gemini's dialect: `parametersJsonSchema` of a FunctionDeclaration, in the
 * JSON Schema subset Gemini documents
 * (https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support,
 * https://ai.google.dev/api/caching#FunctionDeclaration):
 *
 * - supported: type (with null), title, description, enum, format
 *   (date-time, date, time), minimum, maximum, properties, required,
 *   additionalProperties, items, prefixItems, minItems, maxItems, anyOf,
 *   $ref and $defs;
 * - everything else (pattern, length bounds, uniqueItems, default, oneOf,
 *   allOf, ...) is dropped here and named in the description;
 * - function names start with a letter or underscore, then letters, digits,
 *   underscores, dots, colons or dashes, 64 characters at most.
 * Gemini has no strict flag for function declarations, so nothing here
 * stops a tool from being exported.
 */
import type { JsonObject, ToolIR } from "../ir.js";
import { geminiParameters } from "../runtime/provider-dialects.js";

export const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/** One tool's `parametersJsonSchema` for Gemini. */
export function geminiDialect(tool: ToolIR): JsonObject {
  return geminiParameters(tool.inputSchema) as JsonObject;
}
