/**
 * A small reading of `pattern`s, enough to tell when one generalizes another:
 * sequences of characters, character classes, groups with alternatives and
 * quantifiers, anchored or not. Anything else (lookarounds, backreferences,
 * Unicode properties, word boundaries) is not read, and the change stays
 * undecided. Patterns are searched, as JSON Schema says: `abc` matches any
 * string containing abc, as if written `^[\s\S]*abc[\s\S]*$`.
 */

type Ranges = readonly (readonly [number, number])[];

interface Term {
  readonly atom: { readonly chars: Ranges } | { readonly group: readonly Seq[] };
  readonly min: number;
  readonly max: number;
}
type Seq = readonly Term[];

const MAX = 0x10ffff;
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_ENDS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const ANY: Ranges = [[0, MAX]];

function normalizeRanges(list: readonly (readonly [number, number])[]): Ranges {
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(r: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(r)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

const covers = (outer: Ranges, inner: Ranges): boolean => inner.every(([lo, hi]) => outer.some(([a, b]) => a <= lo && hi <= b));

class Unsupported extends Error {}

/** A recursive-descent reader over the pattern's code points. */
class Reader {
  private i = 0;
  private readonly cps: number[];
  constructor(source: string) {
    this.cps = [...source].map((c) => c.codePointAt(0) as number);
  }
  private peek(): string | undefined {
    const c = this.cps[this.i];
    return c === undefined ? undefined : String.fromCodePoint(c);
  }
  private next(): string {
    const c = this.peek();
    if (c === undefined) throw new Unsupported("unexpected end");
    this.i++;
    return c;
  }
  done(): boolean {
    return this.i >= this.cps.length;
  }
  alternatives(): Seq[] {
    const alts: Seq[] = [this.sequence()];
    while (this.peek() === "|") {
      this.next();
      alts.push(this.sequence());
    }
    return alts;
  }
  private sequence(): Term[] {
    const terms: Term[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      if (c === "^" || c === "$") {
        this.next();
        terms.push({ atom: { chars: [] }, min: c === "^" ? -1 : -2, max: 0 });
        continue;
      }
      const atom = this.atom();
      terms.push({ atom, ...this.quantifier() });
    }
    return terms;
  }
  private atom(): Term["atom"] {
    const c = this.next();
    if (c === "(") {
      if (this.peek() === "?") {
        this.next();
        if (this.next() !== ":") throw new Unsupported("lookaround or named group");
      }
      const group = this.alternatives();
      if (this.next() !== ")") throw new Unsupported("unclosed group");
      return { group };
    }
    if (c === "[") return { chars: this.charClass() };
    if (c === ".") return { chars: complement(LINE_ENDS) };
    if (c === "\\") return { chars: this.escape(false) };
    if ("*+?{}]".includes(c)) throw new Unsupported("quantifier without an atom");
    const cp = c.codePointAt(0) as number;
    return { chars: [[cp, cp]] };
  }
  private escape(inClass: boolean): Ranges {
    const c = this.next();
    const classes: Record<string, Ranges> = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
    const controls: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c };
    if (classes[c]) return classes[c];
    if (controls[c] !== undefined) return [[controls[c], controls[c]]];
    if (inClass && c === "-") return [[0x2d, 0x2d]];
    if (/^[\^$\\.*+?()[\]{}|/]$/.test(c)) return [[c.codePointAt(0) as number, c.codePointAt(0) as number]];
    throw new Unsupported(`escape \\${c}`);
  }
  private charClass(): Ranges {
    let negated = false;
    if (this.peek() === "^") {
      this.next();
      negated = true;
    }
    const ranges: (readonly [number, number])[] = [];
    while (this.peek() !== "]") {
      const lo = this.classAtom();
      if (this.peek() === "-" && this.cps[this.i + 1] !== 0x5d) {
        this.next();
        const hi = this.classAtom();
        if (lo.length !== 1 || hi.length !== 1 || lo[0]?.[0] !== lo[0]?.[1] || hi[0]?.[0] !== hi[0]?.[1]) throw new Unsupported("class range of classes");
        ranges.push([lo[0]?.[0] as number, hi[0]?.[0] as number]);
      } else ranges.push(...lo);
    }
    this.next();
    const set = normalizeRanges(ranges);
    return negated ? complement(set) : set;
  }
  private classAtom(): Ranges {
    const c = this.next();
    if (c === "\\") return this.escape(true);
    if (c === "[") throw new Unsupported("nested class");
    const cp = c.codePointAt(0) as number;
    return [[cp, cp]];
  }
  private quantifier(): { min: number; max: number } {
    const c = this.peek();
    let q: { min: number; max: number } = { min: 1, max: 1 };
    if (c === "*" || c === "+" || c === "?") {
      this.next();
      q = c === "*" ? { min: 0, max: Infinity } : c === "+" ? { min: 1, max: Infinity } : { min: 0, max: 1 };
    } else if (c === "{") {
      const rest = String.fromCodePoint(...this.cps.slice(this.i));
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (!m) throw new Unsupported("brace");
      this.i += m[0].length;
      const min = Number(m[1]);
      q = { min, max: m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]) };
    } else return q;
    if (this.peek() === "?") this.next();
    if ("*+?{".includes(this.peek() ?? "")) throw new Unsupported("stacked quantifiers");
    return q;
  }
}

const ANY_STAR: Term = { atom: { chars: ANY }, min: 0, max: Infinity };
const isAnchor = (t: Term): boolean => t.min < 0;

/** The pattern as anchored alternatives (search semantics made explicit), or undefined when it is not read. */
function parse(source: string): Seq[] | undefined {
  try {
    const reader = new Reader(source);
    const alts = reader.alternatives();
    if (!reader.done()) return undefined;
    return alts.map((seq) => {
      const startAnchored = seq[0] !== undefined && seq[0].min === -1;
      const endAnchored = seq.length > 0 && seq[seq.length - 1]?.min === -2;
      const body = seq.slice(startAnchored ? 1 : 0, endAnchored ? -1 : undefined);
      if (body.some(isAnchor) || hasInnerAnchor(body)) throw new Unsupported("anchor inside");
      return [...(startAnchored ? [] : [ANY_STAR]), ...body, ...(endAnchored ? [] : [ANY_STAR])];
    });
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

function hasInnerAnchor(seq: Seq): boolean {
  return seq.some((t) => "group" in t.atom && t.atom.group.some((alt) => alt.some(isAnchor) || hasInnerAnchor(alt)));
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
  const plain = (seq: Seq): Seq => seq.map((t) => (t === ANY_STAR ? { atom: { chars: [[0x78, 0x78]] }, min: 0, max: 1 } : t));
  return [...new Set(alts.flatMap((alt) => seqSamples(plain(alt), limit)))].slice(0, limit);
}

function seqMinLength(seq: Seq): number {
  return seq.reduce((n, t) => n + Math.max(t.min, 0) * ("group" in t.atom ? Math.min(...t.atom.group.map(seqMinLength)) : 1), 0);
}

/** The length of the shortest string the pattern matches (0 when it is not read). */
export function patternMinLength(source: string): number {
  const alts = parse(source);
  return alts === undefined ? 0 : Math.min(...alts.map(seqMinLength));
}
