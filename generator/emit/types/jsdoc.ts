/**
 * JSDoc from schema annotations. JSON Schema 2020-12 Validation §9 defines
 * `title`, `description`, `default` and `deprecated` as annotations, and §7
 * `format`; none of them changes the TS type, so they become documentation.
 *
 * Contract text is untrusted here: it must never end the comment early, so
 * `*\/` is escaped and every line terminator (including U+2028/U+2029) is
 * normalized before lines are prefixed.
 */
import type { JsonSchema } from "../../ir.js";
import { commentLines as lines, escapeComment } from "../../printer/literal.js";

/**
 * The documentation lines for a schema: title, description, then `@format`,
 * `@default` and `@deprecated` tags, and what `x-sensitive` means for the
 * value. Empty when the schema has none.
 * `extra` lines (e.g. a fixed sentence from the emitter) come first.
 */
export function schemaDocLines(schema: JsonSchema, extra: readonly string[] = []): string[] {
  const out = [...extra];
  if (typeof schema !== "object") return out;
  const paragraphs: string[] = [];
  if (typeof schema.title === "string" && schema.title.trim() !== "") paragraphs.push(schema.title.trim());
  if (typeof schema.description === "string" && schema.description.trim() !== "") {
    paragraphs.push(schema.description.trim());
  }
  for (const p of paragraphs) {
    if (out.length > 0) out.push("");
    out.push(...lines(p));
  }
  if (typeof schema.format === "string") out.push(`@format ${schema.format}`);
  if (schema.default !== undefined) out.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) out.push("@deprecated");
  // What `x-sensitive` does to the value is not in its type; a reader of the type should still learn it.
  if (schema["x-sensitive"] === true) out.push("Sensitive (`x-sensitive`): never in a message, an issue or a trace.");
  if (schema["x-sensitive"] === "withhold") out.push("Withheld (`x-sensitive: withhold`): in output, a handler may return it, and no caller receives it.");
  return out.map((l) => escapeComment(l.trimEnd()));
}
