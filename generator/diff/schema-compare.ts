/**
 * Compares one served schema of a tool, base against head, on what each
 * accepts: a change to input breaks callers when a value valid under the
 * base (after its defaults) is refused by the head; a change to output
 * breaks them when a value the head may return is refused by a client of the
 * base (after it dropped the properties it does not know). Both schemas are
 * walked together in the normal form of shape.ts, with every `$ref`
 * followed, so equivalent spellings and moves into named types are no
 * change. What the structure cannot prove compatible is searched for a
 * witness (witness.ts); found, the change is breaking, and the report shows
 * the value; not found, it is undecided, with the reason.
 *
 * Each side keeps a cursor into the YAML it was written in, so a change is
 * located in the head file and a removal in the base file; a change found
 * inside a named type is located in the types file and tagged with the type.
 */
import type { JsonObject } from "../ir.js";
import { compareArrays } from "./compare-array.js";
import { withoutEmptyParts } from "./empty.js";
import { compareObjects } from "./compare-object.js";
import { compareAlternatives, compareValueSets } from "./compare-union.js";
import { compareNumberParts, compareStringParts } from "./keywords.js";
import { resolve, type Cursor, type Piece, type SchemaFinding, type SchemaSide } from "./nodes.js";
import { CHANGES, NARROWS, UNDECIDED, WIDENS, type Level } from "./rules.js";
import { KINDS, shapeOf, type Kind, type Part, type Shape } from "./shape.js";
import { releaseValidators } from "./validate.js";
import { canonicalPieces, decide, record, type NodePair, type Walk } from "./walk.js";

export type { SchemaFinding, SchemaSide } from "./nodes.js";

export function compareSchemas(base: SchemaSide, head: SchemaSide): SchemaFinding[] {
  const walk: Walk = { base, head, out: [], active: new Set(), compared: new Set(), compareNode, compareParts };
  const start = (side: SchemaSide): Piece => ({ schema: side.root, at: { file: side.toolFile, path: [side.key], field: "" }, drop: true });
  try {
    compareNode(walk, { b: [start(base)], h: [start(head)], headers: base.key === "input" });
  } finally {
    releaseValidators();
  }
  return walk.out;
}

/** A key for a pair of nodes that follow a `$ref`: met again below itself, the pair is a recursion already being compared. */
function recursionKey(pair: NodePair, walk: Walk): string | undefined {
  const refs = (pieces: readonly Piece[], side: SchemaSide) => pieces.map((p) => resolve(p, side).refs.join(">"));
  const b = refs(pair.b, walk.base);
  const h = refs(pair.h, walk.head);
  if (![...b, ...h].some((r) => r !== "")) return undefined;
  return JSON.stringify([b, h, pair.b.map((p) => p.schema), pair.h.map((p) => p.schema)]);
}

export function compareNode(walk: Walk, pair: NodePair): void {
  const key = recursionKey(pair, walk);
  // What else the findings below a node depend on: where headers may sit, and where the client drops unknown properties.
  const done = key === undefined ? undefined : JSON.stringify([key, pair.headers, pair.b.map((p) => p.drop), pair.h.map((p) => p.drop)]);
  if (key !== undefined && done !== undefined) {
    if (walk.active.has(key) || walk.compared.has(done)) return;
    walk.active.add(key);
  }
  try {
    compareSensitivity(walk, pair);
    compareShapes(walk, pair, withoutEmptyParts(shapeOf(pair.b, walk.base), walk.base), withoutEmptyParts(shapeOf(pair.h, walk.head), walk.head));
    if (done !== undefined) walk.compared.add(done);
  } finally {
    if (key !== undefined) walk.active.delete(key);
  }
}

type Sensitivity = "none" | "secret" | "withhold";

/** The node's own `x-sensitive` mark, through its `$ref`s and across its `allOf` pieces: withhold over secret over none. */
function sensitivityOf(pieces: readonly Piece[], side: SchemaSide): { mark: Sensitivity; at: Cursor | undefined } {
  let found: { mark: Sensitivity; at: Cursor | undefined } = { mark: "none", at: pieces[0]?.at };
  for (const piece of pieces) {
    const { node, at } = resolve(piece, side);
    const value = typeof node === "object" ? node["x-sensitive"] : undefined;
    const mark: Sensitivity = value === "withhold" ? "withhold" : value === true ? "secret" : "none";
    if (mark === "withhold" || (mark === "secret" && found.mark === "none")) found = { mark, at };
  }
  return found;
}

/**
 * `x-sensitive` (contract-format.md): on output, `withhold` keeps a value
 * from callers, so withholding one they got breaks them, and sending one
 * that was withheld is worth a look; on input it means the same as `true`.
 * Removing the mark lets the value into traces, logs and error messages,
 * which is a warning; adding it changes nothing a caller sees.
 */
function compareSensitivity(walk: Walk, pair: NodePair): void {
  const b = sensitivityOf(pair.b, walk.base);
  const h = sensitivityOf(pair.h, walk.head);
  if (b.mark === h.mark) return;
  const at = h.at ?? b.at;
  if (at === undefined) return;
  const keyword = ["x-sensitive"];
  const onInput = (mark: Sensitivity): "none" | "secret" => (mark === "none" ? "none" : "secret");
  const input: Level | null = onInput(b.mark) === onInput(h.mark) ? null : h.mark === "none" ? "warning" : "info";
  if (h.mark === "withhold")
    return record(
      walk,
      at,
      {
        rule: "sensitive-withheld",
        levels: { input, output: "breaking" },
        message: "now withheld (`x-sensitive: withhold`): callers no longer receive this value",
      },
      keyword,
    );
  if (b.mark === "withhold")
    return record(
      walk,
      at,
      {
        rule: "sensitive-delivered",
        levels: { input, output: "warning" },
        message: `no longer withheld: callers now receive this value${h.mark === "none" ? ", and traces and logs may show it" : ""}`,
      },
      keyword,
    );
  if (h.mark === "none")
    return record(
      walk,
      b.at ?? at,
      {
        rule: "sensitive-unmarked",
        levels: { input: "warning", output: "warning" },
        message: "no longer `x-sensitive`: the value may now appear in traces, logs and error messages",
      },
      keyword,
    );
  record(
    walk,
    at,
    { rule: "sensitive-marked", levels: { input: "info", output: "info" }, message: "now `x-sensitive`: kept out of traces, logs and error messages" },
    keyword,
  );
}

/** A node written as one plain schema: no `$ref`, no composition. */
function plain(pieces: readonly Piece[]): boolean {
  const [only, ...rest] = pieces;
  return (
    rest.length === 0 &&
    only !== undefined &&
    typeof only.schema === "object" &&
    !["$ref", "anyOf", "oneOf", "allOf"].some((k) => k in (only.schema as JsonObject))
  );
}

function compareShapes(walk: Walk, given: NodePair, b: Shape, h: Shape): void {
  const pair = given.headers && !(plain(given.b) && plain(given.h)) ? { ...given, headers: false } : given;
  if (b.opaque !== undefined || h.opaque !== undefined) return compareOpaque(walk, pair, b, h);
  if (b.kinds.size === 0 && h.kinds.size > 0 && b.values === undefined)
    return record(walk, h.at, { rule: "schema-accepted-nothing", levels: WIDENS, message: "accepted no value before; now accepts some" });
  if (h.kinds.size === 0 && b.kinds.size > 0 && h.values === undefined)
    return record(walk, h.at, { rule: "schema-accepts-nothing", levels: NARROWS, message: "accepts no value any more" });
  if (b.values !== undefined || h.values !== undefined) return compareValueSets(walk, pair, b, h);
  compareKinds(walk, pair, b, h);
}

/** The `type` keyword of a node, when it has one, else the node. */
function typeKeyword(shape: Shape, pieces: readonly Piece[], side: SchemaSide): (string | number)[] {
  const node = pieces.length === 1 ? resolve(pieces[0] as Piece, side).node : undefined;
  return typeof node === "object" && node !== null && "type" in node && shape.at === resolve(pieces[0] as Piece, side).at ? ["type"] : [];
}

const kindName = (kind: Kind, parts: readonly Part[] | undefined): string =>
  kind === "number" && parts?.every((p) => p.kind === "number" && p.integer) ? "integer" : kind;

function kindList(shape: Shape): string {
  const names = KINDS.filter((k) => shape.kinds.has(k)).map((k) => kindName(k, shape.kinds.get(k)));
  return names.length === KINDS.length ? "any" : names.join(" | ");
}

function compareKinds(walk: Walk, pair: NodePair, b: Shape, h: Shape): void {
  const lost = KINDS.filter((k) => b.kinds.has(k) && !h.kinds.has(k));
  const gained = KINDS.filter((k) => h.kinds.has(k) && !b.kinds.has(k));
  if (lost.length > 0 || gained.length > 0) {
    const message = `type ${kindList(b)} → ${kindList(h)}`;
    const rule = lost.length > 0 && gained.length > 0 ? "type-changed" : lost.length > 0 ? "type-narrowed" : "type-widened";
    const levels = rule === "type-changed" ? CHANGES : rule === "type-narrowed" ? NARROWS : WIDENS;
    record(walk, h.at, { rule, levels, message }, typeKeyword(h, pair.h, walk.head));
  }
  for (const kind of KINDS) {
    const bParts = b.kinds.get(kind);
    const hParts = h.kinds.get(kind);
    if (!bParts || !hParts) continue;
    compareAlternatives(
      walk,
      pair,
      kind,
      { parts: bParts, exclusive: b.exclusive.has(kind), at: b.at },
      { parts: hParts, exclusive: h.exclusive.has(kind), at: h.at },
    );
  }
}

/** Compares two parts of the same kind; the findings are recorded where each keyword is written. */
export function compareParts(walk: Walk, pair: NodePair, b: Part, h: Part): void {
  if (b.kind === "number" && h.kind === "number") return compareNumberParts(walk, pair, b, h);
  if (b.kind === "string" && h.kind === "string") return compareStringParts(walk, pair, b, h);
  if (b.kind === "array" && h.kind === "array") return compareArrays(walk, pair, b, h);
  if (b.kind === "object" && h.kind === "object") return compareObjects(walk, pair, b, h);
}

/** A node toolc cannot put in its normal form: the same meaning is no change; anything else is searched, then undecided. */
function compareOpaque(walk: Walk, pair: NodePair, b: Shape, h: Shape): void {
  if (canonicalPieces(pair.b, walk.base) === canonicalPieces(pair.h, walk.head)) return;
  const reason = b.opaque ?? h.opaque ?? "";
  const change = decide(walk, pair, {
    rule: "schema-change-undecided",
    levels: UNDECIDED,
    message: `changed; toolc cannot decide whether that is compatible: ${reason}`,
  });
  record(walk, h.at, change);
}
