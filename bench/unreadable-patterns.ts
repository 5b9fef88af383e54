/**
 * Patterns redos-detector's parser cannot read as written: named groups,
 * backreferences to them, inline modifiers. toolc used to treat a pattern the
 * checker threw on as safe, so these compiled, and a short near-match held
 * the event loop for seconds. Each row times the pattern on a near-match of
 * `length` characters and gives toolc's verdict on it now.
 *
 * Run alone: npx tsx bench/unreadable-patterns.ts [length]   (31 reproduces the attack input)
 */
import { patternProblem } from "../generator/normalize/patterns.js";
import { bestOf } from "./lib/measure.js";

interface Case {
  readonly pattern: string;
  /** A string of `length` characters that almost matches. */
  readonly nearMatch: (length: number) => string;
}

const CASES: readonly Case[] = [
  { pattern: "(?<word>[a-z0-9]+)+$", nearMatch: (n) => `${"a".repeat(n - 1)}!` },
  { pattern: "^(?<id>\\w+)*-$", nearMatch: (n) => "a".repeat(n) },
  { pattern: "^(?<a>a)(?:\\k<a>|a)+$", nearMatch: (n) => `${"a".repeat(n - 1)}b` },
];

export function benchUnreadablePatterns(length: number, print: (line: string) => void = console.log): void {
  print(`| pattern | ms to reject a ${length}-character near-match | toolc now |`);
  print("| --- | ---: | --- |");
  for (const c of CASES) {
    const re = new RegExp(c.pattern, "u");
    const input = c.nearMatch(length);
    const ms = bestOf(length > 27 ? 1 : 3, () => re.test(input));
    const problem = patternProblem(c.pattern);
    print(`| \`${c.pattern.replace(/\|/g, "\\|")}\` | ${ms.toFixed(1)} | ${problem === undefined ? "accepted" : "TC035"} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) benchUnreadablePatterns(Number(process.argv[2] ?? 25));
