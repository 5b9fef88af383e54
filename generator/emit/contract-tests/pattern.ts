/**
 * A sample string for the simple `pattern`s contracts use (`^ord_[A-Za-z0-9]+$`,
 * `^[A-Z]{3}$`), on the one reading of patterns (schema/pattern.ts): each
 * quantifier at its smallest count, a group's first alternative, a class's
 * first member as written. A pattern outside what is read, or with a set that
 * has no obvious sample (`[^a]`, `\D`), gives undefined, and the caller
 * verifies the sample with the real regex anyway.
 */
import { parsePattern, type PatternSeq } from "../../schema/pattern.js";

/** The smallest string the sequence matches, taking the first alternative and each set's sample; undefined when a set has none. */
function sequenceSample(seq: PatternSeq): string | undefined {
  let out = "";
  for (const term of seq) {
    if ("anchor" in term) continue;
    const { atom } = term;
    const unit = "group" in atom ? sequenceSample(atom.group[0] ?? []) : atom.sample === undefined ? undefined : String.fromCodePoint(atom.sample);
    if (unit === undefined) return undefined;
    out += unit.repeat(term.min);
  }
  return out;
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
  const alternatives = parsePattern(pattern);
  let sample = alternatives === undefined ? undefined : sequenceSample(alternatives[0] ?? []);
  if (sample === undefined) return undefined;
  // An unanchored pattern matches anywhere, so padding cannot break it.
  if (!anchored && sample.length < minLength) sample += "a".repeat(minLength - sample.length);
  return regex.test(sample) && [...sample].length >= minLength ? sample : undefined;
}
