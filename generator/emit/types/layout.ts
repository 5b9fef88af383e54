/**
 * Line layout for the type expressions the transforms render, so generated
 * type files are written in their final form and need no formatter.
 *
 * The transforms render types without knowing where they will sit: object
 * literals one member per line, relative to column 0, and everything else on
 * one line. This module places such a type at a known indentation and breaks
 * the one construct that grows without bound, a union, one member per line
 * when it does not fit in `PRINT_WIDTH` columns or holds a multi-line member
 * (and a tuple holding one, one element per line), in the layout prettier
 * uses for the same code:
 *
 *     export type Status =
 *       | "pending"
 *       | "paid";
 *
 * Only toolc's own rendered text comes here, so the small grammar below
 * (object literals, unions, parenthesized arrays, tuples) covers what it meets;
 * anything else is kept as rendered and re-indented.
 */
import { closingBracket, splitTopLevel } from "./text.js";

/** The longest line toolc writes where it can choose (a long literal or name can still exceed it). */
export const PRINT_WIDTH = 80;

/** A laid-out type: it continues the current line, or, when `broken`, starts on the next one. */
export interface LaidOut {
  readonly text: string;
  readonly broken: boolean;
}

/** Union members that ride along with a single object type without breaking the union. */
const NULLISH = new Set(["null", "undefined"]);

const isMultilineObject = (type: string): boolean => type.startsWith("{\n");

/** Every line after the first moved right by `indent` (rendered text is relative to column 0). */
function reindent(type: string, indent: string): string {
  return indent === "" ? type : type.replace(/\n/g, `\n${indent}`);
}

/**
 * `type` placed where the current line is `lead` columns long, with `tail`
 * more characters (such as `;`) to follow it, inside a block indented by `indent`.
 */
export function layoutType(type: string, indent: string, lead: number, tail: number): LaidOut {
  const members = splitTopLevel(type, "|").map((m) => m.trim());
  if (members.length > 1) return layoutUnion(members, indent, lead, tail);
  return { text: layoutOperand(type, indent, lead, tail), broken: false };
}

function layoutUnion(members: readonly string[], indent: string, lead: number, tail: number): LaidOut {
  const [first, ...rest] = members;
  if (isMultilineObject(first) && rest.every((m) => NULLISH.has(m))) {
    return { text: `${layoutOperand(first, indent, lead, 0)} | ${rest.join(" | ")}`, broken: false };
  }
  const oneLine = members.join(" | ");
  if (!oneLine.includes("\n") && lead + oneLine.length + tail <= PRINT_WIDTH) return { text: oneLine, broken: false };
  const inner = `${indent}    `;
  const lines = members.map((m, i) => `${indent}  | ${layoutOperand(m, inner, inner.length, i === members.length - 1 ? tail : 0)}`);
  return { text: `\n${lines.join("\n")}`, broken: true };
}

/** A type that is not a top-level union: an object literal (maybe with a suffix such as `[]`), `(A | B)[]`, or anything else. */
function layoutOperand(type: string, indent: string, lead: number, tail: number): string {
  if (isMultilineObject(type)) {
    const close = closingBracket(type, 0);
    const suffix = type.slice(close + 1);
    if (close > 0 && !suffix.includes("\n")) return `${layoutObject(type.slice(0, close + 1), indent)}${suffix}`;
  }
  if (type.startsWith("(")) {
    const close = closingBracket(type, 0);
    const suffix = type.slice(close + 1);
    const fits = !type.includes("\n") && lead + type.length + tail <= PRINT_WIDTH;
    if (close > 0 && /^(\[\])+$/.test(suffix) && !fits) {
      const union = layoutType(type.slice(1, close), indent, lead + 1, 0);
      if (union.broken) return `(${union.text}\n${indent})${suffix}`;
    }
  }
  if (type.startsWith("[") && closingBracket(type, 0) === type.length - 1 && !(lead + type.length + tail <= PRINT_WIDTH && !type.includes("\n"))) {
    return layoutTuple(type, indent);
  }
  return reindent(type, indent);
}

/** A tuple that does not fit: one element per line, a broken union element in parentheses. */
function layoutTuple(type: string, indent: string): string {
  const inner = `${indent}  `;
  const elements = splitTopLevel(type.slice(1, -1), ",").map((e) => e.trim());
  const lines = elements.map((element) => {
    const laid = layoutType(element, inner, inner.length, 1);
    return `${inner}${laid.broken ? `(${laid.text}\n${inner})` : laid.text},`;
  });
  return `[\n${lines.join("\n")}\n${indent}]`;
}

/** The members of a rendered object literal, each as written at column 0: an optional doc comment, then `key: type`. */
function objectMembers(object: string): string[] {
  const body = object
    .slice(2, -2)
    .split("\n")
    .map((line) => (line.startsWith("  ") ? line.slice(2) : line))
    .join("\n");
  return splitTopLevel(body, ";")
    .map((m) => m.replace(/^\n+/, ""))
    .filter((m) => m.trim() !== "");
}

/** One member line (with its doc comment above it), inside an object whose members sit at `indent`. */
function layoutMember(member: string, indent: string): string {
  let doc = "";
  let declaration = member;
  if (member.startsWith("/*")) {
    const end = member.indexOf("*/") + 2;
    doc = `${reindent(member.slice(0, end), indent)}\n${indent}`;
    declaration = member.slice(end).replace(/^\s+/, "");
  }
  const [key, ...typeParts] = splitTopLevel(declaration, ":");
  const type = typeParts.join(":").replace(/^ /, "");
  const laid = layoutType(type, indent, indent.length + key.length + 2, 1);
  return `${indent}${doc}${key}:${laid.broken ? "" : " "}${laid.text};`;
}

/** A rendered multi-line object literal, its members laid out one level inside `indent`. */
function layoutObject(object: string, indent: string): string {
  const inner = `${indent}  `;
  return `{\n${objectMembers(object).map((m) => layoutMember(m, inner)).join("\n")}\n${indent}}`;
}

/** `export type <name> = <type>;`, laid out. */
export function typeAliasText(name: string, type: string): string {
  const head = `export type ${name} =`;
  const laid = layoutType(type, "", head.length + 1, 1);
  return `${head}${laid.broken ? "" : " "}${laid.text};`;
}
