/**
 * codePointLength, which the generated validators use for minLength and
 * maxLength, counts exactly what Ajv's own ucs2length counts.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "../../generator/runtime/length.js";

const ucs2length = (createRequire(import.meta.url)("ajv/dist/runtime/ucs2length") as { default: (s: string) => number }).default;

describe("codePointLength", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["\u{1F600}", 1],
    ["a\u{1F600}b", 3],
    ["\uD83D", 1],
    ["\uDE00", 1],
    ["\uDE00\uD83D", 2],
    ["\uD83D\uD83D\uDE00", 2],
  ])("%j has %i code points", (s, n) => {
    expect(codePointLength(s)).toBe(n);
  });

  it("agrees with Ajv's ucs2length on any UTF-16 string, lone surrogates included", () => {
    fc.assert(fc.property(fc.string({ unit: fc.oneof(fc.nat(0xffff).map((c) => String.fromCharCode(c)), fc.constantFrom("\uD83D", "\uDE00")) }), (s) => codePointLength(s) === ucs2length(s)), { numRuns: 500 });
  });
});
