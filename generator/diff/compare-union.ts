/**
 * Unions and enumerations. A node that enumerates (enum, const, a "titled
 * enum" of const branches, or only null and booleans) is compared as the set
 * of values it allows, each checked with the real validator, so `type`
 * beside `enum` counts. A kind with several alternatives (union branches of
 * one JSON type) is compared alternative by alternative: the same ones match,
 * discriminated ones pair by their discriminator and decide exactly, and
 * whatever another alternative may cover is searched for a witness and left
 * undecided without one. `oneOf` refuses a value that matches two branches,
 * so a change between `oneOf` and `anyOf` over branches that may overlap is
 * a change of its own.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonValue } from "../ir.js";
import { fewValues } from "./keywords.js";
import type { Piece, SchemaSide } from "./nodes.js";
import { NARROWS, WIDENS, type Level, type Levels } from "./rules.js";
import { canonicalPieces, decide, probe, record, show, worstIn, type NodePair, type Walk } from "./walk.js";
import { finiteValues, longest, shapeOf, type Kind, type ObjectPart, type Part, type Shape, type ValueAt } from "./shape.js";
import { accepts, type Direction } from "./validate.js";

const MAX_VALUE_FINDINGS = 20;

/** Every value a shape allows, when it allows few: enumerated, null and booleans, or a short run of integers. */
function enumerable(shape: Shape): readonly ValueAt[] | undefined {
  const finite = finiteValues(shape);
  if (finite !== undefined) return finite;
  const parts = shape.kinds.get("number");
  if (shape.kinds.size !== 1 || parts?.length !== 1 || parts[0]?.kind !== "number") return undefined;
  const part = parts[0];
  return fewValues(part)?.map((value) => ({ value, at: part.lower?.at ?? part.at, keyword: part.lower?.keyword ?? [] }));
}

function distinct(values: readonly ValueAt[]): ValueAt[] {
  const out: ValueAt[] = [];
  for (const v of values) if (!out.some((o) => isDeepStrictEqual(o.value, v.value))) out.push(v);
  return out;
}

export function compareValueSets(walk: Walk, pair: NodePair, b: Shape, h: Shape): void {
  const bList = enumerable(b);
  const hList = enumerable(h);
  const list = (values: readonly ValueAt[]) =>
    `[${values
      .slice(0, 8)
      .map((v) => show(v.value))
      .join(", ")}${values.length > 8 ? ", …" : ""}]`;
  // Input: each value a base caller may send, asked of the head.
  if (bList !== undefined) {
    const sent = distinct(bList).filter((v) => accepts(walk.base, pair.b, "input", v.value) === true);
    const refused = sent.filter((v) => accepts(walk.head, pair.h, "input", v.value) === false);
    for (const v of refused.slice(0, MAX_VALUE_FINDINGS))
      record(walk, v.at, { rule: "enum-value-removed", levels: NARROWS, message: `value ${show(v.value)} removed` }, v.keyword);
  } else if (hList !== undefined) {
    const change = decide(walk, pair, {
      rule: "enum-value-removed",
      levels: { input: "undecided", output: null },
      message: `now restricted to ${list(hList)}`,
    });
    if (change.levels.input === "breaking") record(walk, h.at, change, h.values?.[0]?.keyword.slice(0, 1) ?? []);
    else
      record(
        walk,
        h.at,
        { ...change, message: `${change.message}; toolc found no value the base allowed outside it` },
        h.values?.[0]?.keyword.slice(0, 1) ?? [],
      );
  }
  // Output: each value the head may return, asked of a base client.
  if (hList !== undefined) {
    const returned = distinct(hList).filter((v) => accepts(walk.head, pair.h, "output", v.value) === true);
    const refused = returned.filter((v) => accepts(walk.base, pair.b, "output", v.value, true) === false);
    for (const v of refused.slice(0, MAX_VALUE_FINDINGS))
      record(walk, v.at, { rule: "enum-value-added", levels: WIDENS, message: `value ${show(v.value)} added` }, v.keyword);
  } else if (bList !== undefined) {
    const change = decide(walk, pair, {
      rule: "enum-value-added",
      levels: { input: null, output: "undecided" },
      message: `no longer restricted to ${list(bList)}`,
    });
    record(
      walk,
      h.at,
      change.levels.output === "breaking" ? change : { ...change, message: `${change.message}; toolc found no value outside it that the head allows` },
    );
  }
}

interface AltSide {
  readonly parts: readonly Part[];
  /** A `oneOf` over alternatives that may overlap: a value matching two is refused. */
  readonly exclusive: boolean;
  readonly at: Shape["at"];
}

/** A part's meaning, to match the same alternative across sides. */
function partKey(part: Part, side: SchemaSide): string {
  const pieces = (list: readonly Piece[] | false) =>
    list === false ? "false" : canonicalPieces(list.length === 0 ? [{ schema: true, at: part.at, drop: false }] : list, side);
  switch (part.kind) {
    case "number":
      return show(["number", part.step?.value, part.lower?.value, part.lower?.exclusive, part.upper?.value, part.upper?.exclusive]);
    case "string":
      return show(["string", part.minLength?.value, part.maxLength?.value, part.patterns.map((p) => p.value).sort(), part.formats.map((f) => f.value).sort()]);
    case "array":
      return show(["array", part.prefix.map(pieces), pieces(part.items), part.minItems?.value, longest(part), part.unique?.value]);
    case "object":
      return show([
        "object",
        [...part.properties].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, e]) => [n, pieces(e.pieces), e.defaulted]),
        [...part.required.keys()].sort(),
        pieces(part.additional),
        pieces(part.propertyNames),
        part.minProperties?.value,
        part.maxProperties?.value,
      ]);
    default:
      return part.kind;
  }
}

/** The values a required property of an object alternative may take, when finitely many: its discriminator. */
function discriminatorValues(part: ObjectPart, name: string, side: SchemaSide): readonly JsonValue[] | undefined {
  const entry = part.properties.get(name);
  if (!entry || !part.required.has(name)) return undefined;
  const values = finiteValues(shapeOf(entry.pieces, side));
  return values?.map((v) => v.value).filter((v) => accepts(side, entry.pieces, "output", v) !== false);
}

const overlapping = (x: readonly JsonValue[], y: readonly JsonValue[]): boolean => x.some((v) => y.some((w) => isDeepStrictEqual(v, w)));

/** Whether no value can match both alternatives (of one side, or one from each); false when that is not shown. */
function disjoint(x: Part, y: Part, side: SchemaSide, ySide: SchemaSide = side): boolean {
  if (x.kind === "number" && y.kind === "number")
    return (
      (x.upper !== undefined && y.lower !== undefined && x.upper.value < y.lower.value) ||
      (y.upper !== undefined && x.lower !== undefined && y.upper.value < x.lower.value)
    );
  if (x.kind === "string" && y.kind === "string")
    return (x.maxLength?.value ?? Infinity) < (y.minLength?.value ?? 0) || (y.maxLength?.value ?? Infinity) < (x.minLength?.value ?? 0);
  if (x.kind === "array" && y.kind === "array") return longest(x) < (y.minItems?.value ?? 0) || longest(y) < (x.minItems?.value ?? 0);
  if (x.kind !== "object" || y.kind !== "object") return false;
  const excludes = (a: ObjectPart, c: ObjectPart) => c.additional === false && [...a.required.keys()].some((n) => !c.properties.has(n));
  if (excludes(x, y) || excludes(y, x)) return true;
  return [...x.required.keys()].some((name) => {
    const a = discriminatorValues(x, name, side);
    const c = a === undefined ? undefined : discriminatorValues(y, name, ySide);
    return a !== undefined && c !== undefined && !overlapping(a, c);
  });
}

const allDisjoint = (parts: readonly Part[], side: SchemaSide): boolean => parts.every((x, i) => parts.every((y, j) => i >= j || disjoint(x, y, side)));

/**
 * Leftover alternatives paired across sides. A base alternative that every
 * head alternative but one is shown disjoint from can only be accepted by
 * that one, and the other way round: such a pair is compared exactly. The
 * rest pair in order, and what their comparison finds is settled against the
 * whole union.
 */
function pairAlternatives(
  walk: Walk,
  b: AltSide,
  h: AltSide,
  bLeft: readonly number[],
  hLeft: readonly number[],
): { pairs: [number, number, boolean][]; alone: { b: Map<number, boolean>; h: Map<number, boolean> } } {
  const overlapH = new Map(
    bLeft.map((i) => [i, h.parts.map((_, j) => j).filter((j) => !disjoint(b.parts[i] as Part, h.parts[j] as Part, walk.base, walk.head))]),
  );
  const overlapB = new Map(
    hLeft.map((j) => [j, b.parts.map((_, i) => i).filter((i) => !disjoint(b.parts[i] as Part, h.parts[j] as Part, walk.base, walk.head))]),
  );
  const pairs: [number, number, boolean][] = [];
  const usedB = new Set<number>();
  const usedH = new Set<number>();
  for (const i of bLeft) {
    const only = overlapH.get(i);
    const j = only?.length === 1 ? (only[0] as number) : undefined;
    if (j === undefined || !hLeft.includes(j) || overlapB.get(j)?.length !== 1) continue;
    pairs.push([i, j, true]);
    usedB.add(i);
    usedH.add(j);
  }
  const restB = bLeft.filter((i) => !usedB.has(i) && (overlapH.get(i)?.length ?? 0) > 0);
  const restH = hLeft.filter((j) => !usedH.has(j) && (overlapB.get(j)?.length ?? 0) > 0);
  for (let n = 0; n < Math.min(restB.length, restH.length); n++) {
    pairs.push([restB[n] as number, restH[n] as number, false]);
    usedB.add(restB[n] as number);
    usedH.add(restH[n] as number);
  }
  // Alone: true when it overlaps nothing on the other side, so its removal or addition is exact.
  const alone = {
    b: new Map(bLeft.filter((i) => !usedB.has(i)).map((i) => [i, (overlapH.get(i)?.length ?? 0) === 0])),
    h: new Map(hLeft.filter((j) => !usedH.has(j)).map((j) => [j, (overlapB.get(j)?.length ?? 0) === 0])),
  };
  return { pairs, alone };
}

function demote(levels: Levels, direction: Direction, to: Level): Levels {
  const level = levels[direction];
  return level === "breaking" || level === "undecided" ? { ...levels, [direction]: to } : levels;
}

function covered(walk: Walk, pair: NodePair, x: Part, others: readonly Part[], direction: Direction): boolean {
  return others.some((y) => {
    const found = probe(walk, (scratch) => (direction === "input" ? scratch.compareParts(scratch, pair, x, y) : scratch.compareParts(scratch, pair, y, x)));
    const worst = worstIn(found, direction);
    return worst === null || worst === "info" || worst === "warning";
  });
}

export function compareAlternatives(walk: Walk, pair: NodePair, kind: Kind, b: AltSide, h: AltSide): void {
  const bDisjoint = allDisjoint(b.parts, walk.base);
  const hDisjoint = allDisjoint(h.parts, walk.head);
  if (b.parts.length === 1 && h.parts.length === 1) return walk.compareParts(walk, pair, b.parts[0] as Part, h.parts[0] as Part);
  const hKeys = h.parts.map((p) => partKey(p, walk.head));
  const hLeft = h.parts.map((_, j) => j);
  const bLeft: number[] = [];
  b.parts.forEach((p, i) => {
    const at = hLeft.findIndex((j) => hKeys[j] === partKey(p, walk.base));
    if (at >= 0) hLeft.splice(at, 1);
    else bLeft.push(i);
  });
  compareExclusivity(walk, pair, kind, b, h, bDisjoint, hDisjoint, hLeft.length > 0);
  if (bLeft.length === 0 && hLeft.length === 0) return;
  const from = walk.out.length;
  const { pairs, alone } = pairAlternatives(walk, b, h, bLeft, hLeft);
  for (const [i, j, exact] of pairs) {
    const x = b.parts[i] as Part;
    const y = h.parts[j] as Part;
    let found = probe(walk, (scratch) => scratch.compareParts(scratch, pair, x, y));
    if (!exact) {
      const inputCovered = covered(walk, pair, x, h.parts, "input");
      const outputCovered = covered(walk, pair, y, b.parts, "output");
      found = found.map((f) => ({
        ...f,
        levels: demote(demote(f.levels, "input", inputCovered ? "info" : "undecided"), "output", outputCovered ? "info" : "undecided"),
      }));
    }
    walk.out.push(...found);
  }
  for (const [i, exact] of alone.b) {
    const x = b.parts[i] as Part;
    const input: Level = exact ? "breaking" : covered(walk, pair, x, h.parts, "input") ? "info" : "undecided";
    record(walk, x.at, { rule: "branch-removed", levels: { input, output: "info" }, message: `a ${kind} alternative (union branch) removed` });
  }
  for (const [j, exact] of alone.h) {
    const y = h.parts[j] as Part;
    const output: Level = exact ? "breaking" : covered(walk, pair, y, b.parts, "output") ? "info" : "undecided";
    record(walk, y.at, { rule: "branch-added", levels: { input: "info", output }, message: `a ${kind} alternative (union branch) added` });
  }
  settleUndecided(walk, pair, from);
}

/**
 * Undecided findings of a union, settled once for the node: a witness makes
 * the first of them in its direction breaking, and says so.
 */
function settleUndecided(walk: Walk, pair: NodePair, from: number): void {
  for (const direction of ["input", "output"] as const) {
    const index = walk.out.findIndex((f, k) => k >= from && f.levels[direction] === "undecided");
    if (index < 0) continue;
    const finding = walk.out[index] as (typeof walk.out)[number];
    const decided = decide(walk, pair, { rule: finding.rule, levels: finding.levels, message: finding.message });
    if (decided.levels[direction] !== "breaking") continue;
    walk.out[index] = { ...finding, levels: decided.levels, message: decided.message };
  }
}

/** `oneOf` and `anyOf` differ only on values that match two branches. */
function compareExclusivity(walk: Walk, pair: NodePair, kind: Kind, b: AltSide, h: AltSide, bDisjoint: boolean, hDisjoint: boolean, added: boolean): void {
  const bRefusesOverlap = b.exclusive && !bDisjoint;
  const hRefusesOverlap = h.exclusive && !hDisjoint;
  if (bRefusesOverlap === hRefusesOverlap && (!added || !hRefusesOverlap)) return;
  if (hRefusesOverlap && (bRefusesOverlap || added)) {
    // When the base refused overlaps too, a changed branch can also release a value that matched two branches and now matches one: output may widen.
    const message = bRefusesOverlap
      ? `a branch of a \`oneOf\` whose ${kind} branches may overlap changed: a value matching two of them is refused, so a value may now match two branches, or only one where it matched two`
      : `a \`oneOf\` now has ${kind} branches that may overlap: a value matching two of them is refused`;
    const change = decide(walk, pair, {
      rule: "branch-added-may-overlap",
      levels: { input: "undecided", output: bRefusesOverlap ? "undecided" : null },
      message,
    });
    return record(walk, h.at, change, ["oneOf"]);
  }
  if (bRefusesOverlap) {
    const change = decide(walk, pair, {
      rule: "oneof-to-anyof",
      levels: { input: "info", output: "undecided" },
      message: `values matching two ${kind} branches of the base's \`oneOf\` were refused and are now accepted (\`oneOf\` → \`anyOf\`, or branches that no longer overlap)`,
    });
    return record(walk, h.at, change, ["anyOf"]);
  }
  const change = decide(walk, pair, {
    rule: "anyof-to-oneof",
    levels: { input: "undecided", output: "info" },
    message: `\`anyOf\` → \`oneOf\` over ${kind} branches that may overlap: a value matching two of them is now refused`,
  });
  record(walk, h.at, change, ["oneOf"]);
}
