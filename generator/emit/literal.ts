/**
 * Values and untrusted text as code: the only ways a value from YAML enters
 * generated code. Every string, number and key reaches it only through
 * JSON.stringify, never spliced in as raw text, and a literal is built while
 * walking the value, so no text is rewritten after the fact. One key needs
 * care: in an object literal, `__proto__` (quoted or not) sets the prototype
 * instead of adding a property, so it is written as a computed key, which
 * adds one (ECMA-262 §B.3.1). Text in a comment can end it early with `*\/`,
 * so that is escaped, and every line terminator starts a new `*` line.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An object key as written in a literal: an identifier bare, `__proto__` computed, anything else quoted. */
export function propertyKey(key: string): string {
  if (key === "__proto__") return `[${JSON.stringify(key)}]`;
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** Entries as JSON.stringify keeps them: `undefined` and functions are left out of objects. */
function keptEntries(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
}

function write(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${write(item, inner)},\n`).join("")}${indent}]`;
  }
  const entries = keptEntries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${propertyKey(key)}: ${write(item, inner)},\n`).join("")}${indent}}`;
}

/**
 * `value` as a TS expression, written as prettier would write it for files
 * toolc writes without prettier: two spaces per level, identifier keys
 * unquoted, and trailing commas. `depth` is the nesting level the literal
 * starts at: its lines after the first are indented two spaces per level.
 */
export function literal(value: unknown, depth = 0): string {
  return write(value, "  ".repeat(depth));
}

/** Makes `text` safe inside a block comment: `*\/` can no longer close it. */
export function escapeComment(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** Splits on every JS line terminator, so no line can end outside the `*`-prefixed layout. */
export function commentLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029]/);
}

/**
 * A complete `/** ... *\/` comment of `docLines` (any text: each is escaped
 * and split at line terminators), on one line when there is one; undefined
 * when there are none. `indent` starts every line after the first.
 */
export function jsDoc(docLines: readonly string[], indent = ""): string | undefined {
  return blockComment("/**", docLines, indent);
}

/** The same as a plain `/* ... *\/` comment, always one `*` line per line. */
export function plainComment(docLines: readonly string[]): string {
  return blockComment("/*", docLines, "", false) ?? "/*\n */";
}

function blockComment(open: "/**" | "/*", docLines: readonly string[], indent: string, oneLine = true): string | undefined {
  if (docLines.length === 0) return undefined;
  const safe = docLines.flatMap(commentLines).map(escapeComment);
  if (oneLine && safe.length === 1) return `${open} ${safe[0]} */`;
  return [open, ...safe.map((l) => (l === "" ? `${indent} *` : `${indent} * ${l}`)), `${indent} */`].join("\n");
}
