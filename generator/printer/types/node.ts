/**
 * TypeScript type expressions as a small tree: what every schema transform
 * returns, and what layout.ts prints once, in its final layout. Nothing reads
 * printed type text back to find its structure.
 *
 * The constructors keep the rules of the type language in one place: an
 * operand that binds more loosely than its operator is parenthesized here
 * (`(A | B)[]`, `A & (B | C)`), and unions and intersections drop what adds
 * nothing to them (`never` in a union, `unknown` in an intersection) and
 * collapse when one member decides the whole.
 */
import { typeText } from "./render.js";

/** The keyword types a schema can mean; `integer` is `number` (see primitive.ts). */
export type KeywordName = "unknown" | "never" | "string" | "number" | "boolean" | "null" | "undefined";

export interface KeywordType {
  readonly kind: "keyword";
  readonly name: KeywordName;
}

/** A type name in scope where the type is printed: declared in the file, or imported into it. */
export interface ReferenceType {
  readonly kind: "reference";
  readonly name: string;
}

/** A string, number or boolean literal type; `null` is the keyword. */
export interface LiteralType {
  readonly kind: "literal";
  readonly value: string | number | boolean;
}

/** `A | B`: at least two members, none of them `never`. A member may itself be a union. */
export interface UnionType {
  readonly kind: "union";
  readonly members: readonly TypeNode[];
}

/** `A & B`: at least two members, none of them `unknown`; a union member is parenthesized. */
export interface IntersectionType {
  readonly kind: "intersection";
  readonly members: readonly TypeNode[];
}

/** `T[]`; a union or intersection element is parenthesized. */
export interface ArrayType {
  readonly kind: "array";
  readonly element: TypeNode;
}

/**
 * One element of a tuple: `T`, `T?`, or `...T[]` (then `type` is the array
 * type `T[]`). An optional element's union or intersection is parenthesized.
 */
export interface TupleElement {
  readonly form: "required" | "optional" | "rest";
  readonly type: TypeNode;
}

/** `[A, B?, ...C[]]`; `[]` when it has no elements. */
export interface TupleType {
  readonly kind: "tuple";
  readonly elements: readonly TupleElement[];
}

/** `name?: T;`, with `readonly` and its documentation lines (escaped by the printer). */
export interface PropertySignature {
  readonly kind: "property";
  readonly name: string;
  readonly type: TypeNode;
  readonly optional: boolean;
  readonly readonly: boolean;
  readonly docs: readonly string[];
}

/** `[key: string]: T;`. */
export interface IndexSignature {
  readonly kind: "index";
  readonly type: TypeNode;
}

export type ObjectMember = PropertySignature | IndexSignature;

/**
 * An object type literal. `oneLine` objects (literal types and the empty
 * object) are written `{ a: 1; b: "x" }` and never broken; the others one
 * member per line, each with its documentation.
 */
export interface ObjectType {
  readonly kind: "object";
  readonly members: readonly ObjectMember[];
  readonly oneLine: boolean;
}

/** `(T)`: an operand that would otherwise bind to its neighbours. */
export interface ParenthesizedType {
  readonly kind: "parenthesized";
  readonly type: TypeNode;
}

export type TypeNode = KeywordType | ReferenceType | LiteralType | UnionType | IntersectionType | ArrayType | TupleType | ObjectType | ParenthesizedType;

export function keyword(name: KeywordName): KeywordType {
  return { kind: "keyword", name };
}

export function reference(name: string): ReferenceType {
  return { kind: "reference", name };
}

/** A literal type; the printer quotes it (literal.ts), so contract text can never escape it. */
export function scalarLiteral(value: string | number | boolean): LiteralType {
  return { kind: "literal", value };
}

export function parenthesized(type: TypeNode): ParenthesizedType {
  return { kind: "parenthesized", type };
}

/** `type`, parenthesized when it is a union or intersection, for use as `T[]` or `T?`. */
function operand(type: TypeNode): TypeNode {
  return type.kind === "union" || type.kind === "intersection" ? parenthesized(type) : type;
}

export function arrayOf(element: TypeNode): ArrayType {
  return { kind: "array", element: operand(element) };
}

export function requiredElement(type: TypeNode): TupleElement {
  return { form: "required", type };
}

export function optionalElement(type: TypeNode): TupleElement {
  return { form: "optional", type: operand(type) };
}

/** `...T[]`: any number of `element` after the others. */
export function restElement(element: TypeNode): TupleElement {
  return { form: "rest", type: arrayOf(element) };
}

export function tupleOf(elements: readonly TupleElement[]): TupleType {
  return { kind: "tuple", elements };
}

export function property(name: string, type: TypeNode, options: { optional?: boolean; readonly?: boolean; docs?: readonly string[] } = {}): PropertySignature {
  return { kind: "property", name, type, optional: options.optional ?? false, readonly: options.readonly ?? false, docs: options.docs ?? [] };
}

export function indexSignature(type: TypeNode): IndexSignature {
  return { kind: "index", type };
}

/** An object type; a one-line object holds no documentation, since only a member on its own line can carry it. */
export function objectOf(members: readonly ObjectMember[], oneLine = false): ObjectType {
  if (oneLine && members.some((m) => m.kind === "property" && m.docs.length > 0)) throw new Error("a one-line object type cannot document its members");
  return { kind: "object", members, oneLine };
}

/** An object that can have no properties at all: `{}` would accept any non-nullish value. */
export function emptyObject(): ObjectType {
  return objectOf([indexSignature(keyword("never"))], true);
}

const isKeyword = (type: TypeNode, name: KeywordName): boolean => type.kind === "keyword" && type.name === name;

/** The members without repeats, in order: two types are the same when they are written the same. */
function distinct(members: readonly TypeNode[]): TypeNode[] {
  const seen = new Set<string>();
  return members.filter((member) => {
    const text = typeText(member);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

/** `A | B`, with repeats removed and `never` dropped (it adds nothing to a union); `unknown` absorbs the rest. */
export function unionOf(members: readonly TypeNode[]): TypeNode {
  const unique = distinct(members).filter((m) => !isKeyword(m, "never"));
  if (unique.length === 0) return keyword("never");
  if (unique.some((m) => isKeyword(m, "unknown"))) return keyword("unknown");
  return unique.length === 1 ? unique[0] : { kind: "union", members: unique };
}

/** `A & B`, with repeats and `unknown` dropped; `never` absorbs the rest, and unions are parenthesized. */
export function intersectionOf(members: readonly TypeNode[]): TypeNode {
  const unique = distinct(members).filter((m) => !isKeyword(m, "unknown"));
  if (unique.length === 0) return keyword("unknown");
  if (unique.some((m) => isKeyword(m, "never"))) return keyword("never");
  if (unique.length === 1) return unique[0];
  return { kind: "intersection", members: unique.map((m) => (m.kind === "union" ? parenthesized(m) : m)) };
}
