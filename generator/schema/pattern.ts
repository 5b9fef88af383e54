/**
 * The one reading of a schema's `pattern` toolc does: the regex subset
 * contracts use, as a small tree. Read: literal characters, `.`, the class
 * escapes (`\d \D \w \W \s \S`), control escapes (`\n \r \t \v \f`), `\xHH`,
 * `\uHHHH` and `\u{H...}`, escaped syntax characters, character classes (ranges, negation, escapes in them),
 * groups (`(...)`, `(?:...)`) with alternatives, the quantifiers `* + ? {n}
 * {n,} {n,m}` (lazy or not), and the anchors `^` and `$`. Anything else
 * (lookarounds, named groups, backreferences, Unicode properties, word
 * boundaries) is not read: `parsePattern` returns undefined,
 * and each reader falls back to what it does for a pattern it cannot read.
 *
 * Read by normalize and the diff (the shortest match, below), the diff (is
 * one pattern wider than another, strings it matches: diff/patterns.ts) and
 * the contract tests
 * (a sample string: emit/contract-tests/pattern.ts). Characters are code
 * points, as in a regex with the `u` flag, which is how Ajv compiles them.
 */

/** Inclusive code point ranges, sorted and merged. */
export type Ranges = readonly (readonly [number, number])[];

/** A set of characters: a literal, an escape, `.` or a class. */
export interface CharsAtom {
  readonly chars: Ranges;
  /**
   * The character a sample takes for it, where there is an obvious one: the
   * literal, the first member of a class as written (`[A-Za-z]` is "A"), "0"
   * for `\d`, "a" for `\w` and `.`, " " for `\s`. Undefined for the negated
   * sets (`[^a]`, `\D`, `\W`, `\S`), which a sample does not guess at.
   */
  readonly sample: number | undefined;
}

/** A group: its alternatives. */
export interface GroupAtom {
  readonly group: readonly PatternSeq[];
}

/** An atom repeated `min` to `max` times (`max` Infinity when unbounded; 1 and 1 when unquantified). */
export interface QuantifiedTerm {
  readonly atom: CharsAtom | GroupAtom;
  readonly min: number;
  readonly max: number;
}

export interface AnchorTerm {
  readonly anchor: "^" | "$";
}

export type PatternTerm = QuantifiedTerm | AnchorTerm;
export type PatternSeq = readonly PatternTerm[];

export const MAX_CODE_POINT = 0x10ffff;
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
/** Every code point. */
export const ANY: Ranges = [[0, MAX_CODE_POINT]];

export function normalizeRanges(list: readonly (readonly [number, number])[]): Ranges {
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(r: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(r)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const cp = (c: string): number => c.codePointAt(0) as number;
const single = (c: number): CharsAtom => ({ chars: [[c, c]], sample: c });

const CLASS_ESCAPES: Readonly<Record<string, CharsAtom>> = {
  d: { chars: DIGIT, sample: cp("0") },
  D: { chars: complement(DIGIT), sample: undefined },
  w: { chars: WORD, sample: cp("a") },
  W: { chars: complement(WORD), sample: undefined },
  s: { chars: SPACE, sample: cp(" ") },
  S: { chars: complement(SPACE), sample: undefined },
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c };

class Unsupported extends Error {}

/** A recursive-descent reader over the pattern's code points. */
class Reader {
  private i = 0;
  private readonly cps: number[];
  constructor(source: string) {
    this.cps = [...source].map(cp);
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
  alternatives(): PatternSeq[] {
    const alts: PatternSeq[] = [this.sequence()];
    while (this.peek() === "|") {
      this.next();
      alts.push(this.sequence());
    }
    return alts;
  }
  private sequence(): PatternTerm[] {
    const terms: PatternTerm[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      if (c === "^" || c === "$") {
        this.next();
        terms.push({ anchor: c });
        continue;
      }
      const atom = this.atom();
      terms.push({ atom, ...this.quantifier() });
    }
    return terms;
  }
  private atom(): QuantifiedTerm["atom"] {
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
    if (c === "[") return this.charClass();
    if (c === ".") return { chars: complement(LINE_ENDS), sample: cp("a") };
    if (c === "\\") return this.escape(false);
    if ("*+?{}]".includes(c)) throw new Unsupported("quantifier without an atom");
    return single(cp(c));
  }
  private escape(inClass: boolean): CharsAtom {
    const c = this.next();
    const set = CLASS_ESCAPES[c];
    if (set) return set;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return single(control);
    if (inClass && c === "-") return single(0x2d);
    const hex = c === "x" ? this.hex(/^[0-9a-fA-F]{2}/) : c === "u" ? this.hex(/^\{([0-9a-fA-F]{1,6})\}|^[0-9a-fA-F]{4}/) : undefined;
    if (hex !== undefined) return single(hex);
    if (/^[\^$\\.*+?()[\]{}|/]$/.test(c)) return single(cp(c));
    throw new Unsupported(`escape \\${c}`);
  }
  /** The code point of a `\x` or `\u` escape's digits, read past. */
  private hex(digits: RegExp): number {
    const m = digits.exec(String.fromCodePoint(...this.cps.slice(this.i, this.i + 8)));
    const value = m === null ? NaN : parseInt(m[1] ?? m[0], 16);
    if (m === null || value > MAX_CODE_POINT) throw new Unsupported("escape digits");
    this.i += m[0].length;
    return value;
  }
  private charClass(): CharsAtom {
    let negated = false;
    if (this.peek() === "^") {
      this.next();
      negated = true;
    }
    const ranges: (readonly [number, number])[] = [];
    let sample: number | undefined;
    for (let first = true; this.peek() !== "]"; first = false) {
      const lo = this.classAtom();
      if (this.peek() === "-" && this.cps[this.i + 1] !== 0x5d) {
        this.next();
        const hi = this.classAtom();
        const [from, to] = [lo.chars[0], hi.chars[0]];
        if (lo.chars.length !== 1 || hi.chars.length !== 1 || from?.[0] !== from?.[1] || to?.[0] !== to?.[1]) throw new Unsupported("class range of classes");
        ranges.push([from?.[0] as number, to?.[0] as number]);
      } else ranges.push(...lo.chars);
      if (first) sample = lo.sample;
    }
    this.next();
    const set = normalizeRanges(ranges);
    return negated ? { chars: complement(set), sample: undefined } : { chars: set, sample };
  }
  private classAtom(): CharsAtom {
    const c = this.next();
    if (c === "\\") return this.escape(true);
    return single(cp(c));
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
    if (this.peek() === "?") this.next(); // lazy: the same strings
    const after = this.peek();
    if (after !== undefined && "*+?{".includes(after)) throw new Unsupported("stacked quantifiers");
    return q;
  }
}

/** The pattern's top-level alternatives as written (anchors where they stand), or undefined when it is outside the subset read. */
export function parsePattern(source: string): PatternSeq[] | undefined {
  try {
    const reader = new Reader(source);
    const alts = reader.alternatives();
    return reader.done() ? alts : undefined;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

function sequenceMinLength(seq: PatternSeq): number {
  return seq.reduce((n, t) => ("anchor" in t ? n : n + t.min * ("group" in t.atom ? Math.min(...t.atom.group.map(sequenceMinLength)) : 1)), 0);
}

/** The length of the shortest string the pattern matches (0 when it is not read): what normalize checks `maxLength` against, and the diff `minLength`. */
export function patternMinLength(source: string): number {
  const alts = parsePattern(source);
  return alts === undefined ? 0 : Math.min(...alts.map(sequenceMinLength));
}
