/**
 * Compile-time checks that keep every shipped validator linear in its input.
 *
 * A `pattern` runs on a backtracking engine (RegExp), so a pattern in which
 * the same text can be matched in many ways (`^(a+)+$`, `\s+$`, `a+b`
 * unanchored) takes exponential or polynomial time on a crafted string, and
 * blocks the event loop for every caller. Such patterns are refused here, as
 * decided by redos-detector, which enumerates the ways a pattern can match
 * the same input; nothing here guesses from the pattern's text.
 *
 * Input strings and arrays with no upper bound are legal, but only the body
 * cap limits them, so they get a warning.
 */
import { isSafePattern, type RedosDetectorResult } from "redos-detector";
import { Codes, error, warning } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { forEachSchema } from "./schema-walk.js";

/** Patterns are checked once per process: the same id pattern recurs across many tools. */
const verdicts = new Map<string, string | undefined>();

/** The two sub-expressions that can match the same text, as redos-detector found them. */
function overlapOf(result: RedosDetectorResult): string {
  const step = result.trails[0]?.trail[0];
  if (step === undefined) return "";
  return ` (\`${step.a.node.source}\` and \`${step.b.node.source}\` can match the same characters)`;
}

/** Why `pattern` is unsafe, or undefined when it is safe or not a valid pattern (Ajv reports that one). */
export function patternProblem(pattern: string): string | undefined {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  let problem: string | undefined;
  try {
    new RegExp(pattern, "u");
    // Ajv compiles patterns with the "u" flag; redos-detector is told the same.
    const result = isSafePattern(pattern, { unicode: true, maxSteps: 20_000 });
    if (!result.safe) {
      problem =
        result.error === "hitMaxSteps" || result.error === "timedOut"
          ? "is too complex to prove it runs in linear time"
          : `can backtrack without bound${overlapOf(result)}, so a crafted string takes super-linear time to reject`;
    }
  } catch {
    problem = undefined;
  }
  verdicts.set(pattern, problem);
  return problem;
}

export function checkPatterns(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSchema(schema, root, (node, path) => {
    if (typeof node.pattern !== "string") return;
    const problem = patternProblem(node.pattern);
    if (problem === undefined) return;
    out.push(
      error(
        file.locate([...path, "pattern"]),
        Codes.unsafePattern,
        `pattern ${JSON.stringify(node.pattern)} ${problem}; rewrite it so each character can be matched only one way (e.g. \`^[a-z]+(?:-[a-z]+)*$\` rather than \`^([a-z]+-?)*$\`)`,
      ),
    );
  });
  return out;
}

function typesOf(node: JsonObject): readonly unknown[] {
  return Array.isArray(node.type) ? node.type : [node.type];
}

/**
 * Formats whose grammar bounds a valid string's length (runtime/formats.ts):
 * fixed-width (date, uuid), bounded by the grammar (ipv4, ipv6, hostname's
 * 253 characters), or open only in a fraction of a second's digits (time,
 * date-time), which the checker reads once. A `maxLength` would add nothing.
 */
export const BOUNDED_FORMATS: ReadonlySet<string> = new Set(["date", "time", "date-time", "uuid", "ipv4", "ipv6", "hostname"]);

/** What is unbounded about `node`, if anything: a string without maxLength or a bounding format, an array without maxItems. */
function unboundedKind(node: JsonObject): string | undefined {
  if ("enum" in node || "const" in node) return undefined;
  const types = typesOf(node);
  const boundedByFormat = typeof node.format === "string" && BOUNDED_FORMATS.has(node.format);
  if (types.includes("string") && node.maxLength === undefined && !boundedByFormat) return "a string with no `maxLength`";
  if (types.includes("array") && node.maxItems === undefined && !(Array.isArray(node.prefixItems) && node.items === false)) return "an array with no `maxItems`";
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
