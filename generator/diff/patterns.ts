/**
 * What the diff asks of `pattern`s, on the one reading of them
 * (schema/pattern.ts): whether one generalizes another, strings one matches,
 * its shortest match. A pattern outside what is read (lookarounds,
 * backreferences, Unicode properties, word boundaries) leaves the change
 * undecided. Patterns are searched, as JSON Schema says: `abc` matches any
 * string containing abc, as if written `^[\s\S]*abc[\s\S]*$`.
 */

import { ANY, MAX_CODE_POINT as MAX, parsePattern, type CharsAtom, type PatternSeq, type Ranges } from "../schema/pattern.js";

/** A term of a pattern whose anchors are made explicit (search semantics), so none is left in it. */
interface Term {
  readonly atom: CharsAtom | { readonly group: readonly Seq[] };
  readonly min: number;
  readonly max: number;
}
type Seq = readonly Term[];

const covers = (outer: Ranges, inner: Ranges): boolean => inner.every(([lo, hi]) => outer.some(([a, b]) => a <= lo && hi <= b));

class Unsupported extends Error {}

const ANY_STAR: Term = { atom: { chars: ANY, sample: undefined }, min: 0, max: Infinity };

/** The pattern as anchored alternatives (search semantics made explicit), or undefined when it is not read. */
function parse(source: string): Seq[] | undefined {
  const alts = parsePattern(source);
  if (alts === undefined) return undefined;
  try {
    return alts.map((seq) => {
      const [first, last] = [seq[0], seq[seq.length - 1]];
      const startAnchored = first !== undefined && "anchor" in first && first.anchor === "^";
      const endAnchored = last !== undefined && "anchor" in last && last.anchor === "$";
      const body = unanchored(seq.slice(startAnchored ? 1 : 0, endAnchored ? -1 : undefined));
      return [...(startAnchored ? [] : [ANY_STAR]), ...body, ...(endAnchored ? [] : [ANY_STAR])];
    });
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

/** The sequence, which must hold no anchor (one inside is not read), with its groups' alternatives likewise. */
function unanchored(seq: PatternSeq): Seq {
  return seq.map((t) => {
    if ("anchor" in t) throw new Unsupported("anchor inside");
    return "group" in t.atom ? { ...t, atom: { group: t.atom.group.map(unanchored) } } : { ...t, atom: t.atom };
  });
}

/** Whether every string `a` matches, `b` matches too; false means "not shown", not "no". */
function seqIncluded(a: Seq, b: Seq, budget: { n: number }): boolean {
  if (--budget.n < 0) return false;
  const [x, ...aRest] = a;
  const [y, ...bRest] = b;
  if (x === undefined) return b.every((t) => t.min === 0 || ("group" in t.atom && t.atom.group.some((alt) => alt.length === 0)));
  // A group matched once is its alternatives, spelled out in place.
  if ("group" in x.atom && x.min === 1 && x.max === 1) return x.atom.group.every((alt) => seqIncluded([...alt, ...aRest], b, budget));
  if (y === undefined) return x.max === 0 && seqIncluded(aRest, b, budget);
  if ("group" in y.atom && y.min === 1 && y.max === 1) return y.atom.group.some((alt) => seqIncluded(a, [...alt, ...bRest], budget));
  const absorbs =
    "chars" in y.atom && y.max === Infinity && ("chars" in x.atom ? covers(y.atom.chars, x.atom.chars) : y.atom.chars === ANY || covers(y.atom.chars, ANY));
  if (absorbs) {
    // y repeats without bound over a superset of x: it takes x, and may take what follows too.
    const left = Math.max(0, y.min - x.min);
    if (left === 0 && seqIncluded(aRest, bRest, budget)) return true;
    if (seqIncluded(aRest, [{ ...y, min: left }, ...bRest], budget)) return true;
  }
  if (termIncluded(x, y, budget) && seqIncluded(aRest, bRest, budget)) return true;
  return y.min === 0 && seqIncluded(a, bRest, budget);
}

function termIncluded(x: Term, y: Term, budget: { n: number }): boolean {
  if (x.min < y.min || x.max > y.max) return false;
  if ("chars" in x.atom && "chars" in y.atom) return covers(y.atom.chars, x.atom.chars);
  const alts = (t: Term): readonly Seq[] => ("group" in t.atom ? t.atom.group : [[{ atom: t.atom, min: 1, max: 1 }]]);
  return alts(x).every((xa) => alts(y).some((ya) => seqIncluded(xa, ya, budget)));
}

/**
 * Whether every string `base` matches is matched by `head`: true when shown
 * by the patterns' structure, false when not shown (which may still hold),
 * undefined when a pattern is outside what is read.
 */
export function patternIncluded(base: string, head: string): boolean | undefined {
  const a = parse(base);
  const b = parse(head);
  if (a === undefined || b === undefined) return undefined;
  const budget = { n: 20_000 };
  return a.every((alt) => b.some((balt) => seqIncluded(alt, balt, budget)));
}

function sampleChars(r: Ranges): number[] {
  const out = new Set<number>();
  for (const [lo, hi] of r.slice(0, 4)) {
    out.add(lo);
    out.add(hi);
    out.add(Math.floor((lo + hi) / 2));
  }
  // Plain ASCII letters and digits first, when the class has them.
  for (const c of [0x61, 0x41, 0x30, 0x5f, 0x2d, 0x20]) if (r.some(([lo, hi]) => lo <= c && c <= hi)) out.add(c);
  return [...out].filter((c) => c <= MAX && !(c >= 0xd800 && c <= 0xdfff)).slice(0, 6);
}

function seqSamples(seq: Seq, limit: number): string[] {
  let acc = [""];
  for (const term of seq) {
    const counts = [...new Set([term.min, term.min + 1, Math.min(term.max, term.min + 3)])].filter((n) => n >= 0 && n <= term.max);
    const units =
      "group" in term.atom ? term.atom.group.flatMap((alt) => seqSamples(alt, 4)) : sampleChars(term.atom.chars).map((c) => String.fromCodePoint(c));
    const next: string[] = [];
    for (const prefix of acc) for (const n of counts) for (const u of units) next.push(prefix + u.repeat(n));
    acc = [...new Set(next)].slice(0, limit);
  }
  return acc;
}

/** Strings the pattern matches (varied at each class's edges and each quantifier's bounds), for witness searches. */
export function patternSamples(source: string, limit = 40): string[] {
  const alts = parse(source);
  if (alts === undefined) return [];
  const plain = (seq: Seq): Seq => seq.map((t) => (t === ANY_STAR ? { atom: { chars: [[0x78, 0x78]], sample: 0x78 }, min: 0, max: 1 } : t));
  return [...new Set(alts.flatMap((alt) => seqSamples(plain(alt), limit)))].slice(0, limit);
}
