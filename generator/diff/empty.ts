/**
 * Parts that accept no value at all: an object that requires a property no
 * value can satisfy (or more properties than it may have), an array that
 * must hold an item no value can be. A change inside one cannot reach a
 * caller, so the comparison leaves them out rather than report what cannot
 * happen. Decided a few levels deep; deeper, a part is taken to accept some
 * value.
 */
import type { Piece, SchemaSide } from "./nodes.js";
import { propertyPieces, shapeOf, type Kind, type Part, type Shape } from "./shape.js";
import { accepts } from "./validate.js";

const DEPTH = 3;

/** Whether no value matches the pieces; false when that is not shown. */
export function acceptsNothing(pieces: readonly Piece[], side: SchemaSide, depth = 0): boolean {
  if (depth > DEPTH) return false;
  const shape = shapeOf(pieces, side);
  if (shape.opaque !== undefined) return false;
  if (shape.values !== undefined) return shape.values.every((v) => accepts(side, pieces, "output", v.value) === false);
  return [...shape.kinds.values()].every((parts) => parts.every((p) => partIsEmpty(p, side, depth)));
}

export function partIsEmpty(part: Part, side: SchemaSide, depth = 0): boolean {
  if (depth > DEPTH) return false;
  if (part.kind === "object") {
    if (part.maxProperties !== undefined && part.maxProperties.value < part.required.size) return true;
    return [...part.required.keys()].some(
      (name) => (part.additional === false && !part.properties.has(name)) || acceptsNothing(propertyPieces(part, name), side, depth + 1),
    );
  }
  if (part.kind === "array") {
    const min = part.minItems?.value ?? 0;
    for (let i = 0; i < Math.min(min, part.prefix.length + 1); i++) {
      const pieces = i < part.prefix.length ? part.prefix[i] : part.items;
      if (pieces === false || (pieces !== undefined && pieces.length > 0 && acceptsNothing(pieces, side, depth + 1))) return true;
    }
  }
  return false;
}

/** The shape without its empty parts (a kind left with none is not allowed). */
export function withoutEmptyParts(shape: Shape, side: SchemaSide): Shape {
  if (shape.opaque !== undefined || shape.values !== undefined) return shape;
  let changed = false;
  const kinds = new Map<Kind, readonly Part[]>();
  for (const [kind, parts] of shape.kinds) {
    const kept = parts.filter((p) => !partIsEmpty(p, side));
    if (kept.length !== parts.length) changed = true;
    if (kept.length > 0) kinds.set(kind, kept);
  }
  return changed ? { ...shape, kinds } : shape;
}
