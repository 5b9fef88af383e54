/**
 * Numbers and strings, compared on their normal form (shape.ts): bounds
 * moved onto the lattice of allowed multiples, so equivalent bounds are no
 * change; multipleOf decided exactly on the written decimals; lengths;
 * formats; and patterns, where one that generalizes another is read from the
 * patterns' structure (patterns.ts) and a narrowing is shown by a witness.
 */
import { isMultipleOf } from "../runtime/multiple.js";
import { countSteps, stepFrom } from "../schema/decimal.js";
import { impliedLengths } from "../normalize/format-lengths.js";
import { patternMinLength } from "../schema/pattern.js";
import { patternIncluded } from "./patterns.js";
import { decide, record, show, type NodePair, type Walk } from "./walk.js";
import { NARROWS, WIDENS, type Levels } from "./rules.js";
import type { At, Bound, NumberPart, StringPart } from "./shape.js";

function boundText(b: Bound | undefined, lower: boolean): string {
  if (b === undefined) return "(none)";
  return `${lower ? (b.exclusive ? ">" : "≥") : b.exclusive ? "<" : "≤"} ${b.value}`;
}

/** Whether bound `a` allows less than bound `b` (undefined is no bound). */
function tighter(a: Bound | undefined, b: Bound | undefined, lower: boolean): boolean {
  if (a === undefined) return false;
  if (b === undefined) return true;
  if (a.value !== b.value) return lower ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

function compareBound(walk: Walk, b: NumberPart, h: NumberPart, lower: boolean): void {
  const bb = lower ? b.lower : b.upper;
  const hb = lower ? h.lower : h.upper;
  if (!tighter(hb, bb, lower) && !tighter(bb, hb, lower)) return;
  const name = lower ? "minimum" : "maximum";
  const message = `${name} ${boundText(bb, lower)} → ${boundText(hb, lower)}`;
  const cursor = hb?.at ?? h.at;
  const keyword = hb?.keyword ?? [];
  record(
    walk,
    cursor,
    tighter(hb, bb, lower) ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message },
    keyword,
  );
}

/** The values of a number part when there are few of them (a bounded lattice), for an exact check. */
export function fewValues(p: NumberPart): number[] | undefined {
  // One number, whatever the step: both bounds on it.
  if (p.lower !== undefined && p.upper !== undefined && p.lower.value === p.upper.value && !p.lower.exclusive && !p.upper.exclusive) {
    return p.step === undefined || isMultipleOf(p.lower.value, p.step.value) ? [p.lower.value] : [];
  }
  const step = p.step?.value;
  if (step === undefined || p.lower === undefined || p.upper === undefined) return undefined;
  const n = countSteps(p.lower.value, p.upper.value, step, 64);
  if (n === undefined) return undefined;
  const low = p.lower.value;
  return Array.from({ length: n }, (_, k) => stepFrom(low, step, k) as number);
}

function inPart(p: NumberPart, v: number): boolean {
  const lowOk = p.lower === undefined || (p.lower.exclusive ? v > p.lower.value : v >= p.lower.value);
  const highOk = p.upper === undefined || (p.upper.exclusive ? v < p.upper.value : v <= p.upper.value);
  return lowOk && highOk && (p.step === undefined || isMultipleOf(v, p.step.value));
}

const stepText = (p: NumberPart): string =>
  p.step === undefined ? "any number" : p.integer && p.step.value === 1 ? "integers" : `multiples of ${p.step.value}`;

export function compareNumberParts(walk: Walk, _pair: NodePair, b: NumberPart, h: NumberPart): void {
  const bFew = fewValues(b);
  const hFew = fewValues(h);
  if (bFew !== undefined || hFew !== undefined) {
    // Few values on a side: decide that direction by checking each one.
    const input = bFew === undefined ? undefined : bFew.filter((v) => !inPart(h, v));
    const output = hFew === undefined ? undefined : hFew.filter((v) => !inPart(b, v));
    if (input !== undefined && output !== undefined) {
      if (input.length === 0 && output.length === 0) return;
      const levels: Levels = { input: input.length > 0 ? "breaking" : "info", output: output.length > 0 ? "breaking" : "info" };
      const lost = input.length > 0 ? `; ${input.slice(0, 3).map(show).join(", ")} no longer allowed` : "";
      const gained = output.length > 0 ? `; ${output.slice(0, 3).map(show).join(", ")} now allowed` : "";
      record(
        walk,
        h.lower?.at ?? h.at,
        { rule: input.length > 0 ? "bound-tightened" : "bound-loosened", levels, message: `allowed values changed${lost}${gained}` },
        h.lower?.keyword ?? [],
      );
      return;
    }
  }
  compareStep(walk, b, h);
  compareBound(walk, b, h, true);
  compareBound(walk, b, h, false);
}

function compareStep(walk: Walk, b: NumberPart, h: NumberPart): void {
  const bs = b.step?.value;
  const hs = h.step?.value;
  if (bs === hs) return;
  const message = `${stepText(b)} → ${stepText(h)}`;
  const cursor = h.step?.at ?? h.at;
  const keyword = h.step?.keyword ?? b.step?.keyword ?? [];
  const widens = hs === undefined || (bs !== undefined && isMultipleOf(bs, hs));
  const narrows = bs === undefined || (hs !== undefined && isMultipleOf(hs, bs));
  const typeChange = b.integer !== h.integer;
  if (widens) record(walk, cursor, { rule: typeChange ? "type-widened" : "bound-loosened", levels: WIDENS, message }, typeChange ? ["type"] : keyword);
  else if (narrows) record(walk, cursor, { rule: typeChange ? "type-narrowed" : "bound-tightened", levels: NARROWS, message }, typeChange ? ["type"] : keyword);
  else
    record(
      walk,
      cursor,
      { rule: "bound-tightened", levels: { input: "breaking", output: "breaking" }, message: `${message}: neither is a multiple of the other` },
      keyword,
    );
}

/** A length bound as written, or the keyword that implies it when none is (`15 (by format)`). */
function lengthText(bound: At<number> | undefined, key: string): string {
  if (bound === undefined) return "(none)";
  const by = bound.keyword[0];
  return by === undefined || by === key ? String(bound.value) : `${bound.value} (by ${by})`;
}

function compareLength(
  walk: Walk,
  key: "minLength" | "maxLength",
  b: At<number> | undefined,
  h: At<number> | undefined,
  hAt: StringPart["at"],
  bValue = b?.value,
  hValue = h?.value,
): void {
  if (bValue === hValue) return;
  const lower = key === "minLength";
  const tightened = hValue !== undefined && (bValue === undefined || (lower ? hValue > bValue : hValue < bValue));
  const message = `${key} ${lengthText(b, key)} → ${lengthText(h, key)}`;
  record(walk, h?.at ?? hAt, tightened ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message }, [key]);
}

/** Formats whose strings are all strings of another format. */
const FORMAT_INCLUDED: Readonly<Record<string, readonly string[]>> = { uri: ["uri-reference"] };

function formatCovers(outer: readonly string[], inner: readonly string[]): boolean {
  return outer.every((f) => inner.includes(f) || inner.some((i) => FORMAT_INCLUDED[i]?.includes(f)));
}

/**
 * A length bound as it acts: a pattern that matches only longer strings, or a
 * format whose strings all have a length (normalize/format-lengths.ts: every
 * uuid is 36 characters), already says more than a weaker `minLength` or
 * `maxLength`, and as much as an equal one. The written keyword wins a tie,
 * so a change is located where it is written.
 */
function effectiveLength(p: StringPart, key: "minLength" | "maxLength"): At<number> | undefined {
  const written = p[key];
  const formats = impliedLengths(p.formats.map((f) => f.value));
  const implied: At<number>[] = [];
  if (key === "minLength") {
    const fromPattern = Math.max(0, ...p.patterns.map((x) => patternMinLength(x.value)));
    if (fromPattern > 0) implied.push({ value: fromPattern, at: p.patterns[0]?.at ?? p.at, keyword: ["pattern"] });
    if (formats.min > 0) implied.push({ value: formats.min, at: p.formats[0]?.at ?? p.at, keyword: ["format"] });
  } else if (formats.max < Infinity) implied.push({ value: formats.max, at: p.formats[0]?.at ?? p.at, keyword: ["format"] });
  const tighter = (a: At<number>, b: At<number>) => (key === "minLength" ? a.value > b.value : a.value < b.value);
  return implied.reduce<At<number> | undefined>((best, x) => (best === undefined || tighter(x, best) ? x : best), written);
}

export function compareStringParts(walk: Walk, pair: NodePair, b: StringPart, h: StringPart): void {
  // Reported when the keyword itself changed and that changes what is allowed; a change of pattern or format is reported as one.
  for (const key of ["minLength", "maxLength"] as const) {
    const [bEffective, hEffective] = [effectiveLength(b, key), effectiveLength(h, key)];
    if (b[key]?.value !== h[key]?.value && bEffective?.value !== hEffective?.value)
      compareLength(walk, key, b[key] ?? bEffective, h[key] ?? hEffective, h.at, bEffective?.value, hEffective?.value);
  }
  compareFormats(walk, pair, b, h);
  comparePatterns(walk, pair, b, h);
}

function compareFormats(walk: Walk, pair: NodePair, b: StringPart, h: StringPart): void {
  const bf = b.formats.map((f) => f.value);
  const hf = h.formats.map((f) => f.value);
  const inputOk = formatCovers(hf, bf);
  const outputOk = formatCovers(bf, hf);
  if (inputOk && outputOk) return;
  const message = `format ${bf.length === 0 ? "(none)" : bf.map(show).join(", ")} → ${hf.length === 0 ? "(none)" : hf.map(show).join(", ")}`;
  const levels: Levels = { input: inputOk ? "info" : "undecided", output: outputOk ? "info" : "undecided" };
  record(walk, h.formats[0]?.at ?? h.at, decide(walk, pair, { rule: "format-changed", levels, message }), ["format"]);
}

function comparePatterns(walk: Walk, pair: NodePair, b: StringPart, h: StringPart): void {
  const bp = b.patterns.map((p) => p.value);
  const hp = h.patterns.map((p) => p.value);
  // Every head pattern must hold for every base string (input); every base pattern for every head string (output).
  const covered = (from: readonly string[], to: readonly string[]) => to.every((t) => from.includes(t) || from.some((f) => patternIncluded(f, t) === true));
  const inputOk = covered(bp, hp);
  const outputOk = covered(hp, bp);
  if (inputOk && outputOk) return;
  const text = (list: readonly string[]) => (list.length === 0 ? "(none)" : list.map(show).join(", "));
  const message = `pattern ${text(bp)} → ${text(hp)}`;
  const levels: Levels = { input: inputOk ? "info" : "undecided", output: outputOk ? "info" : "undecided" };
  const unread = [...bp, ...hp].some((x) => patternIncluded(x, x) === undefined);
  const reason = unread
    ? "; toolc does not read one of the patterns (lookarounds, backreferences, Unicode properties)"
    : "; toolc found no string that shows it";
  const decided = { ...decide(walk, pair, { rule: "pattern-changed", levels, message }) };
  if (decided.levels.input === "undecided" || decided.levels.output === "undecided") decided.message += reason;
  const rule = bp.length === 0 ? "bound-tightened" : hp.length === 0 ? "bound-loosened" : inputOk ? "pattern-generalized" : "pattern-changed";
  const note =
    rule === "pattern-generalized"
      ? `${message}: every string the base pattern matches, the head's matches too${decided.message.slice(message.length)}`
      : decided.message;
  record(walk, h.patterns[0]?.at ?? b.patterns[0]?.at ?? h.at, { ...decided, rule, message: note }, ["pattern"]);
}
