/**
 * Values from YAML as code. Every string, number and key reaches generated
 * code only through JSON.stringify, never spliced in as raw text, and the
 * literal is built while walking the value, so no text is rewritten after
 * the fact. One key needs care: in an object literal, `__proto__` (quoted or
 * not) sets the prototype instead of adding a property, so it is written as a
 * computed key, which adds one (ECMA-262 §B.3.1).
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
 * unquoted, and trailing commas.
 */
export function tsLiteral(value: unknown): string {
  return write(value, "");
}
