/**
 * Arrays, position by position. An array of length n is accepted when n is
 * within the lengths a part allows (its tuple's length when nothing may
 * follow) and each item matches the schema of its position: the tuple's
 * entry, or `items` after it. So `items` with minItems = maxItems = 1 and a
 * one-item tuple compare equal, and a tuple that grows or shrinks under
 * `items: false` is a change of lengths.
 */
import type { Piece } from "./nodes.js";
import { NARROWS, WIDENS } from "./rules.js";
import type { SchemaFinding } from "./nodes.js";
import { decide, record, type NodePair, type Walk } from "./walk.js";
import { longest, type ArrayPart } from "./shape.js";

/** The pieces an item at position i must match; an empty list is any value. */
function position(part: ArrayPart, i: number): readonly Piece[] | false {
  return i < part.prefix.length ? (part.prefix[i] as readonly Piece[]) : part.items;
}

const anyValue = (part: ArrayPart): Piece => ({ schema: true, at: part.itemsAt ?? part.at, drop: false });
const orAny = (list: readonly Piece[], part: ArrayPart): readonly Piece[] => (list.length === 0 ? [anyValue(part)] : list);

function lengthText(min: number, max: number): string {
  return max === Infinity ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
}

function compareLengths(walk: Walk, b: ArrayPart, h: ArrayPart): void {
  const [bMin, bMax, hMin, hMax] = [b.minItems?.value ?? 0, longest(b), h.minItems?.value ?? 0, longest(h)];
  const where = (p: ArrayPart, key: "minItems" | "maxItems") => (key === "minItems" ? p.minItems : p.maxItems);
  const message = `items ${lengthText(bMin, bMax)} → ${lengthText(hMin, hMax)}`;
  if (hMin !== bMin) {
    const at = where(h, "minItems");
    record(
      walk,
      at?.at ?? h.at,
      hMin > bMin ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message },
      at ? ["minItems"] : [],
    );
  }
  if (hMax !== bMax) {
    const at = where(h, "maxItems");
    const keyword = at ? ["maxItems"] : h.prefix.length > 0 || b.prefix.length > 0 ? ["prefixItems"] : [];
    record(
      walk,
      at?.at ?? h.at,
      hMax < bMax ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message },
      keyword,
    );
  }
}

function compareUnique(walk: Walk, b: ArrayPart, h: ArrayPart): void {
  // Of at most one item, every array is unique: uniqueItems there is no bound, and its absence no loosening.
  const unique = (p: ArrayPart) => p.unique !== undefined || longest(p) <= 1;
  const [bUnique, hUnique] = [unique(b), unique(h)];
  if (bUnique === hUnique) return;
  const message = `uniqueItems ${bUnique} → ${hUnique}`;
  record(walk, h.unique?.at ?? h.at, hUnique ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message }, [
    "uniqueItems",
  ]);
}

/** Rules whose output verdict rests on the base client dropping the properties it does not know. */
const DROPPED_RULES: ReadonlySet<string> = new Set(["property-added-optional", "property-added-required", "additional-properties-opened"]);

const UNIQUE_REASON = "; a client built on the base drops it, which may make two items of a `uniqueItems` array equal, and toolc found no value that shows it";

/**
 * Items of an array the base keeps unique: what the base client drops from
 * each item may leave two of them equal, so a property its items gained is
 * not compatible for output just because it is dropped. Each such finding
 * since `start` is decided again by a witness at the array.
 */
function redecideDropped(walk: Walk, pair: NodePair, start: number): void {
  for (let i = start; i < walk.out.length; i++) {
    const finding = walk.out[i] as SchemaFinding;
    if (!DROPPED_RULES.has(finding.rule) || (finding.levels.output !== "info" && finding.levels.output !== "warning")) continue;
    const decided = decide(walk, pair, { rule: finding.rule, levels: { ...finding.levels, output: "undecided" }, message: finding.message });
    walk.out[i] = { ...finding, levels: decided.levels, message: decided.levels.output === "undecided" ? decided.message + UNIQUE_REASON : decided.message };
  }
}

export function compareArrays(walk: Walk, pair: NodePair, b: ArrayPart, h: ArrayPart): void {
  compareLengths(walk, b, h);
  compareUnique(walk, b, h);
  const start = walk.out.length;
  // Positions both sides can have: the one longer tuple, then the items after both tuples.
  const reach = Math.min(longest(b), longest(h));
  const tuple = Math.max(b.prefix.length, h.prefix.length);
  for (let i = 0; i < Math.min(tuple, reach); i++) {
    const x = position(b, i);
    const y = position(h, i);
    if (x === false || y === false) continue;
    walk.compareNode(walk, { b: orAny(x, b), h: orAny(y, h), headers: false });
  }
  if (reach > tuple && b.items !== false && h.items !== false && (b.items.length > 0 || h.items.length > 0)) {
    walk.compareNode(walk, { b: orAny(b.items, b), h: orAny(h.items, h), headers: false });
  }
  if (b.unique !== undefined && longest(b) > 1) redecideDropped(walk, pair, start);
}
