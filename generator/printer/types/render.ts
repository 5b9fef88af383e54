/**
 * A type node as text, before layout: object types one member per line,
 * relative to column 0, and everything else on one line. This is the form
 * two types are compared in (a union keeps one of two members written the
 * same), the width a type takes when it stays on one line, and what the
 * layout writes for the shapes it does not break (layout.ts).
 */
import { jsDoc, literal, propertyKey } from "../literal.js";
import type { ObjectMember, ObjectType, TupleElement, TypeNode } from "./node.js";

/** Nodes are immutable and a union compares its members by text, so each node is rendered once. */
const rendered = new WeakMap<TypeNode, string>();

/** The type as written before layout. */
export function typeText(type: TypeNode): string {
  let text = rendered.get(type);
  if (text === undefined) {
    text = render(type);
    rendered.set(type, text);
  }
  return text;
}

function render(type: TypeNode): string {
  switch (type.kind) {
    case "keyword":
    case "reference":
      return type.name;
    case "literal":
      return literal(type.value);
    case "union":
      return type.members.map(typeText).join(" | ");
    case "intersection":
      return type.members.map(typeText).join(" & ");
    case "array":
      return `${typeText(type.element)}[]`;
    case "tuple":
      return `[${type.elements.map(elementText).join(", ")}]`;
    case "object":
      return objectText(type);
    case "parenthesized":
      return `(${typeText(type.type)})`;
  }
}

/** `T`, `T?` or `...T[]`. */
export function elementText(element: TupleElement): string {
  const text = typeText(element.type);
  if (element.form === "optional") return `${text}?`;
  return element.form === "rest" ? `...${text}` : text;
}

/** What precedes a member's `:`: `readonly name?` (the name quoted as literal.ts writes keys), or `[key: string]`. */
export function memberKey(member: ObjectMember): string {
  if (member.kind === "index") return "[key: string]";
  return `${member.readonly ? "readonly " : ""}${propertyKey(member.name)}${member.optional ? "?" : ""}`;
}

/** Every line of `text` moved right two spaces, for a member inside `{ }`. */
function indented(text: string): string {
  return `  ${text.replace(/\n/g, "\n  ")}`;
}

function memberText(member: ObjectMember): string {
  const declaration = `${memberKey(member)}: ${typeText(member.type)};`;
  const doc = member.kind === "property" ? jsDoc(member.docs) : undefined;
  return doc === undefined ? declaration : `${doc}\n${declaration}`;
}

function objectText(object: ObjectType): string {
  if (object.oneLine) return `{ ${object.members.map((m) => `${memberKey(m)}: ${typeText(m.type)}`).join("; ")} }`;
  return `{\n${object.members.map((m) => indented(memberText(m))).join("\n")}\n}`;
}
