/**
 * The one reading of `pattern`s (generator/schema/pattern.ts), table-driven:
 * each row is a construct one of the two readers it replaced handled (the
 * diff's, diff/patterns.ts, and the contract tests' sampler,
 * emit/contract-tests/pattern.ts), what the tree says about it, the sample
 * the contract tests take from it, and its shortest match.
 */
import { describe, expect, it } from "vitest";
import { samplePattern } from "../../generator/emit/contract-tests/pattern.js";
import { complement, parsePattern, patternMinLength, type PatternSeq, type Ranges } from "../../generator/schema/pattern.js";

const c = (s: string): number => s.codePointAt(0) as number;
/** A compact spelling of a tree: sets as their ranges and sample, groups as their alternatives, quantifiers as {min,max}. */
function spell(seq: PatternSeq): string {
  return seq
    .map((t) => {
      if ("anchor" in t) return t.anchor;
      const atom =
        "group" in t.atom
          ? `(${t.atom.group.map(spell).join("|")})`
          : `[${t.atom.chars.map(([lo, hi]) => (lo === hi ? lo.toString(16) : `${lo.toString(16)}-${hi.toString(16)}`)).join(",")}]${t.atom.sample === undefined ? "" : `=${String.fromCodePoint(t.atom.sample)}`}`;
      return t.min === 1 && t.max === 1 ? atom : `${atom}{${t.min},${t.max === Infinity ? "" : t.max}}`;
    })
    .join(" ");
}
const rangesOf = (r: Ranges): string => r.map(([lo, hi]) => `${lo.toString(16)}-${hi.toString(16)}`).join(",");

describe("parsePattern", () => {
  // [pattern, the tree spelled, the contract tests' sample (minLength 0), the shortest match]
  it.each([
    // Both readers: literals, anchors, classes, the class escapes, groups, alternatives, quantifiers.
    ["^ord_[A-Za-z0-9]+$", "^ [6f]=o [72]=r [64]=d [5f]=_ [30-39,41-5a,61-7a]=A{1,} $", "ord_A", 5],
    ["^[A-Z]{3}$", "^ [41-5a]=A{3,3} $", "AAA", 3],
    ["^(?:foo|bar)-\\d{2}$", "^ ([66]=f [6f]=o [6f]=o|[62]=b [61]=a [72]=r) [2d]=- [30-39]=0{2,2} $", "foo-00", 6],
    ["^v\\.[0-9]*$", "^ [76]=v [2e]=. [30-39]=0{0,} $", "v.", 2],
    ["a{2,}?b{1,3}", "[61]=a{2,} [62]=b{1,3}", "aab", 3],
    ["(a|bc)?", "([61]=a|[62]=b [63]=c){0,1}", "", 0],
    ["^\\w\\s.$", `^ [30-39,41-5a,5f,61-7a]=a [9-d,20,a0,1680,2000-200a,2028-2029,202f,205f,3000,feff]=  [${rangesOf(complement([[0xa, 0xa], [0xd, 0xd], [0x2028, 0x2029]])).replace(/-/g, "-")}]=a $`, "a a", 3],
    // The diff's reader only, before: negated sets, control and hex escapes, escapes in classes, unanchored ends.
    ["^[^a]$", `^ [${rangesOf(complement([[c("a"), c("a")]]))}] $`, undefined, 1],
    ["\\D", `[${rangesOf(complement([[0x30, 0x39]]))}]`, undefined, 1],
    ["^\\t\\x41\\u0042\\u{1F432}$", "^ [9]=\t [41]=A [42]=B [1f432]=🐲 $", "\tAB🐲", 4],
    ["^[\\-a-c\\]]$", "^ [2d,5d,61-63]=- $", "-", 1],
    ["a+", "[61]=a{1,}", "a", 1],
  ] as const)("%s", (pattern, tree, sample, shortest) => {
    const alternatives = parsePattern(pattern);
    expect(alternatives?.map(spell).join(" | ")).toBe(tree);
    expect(samplePattern(pattern)).toBe(sample);
    expect(patternMinLength(pattern)).toBe(shortest);
  });

  it.each([
    ["^(?=a)a$", "a lookahead"],
    ["^(?<n>a)$", "a named group"],
    ["^(a)\\1$", "a backreference"],
    ["^\\p{L}$", "a Unicode property"],
    ["\\bword", "a word boundary"],
    ["^a$|^b{2,", "a brace that is no quantifier"],
    ["a**", "stacked quantifiers"],
    ["(ab", "an unclosed group"],
    ["*a", "a quantifier without an atom"],
    ["[\\d-z]", "a class range from a class"],
  ])("does not read %s (%s)", (pattern) => {
    expect(parsePattern(pattern)).toBeUndefined();
    expect(samplePattern(pattern)).toBeUndefined();
    expect(patternMinLength(pattern)).toBe(0);
  });
});
