/**
 * A sample string for the simple `pattern`s contracts use (`^ord_[A-Za-z0-9]+$`,
 * `^[A-Z]{3}$`): literals, escapes, classes, groups with alternatives and
 * quantifiers, each taken at its smallest. Anything else gives undefined, and
 * the caller verifies the sample with the real regex anyway.
 */

const CLASS_ESCAPES: Readonly<Record<string, string>> = { d: "0", w: "a", s: " " };

interface Parser {
  readonly source: string;
  pos: number;
}

class Unsupported extends Error {}

/** The first character a `[...]` class allows. */
function parseClass(p: Parser): string {
  p.pos++; // [
  if (p.source[p.pos] === "^") throw new Unsupported();
  const ch = p.source[p.pos];
  let first: string;
  if (ch === "\\") {
    const escaped = p.source[p.pos + 1];
    first = CLASS_ESCAPES[escaped] ?? escaped;
  } else first = ch;
  const end = p.source.indexOf("]", p.pos + 1);
  if (end < 0 || first === undefined) throw new Unsupported();
  p.pos = end + 1;
  return first;
}

function parseAtom(p: Parser): string {
  const ch = p.source[p.pos];
  if (ch === "[") return parseClass(p);
  if (ch === "(") {
    p.pos++;
    if (p.source.startsWith("?:", p.pos)) p.pos += 2;
    else if (p.source[p.pos] === "?") throw new Unsupported();
    const inner = parseAlternatives(p);
    if (p.source[p.pos] !== ")") throw new Unsupported();
    p.pos++;
    return inner;
  }
  if (ch === "\\") {
    const escaped = p.source[p.pos + 1];
    p.pos += 2;
    if (escaped === undefined) throw new Unsupported();
    if (CLASS_ESCAPES[escaped] !== undefined) return CLASS_ESCAPES[escaped];
    if (/[A-Za-z0-9]/.test(escaped)) throw new Unsupported();
    return escaped;
  }
  if (ch === ".") {
    p.pos++;
    return "a";
  }
  if (ch === undefined || "*+?{}|)^$".includes(ch)) throw new Unsupported();
  p.pos++;
  return ch;
}

/** The smallest repeat count of the quantifier at the cursor (1 when there is none). */
function parseQuantifier(p: Parser): number {
  const ch = p.source[p.pos];
  let count = 1;
  if (ch === "*" || ch === "?") {
    count = 0;
    p.pos++;
  } else if (ch === "+") p.pos++;
  else if (ch === "{") {
    const match = /^\{(\d+)(,\d*)?\}/.exec(p.source.slice(p.pos));
    if (!match) throw new Unsupported();
    count = Number(match[1]);
    p.pos += match[0].length;
  }
  if (p.source[p.pos] === "?") p.pos++; // lazy: same smallest count
  return count;
}

function parseSequence(p: Parser): string {
  let out = "";
  while (p.pos < p.source.length && p.source[p.pos] !== "|" && p.source[p.pos] !== ")") {
    if (p.source[p.pos] === "^" || p.source[p.pos] === "$") {
      p.pos++;
      continue;
    }
    const atom = parseAtom(p);
    out += atom.repeat(parseQuantifier(p));
  }
  return out;
}

function parseAlternatives(p: Parser): string {
  const first = parseSequence(p);
  while (p.source[p.pos] === "|") {
    p.pos++;
    parseSequence(p);
  }
  return first;
}

/** A string matching `pattern` with at least `minLength` characters, or undefined. */
export function samplePattern(pattern: string, minLength = 0): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  const anchored = pattern.startsWith("^") && pattern.endsWith("$");
  try {
    const p: Parser = { source: pattern, pos: 0 };
    let sample = parseAlternatives(p);
    if (p.pos !== pattern.length) return undefined;
    // An unanchored pattern matches anywhere, so padding cannot break it.
    if (!anchored && sample.length < minLength) sample += "a".repeat(minLength - sample.length);
    return regex.test(sample) && [...sample].length >= minLength ? sample : undefined;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}
