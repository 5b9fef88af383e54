/**
 * What the comparison of two schemas (schema-compare.ts) and the modules
 * comparing each kind of node share: the walk, the node pair, how a finding
 * is recorded, decided by a witness and probed for, and a schema's meaning
 * for telling two apart.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import { mapSchema } from "../schema/walk.js";
import type { Cursor, Piece, SchemaFinding, SchemaSide } from "./nodes.js";
import { worstLevel, type Level, type Levels, type SchemaRule } from "./rules.js";
import type { Part } from "./shape.js";
import type { Direction } from "./validate.js";
import { findWitness } from "./witness.js";

/**
 * Keywords that describe but never constrain: edits to them are not changes.
 * `$schema` is among them because toolc compiles one dialect, stated or not;
 * stating it is the policy rule `dialect-changed`. `x-mcp-header` is
 * compared on its own (compare-object.ts), not as a constraint.
 */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "x-sensitive",
  "x-mcp-header",
  "$schema",
]);

export interface Walk {
  readonly base: SchemaSide;
  readonly head: SchemaSide;
  readonly out: SchemaFinding[];
  /** Pairs of nodes being compared, so recursive types terminate. */
  readonly active: Set<string>;
  /**
   * The comparison itself (schema-compare.ts), for the keyword modules that
   * compare children: passed in, so they depend on the walk and not on the
   * module that dispatches to them.
   */
  readonly compareNode: (walk: Walk, pair: NodePair) => void;
  readonly compareParts: (walk: Walk, pair: NodePair, b: Part, h: Part) => void;
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
  return direction === "input"
    ? `; e.g. ${show(value)} was accepted and is now refused`
    : `; e.g. ${show(value)} may now be returned, and clients built on the base refuse it`;
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
  return pieces
    .map((p) => canonical(p.schema, side))
    .sort()
    .join("&");
}
