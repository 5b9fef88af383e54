/**
 * Values from YAML as code. Every value reaches generated code only through
 * JSON.stringify, never spliced in as raw text; JSON is a valid JS
 * expression, with one exception that needs care: in an object literal, a
 * `"__proto__"` key sets the prototype instead of adding a property, so it is
 * written as a computed key, which adds one.
 */

/** `value` as a JS expression, indented by two spaces per level. */
export function literal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/"__proto__":/g, '["__proto__"]:');
}

/** A quoted key at the start of a line, as JSON.stringify writes object keys when indenting. */
const QUOTED_KEY = /^(\s*)"((?:[^"\\]|\\.)*)":/gm;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `literal(value)` as prettier would write it, for files written without
 * prettier: identifier keys unquoted, and trailing commas.
 */
export function tsLiteral(value: unknown): string {
  // JSON.stringify escapes newlines inside strings, so every line break is structural.
  const lines = literal(value)
    .replace(QUOTED_KEY, (whole: string, indent: string, key: string) => (IDENTIFIER.test(key) ? `${indent}${key}:` : whole))
    .split("\n");
  return lines
    .map((line, i) => {
      const next = lines[i + 1]?.trimStart() ?? "";
      const closes = next.startsWith("}") || next.startsWith("]");
      return closes && !line.endsWith("{") && !line.endsWith("[") ? `${line},` : line;
    })
    .join("\n");
}
