/**
 * Compile-time checks that keep every shipped validator linear in its input.
 *
 * A `pattern` runs on a backtracking engine (RegExp), so a pattern in which
 * the same text can be matched in many ways (`^(a+)+$`, `\s+$`, `a+b`
 * unanchored) takes exponential or polynomial time on a crafted string, and
 * blocks the event loop for every caller. Such patterns are refused here, as
 * decided by redos-detector, which enumerates the ways a pattern can match
 * the same input; nothing here guesses from the pattern's text. The checker
 * runs in a worker thread, within a step budget per pattern
 * (redos-check.ts), so any pattern gets a verdict in bounded time and memory.
 *
 * Input strings and arrays with no upper bound are legal, but only the body
 * cap limits them, so they get a warning.
 */
import { Codes, error, warning } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { forEachSchema } from "../schema/walk.js";
import { FORMAT_LENGTHS } from "./format-lengths.js";
import { detect, hasBackreference, stepBudget } from "./redos-check.js";

/** Patterns are checked once per process: the same id pattern recurs across many tools. */
const verdicts = new Map<string, PatternProblem | undefined>();

/** Why a pattern is refused, and how to write it instead. */
export interface PatternProblem {
  readonly reason: string;
  readonly fix: string;
}

const ONE_WAY_FIX = "rewrite it so each character can be matched only one way (e.g. `^[a-z]+(?:-[a-z]+)*$` rather than `^([a-z]+-?)*$`)";

/** The two sub-expressions that can match the same text, as redos-detector found them. */
function overlapOf(overlap: readonly [string, string] | undefined): string {
  return overlap === undefined ? "" : ` (\`${overlap[0]}\` and \`${overlap[1]}\` can match the same characters)`;
}

/** Where a group opening at `open` ends its prefix, and its name when it is a named capturing group (`(?<name>`, not a lookbehind). */
function groupName(pattern: string, open: number): { name: string; end: number } | undefined {
  if (!pattern.startsWith("(?<", open) || pattern[open + 3] === "=" || pattern[open + 3] === "!") return undefined;
  const close = pattern.indexOf(">", open + 3);
  return close < 0 ? undefined : { name: pattern.slice(open + 3, close), end: close + 1 };
}

/**
 * `pattern` (valid with the "u" flag) with its named groups numbered:
 * `(?<name>…)` becomes `(…)`, the same capturing group with the same number,
 * and `\k<name>` becomes `(?:\N)`, a backreference to it. The text matched,
 * and every way of matching it, stay the same; redos-detector reads numbered
 * groups, not named ones. Undefined when a name is declared twice.
 */
export function withNumberedGroups(pattern: string): string | undefined {
  const numbers = new Map<string, number>();
  let count = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" && (pattern[i + 1] !== "?" || groupName(pattern, i) !== undefined)) {
      count++;
      const named = groupName(pattern, i);
      if (named !== undefined) {
        if (numbers.has(named.name)) return undefined;
        numbers.set(named.name, count);
      }
    }
  }
  if (numbers.size === 0) return pattern;
  let out = "";
  inClass = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i] as string;
    const named = !inClass && c === "(" ? groupName(pattern, i) : undefined;
    if (named !== undefined) {
      out += "(";
      i = named.end;
    } else if (c === "\\" && !inClass && pattern.startsWith("\\k<", i)) {
      const close = pattern.indexOf(">", i);
      const number = numbers.get(pattern.slice(i + 3, close));
      if (close < 0 || number === undefined) return undefined;
      out += `(?:\\${number})`;
      i = close + 1;
    } else if (c === "\\") {
      out += pattern.slice(i, i + 2);
      i += 2;
    } else {
      if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      out += c;
      i++;
    }
  }
  return out;
}

function isValidPattern(pattern: string): boolean {
  try {
    // Ajv compiles patterns with the "u" flag; redos-detector is told the same.
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * What redos-detector cannot read (inline modifiers such as `(?i:…)`, which
 * Node 24 accepts, or anything newer than its parser) cannot be proven safe,
 * so it is refused, never let through.
 */
function unreadable(
  detail: string,
  fix = "write it without inline modifiers (spell out both cases, `[Aa]`, rather than `(?i:a)`) or other constructs newer than the checker",
): PatternProblem {
  return {
    reason: `cannot be proven to run in linear time: the ReDoS checker cannot read it (${detail}), and toolc refuses a pattern it cannot prove safe`,
    fix,
  };
}

function detectorVerdict(pattern: string): PatternProblem | undefined {
  const numbered = withNumberedGroups(pattern);
  if (numbered === undefined) return unreadable("a group name is declared twice", "give each group a name of its own, or use unnamed groups `(?:…)`");
  const reply = detect(numbered);
  if (reply.kind === "unreadable") return unreadable(reply.message);
  if (reply.kind === "failed") return tooComplex(numbered, reply.message);
  if (reply.safe) return undefined;
  if (reply.error === "hitMaxSteps" || reply.error === "timedOut") return tooComplex(numbered, `it did not decide within ${stepBudget(numbered)} steps`);
  return { reason: `can backtrack without bound${overlapOf(reply.overlap)}, so a crafted string takes super-linear time to reject`, fix: ONE_WAY_FIX };
}

/** A pattern the checker could not decide within its budget (redos-check.ts): refused, since it is not proven safe. */
function tooComplex(pattern: string, why: string): PatternProblem {
  const backreference = hasBackreference(pattern);
  return {
    reason: `is too complex to prove it runs in linear time (the ReDoS checker gave up: ${why}${backreference ? "; a backreference is costly to check" : ""})`,
    fix: backreference ? `write it without the backreference (\`\\k<name>\` or \`\\1\`), or ${ONE_WAY_FIX}` : ONE_WAY_FIX,
  };
}

/** Why `pattern` is refused, or undefined when it is safe or not a valid pattern (Ajv reports that one). */
export function patternProblem(pattern: string): PatternProblem | undefined {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  const problem = isValidPattern(pattern) ? detectorVerdict(pattern) : undefined;
  verdicts.set(pattern, problem);
  return problem;
}

/** The TC035 message for a refused pattern. */
export function patternMessage(pattern: string, problem: PatternProblem): string {
  return `pattern ${JSON.stringify(pattern)} ${problem.reason}; ${problem.fix}`;
}

export function checkPatterns(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSchema(schema, root, (node, path) => {
    if (typeof node.pattern !== "string") return;
    const problem = patternProblem(node.pattern);
    if (problem === undefined) return;
    out.push(error(file.locate([...path, "pattern"]), Codes.unsafePattern, patternMessage(node.pattern, problem)));
  });
  return out;
}

function typesOf(node: JsonObject): readonly unknown[] {
  return Array.isArray(node.type) ? node.type : [node.type];
}

/**
 * Formats whose grammar bounds a valid string's length: those with a longest
 * string in format-lengths.ts (date, uuid, ipv4, ipv6, hostname), and time and
 * date-time, open only in a fraction of a second's digits, which the checker
 * reads once. A `maxLength` would add nothing.
 */
export const BOUNDED_FORMATS: ReadonlySet<string> = new Set([
  ...Object.entries(FORMAT_LENGTHS)
    .filter(([, lengths]) => Number.isFinite(lengths.max))
    .map(([format]) => format),
  "time",
  "date-time",
]);

/** What is unbounded about `node`, if anything: a string without maxLength or a bounding format, an array without maxItems. */
function unboundedKind(node: JsonObject): string | undefined {
  if ("enum" in node || "const" in node) return undefined;
  const types = typesOf(node);
  const boundedByFormat = typeof node.format === "string" && BOUNDED_FORMATS.has(node.format);
  if (types.includes("string") && node.maxLength === undefined && !boundedByFormat) return "a string with no `maxLength`";
  if (types.includes("array") && node.maxItems === undefined && !(Array.isArray(node.prefixItems) && node.items === false))
    return "an array with no `maxItems`";
  return undefined;
}

/** Warnings for input strings and arrays with no upper bound, written in the tool's own input (named types from types files, which output may share, are not linted). */
export function lintUnbounded(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSchema(schema, root, (node, path) => {
    const kind = unboundedKind(node);
    if (kind === undefined) return;
    const at = file.locate(path.length > 0 && node.type !== undefined ? [...path, "type"] : path);
    out.push(warning(at, Codes.unboundedInput, `input is ${kind}; only the request size limits it, so set an upper bound`));
  });
  return out;
}
