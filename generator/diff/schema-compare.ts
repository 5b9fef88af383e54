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
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import { mapSchema } from "../normalize/schema-walk.js";
import { compareArrays } from "./compare-array.js";
import { withoutEmptyParts } from "./empty.js";
import { compareObjects } from "./compare-object.js";
import { compareAlternatives, compareValueSets } from "./compare-union.js";
import { ANNOTATIONS, compareNumberParts, compareStringParts } from "./keywords.js";
import { resolve, type Cursor, type Piece, type SchemaFinding, type SchemaSide } from "./nodes.js";
import { CHANGES, NARROWS, UNDECIDED, WIDENS, worstLevel, type Level, type Levels, type SchemaRule } from "./rules.js";
import { KINDS, shapeOf, type Kind, type Part, type Shape } from "./shape.js";
import { releaseValidators, type Direction } from "./validate.js";
import { findWitness } from "./witness.js";

export type { SchemaFinding, SchemaSide } from "./nodes.js";

export interface Walk {
  readonly base: SchemaSide;
  readonly head: SchemaSide;
  readonly out: SchemaFinding[];
  /** Pairs of nodes being compared, so recursive types terminate. */
  readonly active: Set<string>;
}

/** A node being compared: its pieces on each side, and whether x-mcp-header may sit on its properties. */
export interface NodePair {
  readonly b: readonly Piece[];
  readonly h: readonly Piece[];
  /** Reached from the input root through `properties` only (MCP's "statically reachable"). */
  readonly headers: boolean;
}

export interface Change {
  readonly rule: SchemaRule;
  readonly levels: Levels;
  readonly message: string;
}

export function record(walk: Walk, cursor: Cursor, change: Change, keyword: readonly (string | number)[] = [], key = false): void {
  const at = cursor.file.locate([...cursor.path, ...keyword], key ? { key: true } : undefined);
  walk.out.push({ ...change, at, field: cursor.field, ...(cursor.type === undefined ? {} : { type: cursor.type }) });
}

/** The findings `run` makes, kept apart from the report: to ask whether one node covers another. */
export function probe(walk: Walk, run: (scratch: Walk) => void): SchemaFinding[] {
  const scratch: Walk = { ...walk, out: [] };
  run(scratch);
  return scratch.out;
}

/** The worst level a set of findings has in one direction, or null when it has none there. */
export function worstIn(findings: readonly { levels: Levels }[], direction: Direction): Level | null {
  const levels = findings.map((f) => f.levels[direction]).filter((l): l is Level => l !== null);
  return levels.length === 0 ? null : worstLevel(levels);
}

export const show = (v: unknown): string => JSON.stringify(v);

function witnessNote(value: JsonValue, direction: Direction): string {
  return direction === "input" ? `; e.g. ${show(value)} was accepted and is now refused` : `; e.g. ${show(value)} may now be returned, and clients built on the base refuse it`;
}

/**
 * Levels with each undecided direction settled by a witness search at the
 * node: a value found makes it breaking (the message shows it); none found
 * leaves it undecided.
 */
export function decide(walk: Walk, pair: NodePair, change: Change): Change {
  let { levels, message } = change;
  for (const direction of ["input", "output"] as const) {
    if (levels[direction] !== "undecided") continue;
    const value = findWitness(walk.base, pair.b, walk.head, pair.h, direction);
    if (value === undefined) continue;
    levels = { ...levels, [direction]: "breaking" };
    message += witnessNote(value, direction);
  }
  return { ...change, levels, message };
}

export function compareSchemas(base: SchemaSide, head: SchemaSide): SchemaFinding[] {
  const walk: Walk = { base, head, out: [], active: new Set() };
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
  if (key !== undefined) {
    if (walk.active.has(key)) return;
    walk.active.add(key);
  }
  try {
    compareSensitivity(walk, pair);
    compareShapes(walk, pair, withoutEmptyParts(shapeOf(pair.b, walk.base), walk.base), withoutEmptyParts(shapeOf(pair.h, walk.head), walk.head));
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
  if (h.mark === "withhold") return record(walk, at, { rule: "sensitive-withheld", levels: { input, output: "breaking" }, message: "now withheld (`x-sensitive: withhold`): callers no longer receive this value" }, keyword);
  if (b.mark === "withhold") return record(walk, at, { rule: "sensitive-delivered", levels: { input, output: "warning" }, message: `no longer withheld: callers now receive this value${h.mark === "none" ? ", and traces and logs may show it" : ""}` }, keyword);
  if (h.mark === "none") return record(walk, b.at ?? at, { rule: "sensitive-unmarked", levels: { input: "warning", output: "warning" }, message: "no longer `x-sensitive`: the value may now appear in traces, logs and error messages" }, keyword);
  record(walk, at, { rule: "sensitive-marked", levels: { input: "info", output: "info" }, message: "now `x-sensitive`: kept out of traces, logs and error messages" }, keyword);
}

/** A node written as one plain schema: no `$ref`, no composition. */
function plain(pieces: readonly Piece[]): boolean {
  const [only, ...rest] = pieces;
  return rest.length === 0 && only !== undefined && typeof only.schema === "object" && !["$ref", "anyOf", "oneOf", "allOf"].some((k) => k in (only.schema as JsonObject));
}

function compareShapes(walk: Walk, given: NodePair, b: Shape, h: Shape): void {
  const pair = given.headers && !(plain(given.b) && plain(given.h)) ? { ...given, headers: false } : given;
  if (b.opaque !== undefined || h.opaque !== undefined) return compareOpaque(walk, pair, b, h);
  if (b.kinds.size === 0 && h.kinds.size > 0 && b.values === undefined) return record(walk, h.at, { rule: "schema-accepted-nothing", levels: WIDENS, message: "accepted no value before; now accepts some" });
  if (h.kinds.size === 0 && b.kinds.size > 0 && h.values === undefined) return record(walk, h.at, { rule: "schema-accepts-nothing", levels: NARROWS, message: "accepts no value any more" });
  if (b.values !== undefined || h.values !== undefined) return compareValueSets(walk, pair, b, h);
  compareKinds(walk, pair, b, h);
}

/** The `type` keyword of a node, when it has one, else the node. */
function typeKeyword(shape: Shape, pieces: readonly Piece[], side: SchemaSide): (string | number)[] {
  const node = pieces.length === 1 ? resolve(pieces[0] as Piece, side).node : undefined;
  return typeof node === "object" && node !== null && "type" in node && shape.at === resolve(pieces[0] as Piece, side).at ? ["type"] : [];
}

const kindName = (kind: Kind, parts: readonly Part[] | undefined): string => (kind === "number" && parts?.every((p) => p.kind === "number" && p.integer) ? "integer" : kind);

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
    compareAlternatives(walk, pair, kind, { parts: bParts, exclusive: b.exclusive.has(kind), at: b.at }, { parts: hParts, exclusive: h.exclusive.has(kind), at: h.at });
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
  const change = decide(walk, pair, { rule: "schema-change-undecided", levels: UNDECIDED, message: `changed; toolc cannot decide whether that is compatible: ${reason}` });
  record(walk, h.at, change);
}

/** JSON with object keys sorted, so key order in the YAML does not matter. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  const entries = Object.entries(value as JsonObject).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(",")}}`;
}

/**
 * A schema's meaning, for telling whether two are the same: annotations left
 * out, keys sorted, and every `$ref` replaced by what it refers to (a
 * recursive one by its name), so a node whose named type changed does not
 * match its old self.
 */
export function canonical(schema: JsonSchema, side: SchemaSide, expanding: readonly string[] = []): string {
  const defs = (side.root.$defs ?? {}) as JsonObject;
  const meaning = mapSchema(schema, [], (node) => {
    const out: JsonObject = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)));
    const ref = out.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return out;
    const name = ref.slice("#/$defs/".length);
    if (expanding.includes(name) || defs[name] === undefined) return out;
    return { ...out, $ref: JSON.parse(canonical(defs[name] as JsonSchema, side, [...expanding, name])) as JsonObject };
  });
  return sortedJson(meaning);
}

export function canonicalPieces(pieces: readonly Piece[], side: SchemaSide): string {
  return pieces.map((p) => canonical(p.schema, side)).sort().join("&");
}
