/**
 * The printer of type nodes: a type written in its final layout where it
 * sits, so generated type files need no formatter.
 *
 * Object types are written one member per line; the one construct that grows
 * without bound, a union, is broken one member per line when it does not fit
 * in `PRINT_WIDTH` columns or holds a multi-line member (and a tuple holding
 * one, one element per line), in the layout prettier uses for the same code:
 *
 *     export type Status =
 *       | "pending"
 *       | "paid";
 *
 * Shapes prettier would lay out otherwise and toolc rarely writes (an
 * intersection of two object types, say) keep their rendered form (render.ts),
 * moved to their indentation.
 */
import type { ObjectMember, ObjectType, TupleType, TypeNode } from "./node.js";
import { elementText, memberKey, typeText } from "./render.js";
import { jsDoc, PRINT_WIDTH } from "../literal.js";

/** A laid-out type: it continues the current line, or, when `broken`, starts on the next one. */
export interface LaidOut {
  readonly text: string;
  readonly broken: boolean;
}

/** Whether one-line `text` fits after `lead` columns with `tail` more characters to follow. */
function fits(text: string, lead: number, tail: number): boolean {
  return !text.includes("\n") && lead + text.length + tail <= PRINT_WIDTH;
}

/** Every line after the first moved right by `indent` (rendered text is relative to column 0). */
function reindent(text: string, indent: string): string {
  return indent === "" ? text : text.replace(/\n/g, `\n${indent}`);
}

/** A union's members as it is written: a member that is itself a union contributes its own. */
function unionMembers(type: TypeNode): TypeNode[] {
  return type.kind === "union" ? type.members.flatMap(unionMembers) : [type];
}

const isNullish = (type: TypeNode): boolean => type.kind === "keyword" && (type.name === "null" || type.name === "undefined");

/**
 * The multi-line object a type's text starts with, and the text after it on
 * its last line: `{ … }[]` and `{ … } & B` lay the object out and keep what
 * follows. Undefined when the type does not start with one.
 */
function leadingObject(type: TypeNode): { object: ObjectType; after: string } | undefined {
  if (type.kind === "object") return type.oneLine ? undefined : { object: type, after: "" };
  if (type.kind === "array") {
    const inner = leadingObject(type.element);
    return inner && { object: inner.object, after: `${inner.after}[]` };
  }
  if (type.kind === "intersection") {
    const [first, ...rest] = type.members;
    const inner = leadingObject(first);
    return inner && { object: inner.object, after: `${inner.after}${rest.map((m) => ` & ${typeText(m)}`).join("")}` };
  }
  return undefined;
}

/**
 * `type` placed where the current line is `lead` columns long, with `tail`
 * more characters (such as `;`) to follow it, inside a block indented by `indent`.
 */
export function layoutType(type: TypeNode, indent: string, lead: number, tail: number): LaidOut {
  const members = unionMembers(type);
  if (members.length > 1) return layoutUnion(members, indent, lead, tail);
  return { text: layoutOperand(type, indent, lead, tail), broken: false };
}

/** A union on one line when it fits, else one member per line; an object with only `null` or `undefined` beside it stays whole. */
function layoutUnion(members: readonly TypeNode[], indent: string, lead: number, tail: number): LaidOut {
  const [first, ...rest] = members;
  if (leadingObject(first) !== undefined && rest.every(isNullish)) {
    return { text: `${layoutOperand(first, indent, lead, 0)} | ${rest.map(typeText).join(" | ")}`, broken: false };
  }
  const oneLine = members.map(typeText).join(" | ");
  if (fits(oneLine, lead, tail)) return { text: oneLine, broken: false };
  const inner = `${indent}    `;
  const lines = members.map((m, i) => `${indent}  | ${layoutOperand(m, inner, inner.length, i === members.length - 1 ? tail : 0)}`);
  return { text: `\n${lines.join("\n")}`, broken: true };
}

/**
 * A type that is not a union, followed by `suffix` (a tuple element's `?`):
 * a leading object laid out, a union array or a tuple broken when it does not
 * fit, and anything else as rendered.
 */
function layoutOperand(type: TypeNode, indent: string, lead: number, tail: number, suffix = ""): string {
  const leading = leadingObject(type);
  if (leading !== undefined && !leading.after.includes("\n")) return `${layoutObject(leading.object, indent)}${leading.after}${suffix}`;
  const text = `${typeText(type)}${suffix}`;
  if (suffix === "" && !fits(text, lead, tail)) {
    const broken = layoutUnionArray(type, indent, lead) ?? (type.kind === "tuple" && type.elements.length > 0 ? layoutTuple(type, indent) : undefined);
    if (broken !== undefined) return broken;
  }
  return reindent(text, indent);
}

/** `(A | B)[]` (or `[][]`…) with the union broken inside its parentheses; undefined when the union stays on one line. */
function layoutUnionArray(type: TypeNode, indent: string, lead: number): string | undefined {
  let element = type;
  let dimensions = 0;
  for (; element.kind === "array"; dimensions++) element = element.element;
  if (dimensions === 0 || element.kind !== "parenthesized") return undefined;
  const union = layoutType(element.type, indent, lead + 1, 0);
  return union.broken ? `(${union.text}\n${indent})${"[]".repeat(dimensions)}` : undefined;
}

/** A tuple that does not fit: one element per line, a broken union element in parentheses. */
function layoutTuple(tuple: TupleType, indent: string): string {
  const inner = `${indent}  `;
  const lines = tuple.elements.map((element) => {
    if (element.form === "rest") return `${inner}${reindent(elementText(element), inner)},`;
    if (element.form === "optional") return `${inner}${layoutOperand(element.type, inner, inner.length, 1, "?")},`;
    const laid = layoutType(element.type, inner, inner.length, 1);
    return `${inner}${laid.broken ? `(${laid.text}\n${inner})` : laid.text},`;
  });
  return `[\n${lines.join("\n")}\n${indent}]`;
}

/** One member (after its doc comment) inside an object whose members sit at `indent`. */
function layoutMember(member: ObjectMember, indent: string): string {
  const doc = member.kind === "property" ? jsDoc(member.docs, indent) : undefined;
  const key = memberKey(member);
  const laid = layoutType(member.type, indent, indent.length + key.length + 2, 1);
  return `${indent}${doc === undefined ? "" : `${doc}\n${indent}`}${key}:${laid.broken ? "" : " "}${laid.text};`;
}

/** A multi-line object, its members laid out one level inside `indent`. */
function layoutObject(object: ObjectType, indent: string): string {
  const inner = `${indent}  `;
  return `{\n${object.members.map((m) => layoutMember(m, inner)).join("\n")}\n${indent}}`;
}

/** `export type <name> = <type>;`, laid out; a type given as text (`typeof contracts`) is written as it is. */
export function typeAliasText(name: string, type: TypeNode | string): string {
  const head = `export type ${name} =`;
  if (typeof type === "string") return `${head} ${type};`;
  const laid = layoutType(type, "", head.length + 1, 1);
  return `${head}${laid.broken ? "" : " "}${laid.text};`;
}
