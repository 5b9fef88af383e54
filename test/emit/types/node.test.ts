/** The type-node constructors (node.ts) and the two printers: before layout (render.ts) and laid out (layout.ts). */
import { describe, expect, it } from "vitest";
import { typeAliasText } from "../../../generator/printer/types/layout.js";
import {
  arrayOf,
  intersectionOf,
  keyword,
  objectOf,
  optionalElement,
  property,
  reference,
  requiredElement,
  restElement,
  scalarLiteral,
  tupleOf,
  unionOf,
} from "../../../generator/printer/types/node.js";
import { typeText } from "../../../generator/printer/types/render.js";

const A = reference("A");
const B = reference("B");
const C = reference("C");

describe("type nodes", () => {
  it("a union drops never and repeats, collapses to its one member, and unknown absorbs it", () => {
    expect(typeText(unionOf([A, keyword("never"), A, B]))).toBe("A | B");
    expect(unionOf([A, keyword("never")])).toBe(A);
    expect(unionOf([])).toEqual(keyword("never"));
    expect(unionOf([A, keyword("unknown")])).toEqual(keyword("unknown"));
  });

  it("an intersection drops unknown, never absorbs it, and a union member is parenthesized", () => {
    expect(typeText(intersectionOf([A, keyword("unknown"), unionOf([B, C])]))).toBe("A & (B | C)");
    expect(intersectionOf([])).toEqual(keyword("unknown"));
    expect(intersectionOf([A, keyword("never")])).toEqual(keyword("never"));
  });

  it("parenthesizes a union or intersection used as an array element or an optional tuple element", () => {
    expect(typeText(arrayOf(unionOf([A, B])))).toBe("(A | B)[]");
    expect(typeText(arrayOf(intersectionOf([A, B])))).toBe("(A & B)[]");
    const tuple = tupleOf([requiredElement(unionOf([A, B])), optionalElement(unionOf([A, C])), restElement(unionOf([B, C]))]);
    expect(typeText(tuple)).toBe("[A | B, (A | C)?, ...(B | C)[]]");
  });

  it("writes a readonly member, and quotes keys and literals as literal.ts does", () => {
    const object = objectOf([property("id", A, { readonly: true, optional: true }), property("x-y", scalarLiteral('say "hi"'))]);
    expect(typeAliasText("T", object)).toBe('export type T = {\n  readonly id?: A;\n  "x-y": "say \\"hi\\"";\n};');
  });

  it("refuses documentation in a one-line object, where no member has a line of its own", () => {
    expect(() => objectOf([property("a", A, { docs: ["Doc."] })], true)).toThrow(/cannot document/);
  });
});
