/**
 * What the comparison of two schemas (schema-compare.ts) and the modules
 * comparing each kind of node share: the walk, the node pair, how a finding
 * is recorded, decided by a witness and probed for, and a schema's meaning
 * for telling two apart.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import { createHash } from "node:crypto";
import { stronglyConnected } from "../schema/graph.js";
import { refsIn } from "../schema/refs.js";
import { mapSchema } from "../schema/walk.js";
import type { Cursor, Piece, SchemaFinding, SchemaSide } from "./nodes.js";
import { worstLevel, type Level, type Levels, type SchemaRule } from "./rules.js";
import type { Part } from "./shape.js";
import type { Direction } from "./validate.js";
import { findWitness } from "./witness.js";
import { annotationKeywords } from "../schema/annotations.js";

/**
 * Keywords that describe but never constrain: edits to them are not changes.
 * `$schema` is among them because toolc compiles one dialect, stated or not;
 * stating it is the policy rule `dialect-changed`. `x-mcp-header` is
 * compared on its own (compare-object.ts), not as a constraint.
 */
export const ANNOTATIONS: ReadonlySet<string> = annotationKeywords("meta-data", "access", "toolc", "dialect");

export interface Walk {
  readonly base: SchemaSide;
  readonly head: SchemaSide;
  readonly out: SchemaFinding[];
  /** Pairs of nodes being compared, so recursive types terminate. */
  readonly active: Set<string>;
  /**
   * Pairs of nodes reached through a `$ref` and compared in full, whose
   * findings are in `out` already: a definition met again on another path
   * (`$defs` that each refer to the next one twice reach the last by 2^n
   * paths) is compared, and its changes reported, once.
   */
  readonly compared: Set<string>;
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
  const scratch: Walk = { ...walk, out: [], compared: new Set() };
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

/** The `$defs` entry a `$ref` names, as canonical reads it, when the side has it. */
function defName(ref: unknown, defs: JsonObject): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return undefined;
  const name = ref.slice("#/$defs/".length);
  return Object.hasOwn(defs, name) ? name : undefined;
}

/** A schema with annotations left out, keys sorted, and each `$ref` to a `$defs` entry replaced by `refAs(name)`. */
function meaningWith(schema: JsonSchema, defs: JsonObject, refAs: (name: string) => string): string {
  const meaning = mapSchema(schema, [], (node) => {
    const out: JsonObject = Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)));
    const name = defName(out.$ref, defs);
    return name === undefined ? out : { ...out, $ref: refAs(name) };
  });
  return sortedJson(meaning);
}

/** Each side's `$defs` entries' meanings, computed once per side. */
const defMeanings = new WeakMap<SchemaSide, ReadonlyMap<string, string>>();

/**
 * The meaning of each `$defs` entry, as a digest: of its own meaning with
 * every ref replaced by its target's digest, or, for entries on a reference
 * cycle, of the whole cycle (its members' names and meanings) and the entry's
 * name. Computed once per entry, targets first: expanding each ref where it
 * stands (as this did) doubled the text at every level of `$defs` that refer
 * to the next one twice.
 */
function meaningsOf(side: SchemaSide): ReadonlyMap<string, string> {
  const known = defMeanings.get(side);
  if (known !== undefined) return known;
  const defs = (side.root.$defs ?? {}) as JsonObject;
  const meanings = new Map<string, string>();
  const edges = new Map<string, string[]>();
  for (const [name, def] of Object.entries(defs)) {
    edges.set(name, [...new Set(refsIn(def).flatMap((ref) => defName(ref, defs) ?? []))]);
  }
  const digest = (text: string): string => `=${createHash("sha256").update(text).digest("hex")}`;
  for (const component of stronglyConnected(edges.keys(), (name) => edges.get(name) ?? [])) {
    const members = new Set(component);
    const [only] = component as [string];
    if (component.length === 1 && !(edges.get(only) ?? []).includes(only)) {
      meanings.set(only, digest(meaningWith(defs[only] as JsonSchema, defs, (name) => meanings.get(name) as string)));
      continue;
    }
    const names = [...component].sort();
    const whole = digest(
      JSON.stringify(
        names.map((name) => [name, meaningWith(defs[name] as JsonSchema, defs, (to) => (members.has(to) ? `#${to}` : (meanings.get(to) as string)))]),
      ),
    );
    for (const name of names) meanings.set(name, digest(JSON.stringify([whole, name])));
  }
  defMeanings.set(side, meanings);
  return meanings;
}

/**
 * A schema's meaning, for telling whether two are the same: annotations left
 * out, keys sorted, and every `$ref` replaced by the meaning of what it
 * refers to (meaningsOf), so a node whose named type changed does not match
 * its old self.
 */
export function canonical(schema: JsonSchema, side: SchemaSide): string {
  const meanings = meaningsOf(side);
  return meaningWith(schema, (side.root.$defs ?? {}) as JsonObject, (name) => meanings.get(name) as string);
}

export function canonicalPieces(pieces: readonly Piece[], side: SchemaSide): string {
  return pieces
    .map((p) => canonical(p.schema, side))
    .sort()
    .join("&");
}
