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

/** The longest line toolc writes where it can choose (a long literal or name can still exceed it). */
export const PRINT_WIDTH = 80;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An object key as written in a literal: an identifier bare, `__proto__` computed, anything else quoted. */
export function propertyKey(key: string): string {
  if (key === "__proto__") return `[${JSON.stringify(key)}]`;
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/**
 * An expression inside a literal, printed as it is: a reference to a value
 * the generated file already holds (a contract's served schema), so a value
 * is written once. Its text is built by the emitter from names it declared
 * or imported, never from a contract's text.
 */
export class LiteralReference {
  readonly expression: string;
  constructor(expression: string) {
    this.expression = expression;
  }
}

/** Entries as JSON.stringify keeps them: `undefined` and functions are left out of objects. */
function keptEntries(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
}

/** The widest line a schema-like literal is written on before it is broken: compact, and still one screen wide in a review. */
export const LITERAL_WIDTH = 120;

/** A number, string, boolean or null, or a reference, as written in a literal. */
function scalar(value: unknown): string {
  if (value instanceof LiteralReference) return value.expression;
  return JSON.stringify(value) ?? "null";
}

/** Whether a value is written as one token (no container to break). */
function isScalar(value: unknown): boolean {
  return value === null || typeof value !== "object" || value instanceof LiteralReference;
}

/**
 * `value` on one line (`{ a: 1, b: [true, null] }`), or undefined when that
 * takes more than `room` columns. It stops as soon as it is over, so trying
 * each container of a large value costs the width, not the value's size.
 */
function flat(value: unknown, room: number): string | undefined {
  if (isScalar(value)) {
    const text = scalar(value);
    return text.length <= room ? text : undefined;
  }
  const array = Array.isArray(value);
  const items: [string | undefined, unknown][] = array ? (value as unknown[]).map((v) => [undefined, v]) : keptEntries(value as object);
  if (items.length === 0) return array ? "[]" : "{}";
  const parts: string[] = [];
  // The brackets, and the spaces inside an object's braces.
  let used = array ? 2 : 4;
  for (const [key, item] of items) {
    const head = key === undefined ? "" : `${propertyKey(key)}: `;
    const separator = parts.length === 0 ? 0 : 2;
    const text = flat(item, room - used - separator - head.length);
    if (text === undefined) return undefined;
    parts.push(head + text);
    used += separator + head.length + text.length;
  }
  return array ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
}

/** `value` starting `lead` columns into its line, with `tail` characters to follow it there (`,`). */
function write(value: unknown, indent: string, lead: number, tail: number): string {
  if (isScalar(value)) return scalar(value);
  const one = flat(value, LITERAL_WIDTH - lead - tail);
  if (one !== undefined) return one;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => isScalar(item))) return `[\n${filled(value.map(scalar), inner, LITERAL_WIDTH)}\n${indent}]`;
    return `[\n${value.map((item) => `${inner}${write(item, inner, inner.length, 1)},\n`).join("")}${indent}]`;
  }
  const entries = keptEntries(value as object);
  const lines = entries.map(([key, item]) => {
    const head = `${inner}${propertyKey(key)}: `;
    return `${head}${write(item, inner, head.length, 1)},\n`;
  });
  return `{\n${lines.join("")}${indent}}`;
}

/**
 * `value` as a TS expression, compact for schema-like data: a container on
 * one line, `{ a: 1, b: [true] }`, when it fits in LITERAL_WIDTH from where
 * it starts; else one entry per line, two spaces per level, trailing commas,
 * each entry's value compact in turn, and the scalars of a list several to
 * a line. Identifier keys are unquoted. `depth` is the nesting level the
 * literal starts at: its lines after the first are indented two spaces per
 * level; `lead`, the columns before it on its first line (the indent by
 * default).
 */
export function literal(value: unknown, depth = 0, lead?: number): string {
  const indent = "  ".repeat(depth);
  return write(value, indent, lead ?? indent.length, 0);
}

/** Where a fitted literal starts: its block's depth, the columns before it on its line, and the characters after it there (`;`, `,`). */
export interface LiteralPlace {
  readonly depth?: number;
  readonly lead?: number;
  readonly tail?: number;
}

/**
 * `value` as a TS expression in prettier's own layout, for the modules
 * meant to be read (index.ts, http.ts), so that prettier would leave them as
 * they are: an object one entry per line; an array on one line when it fits
 * in PRINT_WIDTH and holds no object (nor, for two items or more, only lists
 * of two or more), else one item per line, or numbers several to a line; a
 * string too long for its line moved under a key of five or more columns;
 * each string in the quotes that need fewer escapes. Widths are counted in
 * UTF-16 units, as the type layout counts them.
 */
export function fittedLiteral(value: unknown, place: LiteralPlace = {}): string {
  const indent = "  ".repeat(place.depth ?? 0);
  return fitted(value, indent, place.lead ?? indent.length, place.tail ?? 0);
}

/** A string in double quotes, or in single quotes when it holds more double quotes than single ones (prettier's choice). */
function quoted(text: string): string {
  if (text.split('"').length <= text.split("'").length) return JSON.stringify(text);
  // Each code point escaped as JSON escapes it, except the quotes: a double one needs no escape here, a single one does.
  const escaped = [...text].map((c) => (c === '"' ? c : c === "'" ? "\\'" : JSON.stringify(c).slice(1, -1)));
  return `'${escaped.join("")}'`;
}

/** A number, string, boolean or null as prettier writes it (`1e21`, not JSON's `1e+21`). */
function scalarText(value: unknown): string {
  if (typeof value === "string") return quoted(value);
  if (typeof value === "number") return (JSON.stringify(value) ?? "null").replace("e+", "e");
  return JSON.stringify(value) ?? "null";
}

/** A key as `propertyKey` writes it, quoted as `quoted` chooses. */
function fittedKey(key: string): string {
  if (key === "__proto__") return `[${quoted(key)}]`;
  return IDENTIFIER.test(key) ? key : quoted(key);
}

/** `value` on one line, or undefined when it holds an object with entries (prettier keeps those broken). */
function flatText(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return scalarText(value);
  if (!Array.isArray(value)) return keptEntries(value).length === 0 ? "{}" : undefined;
  const items = value.map(flatText);
  return items.every((item) => item !== undefined) ? `[${items.join(", ")}]` : undefined;
}

/** A list of several lists, each of several items: prettier puts each on its own line even when all would fit on one. */
function isTable(items: readonly unknown[]): boolean {
  return items.length > 1 && items.every((item) => Array.isArray(item) && item.length > 1);
}

function fitted(value: unknown, indent: string, lead: number, tail: number): string {
  if (value === null || typeof value !== "object") return scalarText(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const flat = flatText(value);
    if (flat !== undefined && !isTable(value) && lead + flat.length + tail <= PRINT_WIDTH) return flat;
    if (value.length > 1 && value.every((item) => typeof item === "number")) return `[\n${filled(value.map(scalarText), inner)}\n${indent}]`;
    return `[\n${value.map((item) => `${inner}${fitted(item, inner, inner.length, 1)},\n`).join("")}${indent}]`;
  }
  const entries = keptEntries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${fittedEntry(fittedKey(key), item, inner)},\n`).join("")}${indent}}`;
}

/** `key: value` in a fitted object: a string as `unbreakableEntry` places it, anything else after the key. */
function fittedEntry(key: string, item: unknown, inner: string): string {
  if (typeof item === "string") return unbreakableEntry(inner, key, quoted(item));
  const head = `${inner}${key}: `;
  return `${head}${fitted(item, inner, head.length, 1)}`;
}

/**
 * `<indent><key>: <value>` (its comma to follow) for a value with no place
 * to break (a string, a name), as prettier lays it out: on the next line,
 * indented, when the line is too long and the key is five columns or wider
 * (below that, moving the value gains too little room).
 */
export function unbreakableEntry(indent: string, key: string, value: string): string {
  const line = `${indent}${key}: ${value}`;
  if (key.length < 5 || line.length + 1 <= PRINT_WIDTH) return line;
  return `${indent}${key}:\n${indent}  ${value}`;
}

/**
 * Scalars as prettier fills them: as many to a line as fit in `width`, each followed by a comma (numbers in
 * printed code at PRINT_WIDTH; an enum's values in a schema literal at LITERAL_WIDTH).
 */
function filled(items: readonly string[], inner: string, width: number = PRINT_WIDTH): string {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    if (line !== "" && line.length + 1 + item.length + 1 <= width) line += ` ${item},`;
    else {
      if (line !== "") lines.push(line);
      line = `${inner}${item},`;
    }
  }
  return [...lines, line].join("\n");
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
