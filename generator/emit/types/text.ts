/**
 * Small helpers for building TS type expression text. Transforms return plain
 * text; these keep quoting, indentation and operator precedence in one place.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as written in a type literal: bare when it is an identifier, else a JSON string. */
export function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** Indents every line of `text` by two spaces, for nesting a member inside `{ }`. */
export function indent(text: string): string {
  return "  " + text.replace(/\n/g, "\n  ");
}

/** Renders type-literal members one per line; nested text is re-indented. */
export function typeLiteral(members: readonly string[]): string {
  return `{\n${members.map(indent).join("\n")}\n}`;
}

/**
 * Which binary type operators occur at the top level of `text` (outside
 * brackets, string literals and comments). Used to decide on parentheses.
 */
export function topLevelOperators(text: string): { union: boolean; intersection: boolean } {
  let depth = 0;
  let union = false;
  let intersection = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i);
    else if (c === "/" && text[i + 1] === "*") i = skipComment(text, i);
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (depth === 0 && c === "|") union = true;
    else if (depth === 0 && c === "&") intersection = true;
  }
  return { union, intersection };
}

/**
 * `text` split at every top-level occurrence of `separator` (outside
 * brackets, string literals and comments); the pieces are not trimmed.
 */
export function splitTopLevel(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i);
    else if (c === "/" && text[i + 1] === "*") i = skipComment(text, i);
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (depth === 0 && c === separator) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** The index of the bracket that closes the one at `open`, or -1. */
export function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i);
    else if (c === "/" && text[i + 1] === "*") i = skipComment(text, i);
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if ((c === "}" || c === "]" || c === ")") && --depth === 0) return i;
  }
  return -1;
}

function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function skipComment(text: string, start: number): number {
  const end = text.indexOf("*/", start + 2);
  return end === -1 ? text.length : end + 1;
}

/** Parenthesizes `text` when it is a union or intersection, for use as `T[]`, `T?` or `...T[]`. */
export function asOperand(text: string): string {
  const ops = topLevelOperators(text);
  return ops.union || ops.intersection ? `(${text})` : text;
}

/** `A | B`, with duplicates removed and `never` dropped (it adds nothing to a union). */
export function unionOf(members: readonly string[]): string {
  const unique = [...new Set(members)].filter((m) => m !== "never");
  if (unique.length === 0) return "never";
  if (unique.includes("unknown")) return "unknown";
  return unique.join(" | ");
}

/** `A & B`, with duplicates and `unknown` dropped; unions are parenthesized. */
export function intersectionOf(members: readonly string[]): string {
  const unique = [...new Set(members)].filter((m) => m !== "unknown");
  if (unique.length === 0) return "unknown";
  if (unique.includes("never")) return "never";
  if (unique.length === 1) return unique[0];
  return unique.map((m) => (topLevelOperators(m).union ? `(${m})` : m)).join(" & ");
}
