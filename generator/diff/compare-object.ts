/**
 * Objects, property by property. Each name is constrained on each side by
 * its declaration, or by the object's rule for undeclared properties (none
 * allowed when closed, a map's value schema, or anything), so a property
 * removed from a closed object, or declared on an open one, is compared
 * against what the other side allows for it. Required means different things
 * per direction: the input validator fills a property's `default` in before
 * it checks `required`, so a caller may leave out a required property that
 * has one; output is checked as sent. A client of the base drops output
 * properties it does not know only on objects it can see are closed, not
 * inside a composition.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonValue } from "../ir.js";
import { child, type Piece } from "./nodes.js";
import { NARROWS, WIDENS, worstLevel, type Level, type Levels } from "./rules.js";
import { decide, probe, record, show, worstIn, type Change, type NodePair, type Walk } from "./walk.js";
import { propertyPieces, shapeOf, type ObjectPart, type PropertyEntry } from "./shape.js";
import { accepts } from "./validate.js";
import { isJsonObject } from "../schema/json.js";

const acceptsAnything = (pieces: readonly Piece[]): boolean => pieces.every((p) => p.schema === true);

/** Required as the input validator checks it: after defaults are filled in. */
const requiredInput = (part: ObjectPart, name: string): boolean => part.required.has(name) && !(part.properties.get(name)?.defaulted ?? false);

/** Whether the pieces allow some value at all (a property under `false` must be absent). */
function allowsSome(pieces: readonly Piece[], walk: Walk, base: boolean): boolean {
  const shape = shapeOf(pieces, base ? walk.base : walk.head);
  return shape.opaque !== undefined || shape.kinds.size > 0 || (shape.values?.length ?? 0) > 0;
}

/** The levels of `found` per direction, or info where it found nothing there. */
function levelsOf(found: readonly { levels: Levels }[]): Levels {
  return { input: worstIn(found, "input") ?? "info", output: worstIn(found, "output") ?? "info" };
}

const worse = (a: Level | null, b: Level | null): Level | null => (a === null ? b : b === null ? a : worstLevel([a, b]));

export function compareObjects(walk: Walk, pair: NodePair, b: ObjectPart, h: ObjectPart): void {
  for (const name of new Set([...b.properties.keys(), ...h.properties.keys()])) compareProperty(walk, pair, b, h, name);
  for (const name of new Set([...b.required.keys(), ...h.required.keys()])) {
    if (!b.properties.has(name) && !h.properties.has(name)) compareRequired(walk, b, h, name, h.required.get(name) ?? h.at);
  }
  compareAdditional(walk, pair, b, h);
  comparePropertyNames(walk, b, h);
  compareCounts(walk, b, h);
}

function compareProperty(walk: Walk, pair: NodePair, b: ObjectPart, h: ObjectPart, name: string): void {
  const bEntry = b.properties.get(name);
  const hEntry = h.properties.get(name);
  const bPieces = propertyPieces(b, name);
  const hPieces = propertyPieces(h, name);
  // MCP mirrors only properties reached through `properties` alone: no `$ref`, no composition on the way.
  const headers = pair.headers && [...(bEntry?.pieces ?? []), ...(hEntry?.pieces ?? [])].every((p) => isJsonObject(p.schema) && !("$ref" in p.schema));
  if (bEntry && hEntry) {
    compareRequired(walk, b, h, name, hEntry.at);
    compareDefault(walk, pair, { b, h, name }, bEntry, hEntry);
    if (pair.headers) compareHeader(walk, bEntry, hEntry, name);
    walk.compareNode(walk, { b: bEntry.pieces, h: hEntry.pieces, headers });
    return;
  }
  if (hEntry) return propertyAdded(walk, pair, { b, h, name }, hEntry, bPieces);
  if (bEntry) return propertyRemoved(walk, b, h, name, bEntry, hPieces, pair.headers);
}

/**
 * A client of the base drops the output properties it does not know before
 * it validates: what is left may be fewer than the base's minProperties,
 * unless the head requires that many the base knows.
 */
function dropMayUnderfill(b: ObjectPart, h: ObjectPart): boolean {
  const known = [...h.required.keys()].filter((name) => b.properties.has(name)).length;
  return (b.minProperties?.value ?? 0) > known;
}

const DROP_REASON =
  "; a client built on the base drops it, which may leave fewer properties than the base's minProperties, and toolc found no value that shows it";

/** Output levels where dropping what the base does not know may underfill it: decided by a witness at the object. */
function droppedDecided(walk: Walk, pair: NodePair, b: ObjectPart, h: ObjectPart, change: Change, safe: Level): Change {
  if (change.levels.output !== safe || !b.drop || !dropMayUnderfill(b, h)) return change;
  const decided = decide(walk, pair, { ...change, levels: { ...change.levels, output: "undecided" } });
  return decided.levels.output === "undecided" ? { ...decided, message: decided.message + DROP_REASON } : decided;
}

function propertyAdded(
  walk: Walk,
  pair: NodePair,
  { b, h, name }: { b: ObjectPart; h: ObjectPart; name: string },
  entry: PropertyEntry,
  bPieces: readonly Piece[],
): void {
  const requiredIn = requiredInput(h, name);
  const header = pair.headers && entry.header !== undefined ? `; mirrored into the \`Mcp-Param-${entry.header}\` header` : "";
  if (b.additional === false) {
    // Base callers never sent it; base clients refuse it in output unless they drop it.
    const output: Level = !allowsSome(entry.pieces, walk, false) ? "info" : b.drop ? "info" : "breaking";
    const note = output === "breaking" ? " (inside a composition, where clients built on the base do not drop unknown properties)" : "";
    const change = requiredIn
      ? {
          rule: "property-added-required" as const,
          levels: { input: "breaking" as Level, output },
          message: `required property \`${name}\` added${note}${header}`,
        }
      : {
          rule: "property-added-optional" as const,
          levels: { input: "info" as Level, output },
          message: `optional property \`${name}\` added${note}${header}`,
        };
    return record(walk, entry.at, droppedDecided(walk, pair, b, h, change, "info"), [], true);
  }
  // The base accepted any value (or a map's value) for it: compare that with the new declaration.
  const found = probe(walk, (scratch) =>
    scratch.compareNode(scratch, { b: bPieces.length === 0 ? [{ schema: true, at: entry.at, drop: false }] : bPieces, h: entry.pieces, headers: false }),
  );
  const levels = levelsOf(found);
  const input = requiredIn && !requiredInput(b, name) ? "breaking" : levels.input;
  const detail = found
    .filter((f) => f.levels.input !== "info" || f.levels.output !== "info")
    .map((f) => f.message)
    .slice(0, 3)
    .join("; ");
  const message = `property \`${name}\` declared on an object that accepted ${acceptsAnything(b.additional) ? "any property" : "it as a map value"}${detail === "" ? "" : `: ${detail}`}${header}`;
  record(walk, entry.at, { rule: "property-added-open-object", levels: { input, output: levels.output }, message }, [], true);
}

function propertyRemoved(walk: Walk, b: ObjectPart, h: ObjectPart, name: string, entry: PropertyEntry, hPieces: readonly Piece[], headers: boolean): void {
  const header = headers && entry.header !== undefined ? `; it was mirrored into the \`Mcp-Param-${entry.header}\` header` : "";
  const outputRequired: Level = b.required.has(name) && !h.required.has(name) ? "breaking" : "warning";
  if (h.additional === false) {
    const input: Level = allowsSome(entry.pieces, walk, true) ? "breaking" : "info";
    const why = input === "breaking" ? "callers that send it are refused (the object is closed)" : "callers could not send it";
    return record(
      walk,
      entry.at,
      { rule: "property-removed", levels: { input, output: outputRequired }, message: `property \`${name}\` removed; ${why}${header}` },
      [],
      true,
    );
  }
  const found = probe(walk, (scratch) =>
    scratch.compareNode(scratch, { b: entry.pieces, h: hPieces.length === 0 ? [{ schema: true, at: entry.at, drop: false }] : hPieces, headers: false }),
  );
  const levels = levelsOf(found);
  const input = requiredInput(h, name) && !requiredInput(b, name) ? "breaking" : levels.input;
  const detail = found
    .filter((f) => f.levels.input !== "info")
    .map((f) => f.message)
    .slice(0, 3)
    .join("; ");
  const message = `property \`${name}\` removed; the object ${acceptsAnything(h.additional) ? "accepts any property" : "takes it as a map value"}${detail === "" ? "" : `: ${detail}`}${header}`;
  record(
    walk,
    entry.at,
    { rule: "property-removed", levels: { input, output: worse(levels.output, outputRequired === "breaking" ? "breaking" : "info") }, message },
    [],
    true,
  );
}

function compareRequired(walk: Walk, b: ObjectPart, h: ObjectPart, name: string, at: ObjectPart["at"]): void {
  const inputB = requiredInput(b, name);
  const inputH = requiredInput(h, name);
  const outputB = b.required.has(name);
  const outputH = h.required.has(name);
  // A change of requiredness only through a default is reported with the default (compareDefault).
  const byDefault = outputB === outputH;
  const input: Level | null = byDefault || inputB === inputH ? null : inputH ? "breaking" : "info";
  const output: Level | null = outputB === outputH ? null : outputH ? "info" : "breaking";
  if (input === null && output === null) return;
  const became = outputH && !outputB;
  const cursor = child(at, [], "");
  record(
    walk,
    cursor,
    became
      ? { rule: "property-became-required", levels: { input: input ?? "info", output: output ?? "info" }, message: `property \`${name}\` is now required` }
      : { rule: "property-became-optional", levels: { input: input ?? "info", output: output ?? "info" }, message: `property \`${name}\` is now optional` },
    [],
    true,
  );
}

function literalDefault(entry: PropertyEntry): { has: boolean; value?: JsonValue } {
  const node = entry.pieces[0]?.schema;
  return isJsonObject(node) && "default" in node ? { has: true, value: node.default as JsonValue } : { has: false };
}

/** The names every input value has once defaults are filled in: the required ones and the defaulted ones. */
const alwaysPresent = (part: ObjectPart): number =>
  new Set([...part.required.keys(), ...[...part.properties].filter(([, e]) => e.defaulted).map(([n]) => n)]).size;

/**
 * The input validator fills defaults in before it counts properties: a
 * default removed may leave a call under the head's minProperties, when
 * what every value has does not reach it; a default added may push a call
 * over its maxProperties, when the object can hold more than that. Either
 * way the counts may bind, and a witness decides.
 */
function countsMayBind(h: ObjectPart, added: boolean): boolean {
  if (!added) return (h.minProperties?.value ?? 0) > alwaysPresent(h);
  const ceiling = h.additional === false ? h.properties.size : Infinity;
  return h.maxProperties !== undefined && ceiling > h.maxProperties.value;
}

const COUNT_REASON = "; the object's property count may have counted on it, and toolc found no call that shows it";

/** Levels where the counts may bind, decided by a witness at the object; else `level`. */
function countedDefault(
  walk: Walk,
  pair: NodePair,
  h: ObjectPart,
  added: boolean,
  change: { rule: "default-added" | "default-removed"; level: Level; message: string },
): Change {
  if (change.level === "breaking" || !countsMayBind(h, added))
    return { rule: change.rule, levels: { input: change.level, output: null }, message: change.message };
  const decided = decide(walk, pair, { rule: change.rule, levels: { input: "undecided", output: null }, message: change.message });
  return decided.levels.input === "undecided" ? { ...decided, message: decided.message + COUNT_REASON } : decided;
}

/** A default is what the handler sees for a field the caller left out; on a required property, it is what lets callers leave it out. */
function compareDefault(
  walk: Walk,
  pair: NodePair,
  { b, h, name }: { b: ObjectPart; h: ObjectPart; name: string },
  bEntry: PropertyEntry,
  hEntry: PropertyEntry,
): void {
  const bd = literalDefault(bEntry);
  const hd = literalDefault(hEntry);
  if (!bd.has && !hd.has) return;
  const keyword = ["default"];
  if (bd.has && hd.has) {
    if (isDeepStrictEqual(bd.value, hd.value)) return;
    return record(
      walk,
      hEntry.at,
      { rule: "default-changed", levels: { input: "warning", output: null }, message: `default ${show(bd.value)} → ${show(hd.value)}` },
      keyword,
    );
  }
  if (hd.has)
    return record(
      walk,
      hEntry.at,
      countedDefault(walk, pair, h, true, { rule: "default-added", level: "info", message: `default ${show(hd.value)} added` }),
      keyword,
    );
  const refused = h.required.has(name) && b.required.has(name);
  const message = refused
    ? `default ${show(bd.value)} removed from a required property: callers that leave \`${name}\` out are now refused`
    : `default ${show(bd.value)} removed: the handler no longer gets a value when the caller leaves it out`;
  record(walk, bEntry.at, countedDefault(walk, pair, h, false, { rule: "default-removed", level: refused ? "breaking" : "warning", message }), keyword);
}

/** `x-mcp-header`: callers on Streamable HTTP mirror the property into `Mcp-Param-{name}`, and the server checks it (MCP 2026-07-28). */
function compareHeader(walk: Walk, bEntry: PropertyEntry, hEntry: PropertyEntry, name: string): void {
  const bh = bEntry.header;
  const hh = hEntry.header;
  if (bh?.toLowerCase() === hh?.toLowerCase()) return;
  const keyword = ["x-mcp-header"];
  if (bh === undefined) {
    const message = `\`${name}\` is now mirrored into the \`Mcp-Param-${hh}\` header: a client that has not listed the tools again sends no header, and the server refuses the call (HeaderMismatch) until it does`;
    return record(walk, hEntry.at, { rule: "mcp-header-added", levels: { input: "warning", output: null }, message }, keyword);
  }
  if (hh === undefined) {
    const message = `\`${name}\` is no longer mirrored into the \`Mcp-Param-${bh}\` header: whatever routes or checks calls on that header no longer gets it`;
    return record(walk, bEntry.at, { rule: "mcp-header-removed", levels: { input: "breaking", output: null }, message }, keyword);
  }
  const message = `header \`Mcp-Param-${bh}\` → \`Mcp-Param-${hh}\`: callers built on the base send the old header, not the new one, and are refused (HeaderMismatch)`;
  record(walk, hEntry.at, { rule: "mcp-header-changed", levels: { input: "breaking", output: null }, message }, keyword);
}

/** Properties neither side declares: closed, a map's values, or anything. */
function compareAdditional(walk: Walk, pair: NodePair, b: ObjectPart, h: ObjectPart): void {
  const keyword = ["additionalProperties"];
  if (b.additional === false && h.additional === false) return;
  if (b.additional === false) {
    if ((h.maxProperties?.value ?? Infinity) <= h.required.size) return;
    // The old client drops undeclared properties, so output that gained some still validates (but loses them).
    const output: Level = b.drop ? "warning" : "breaking";
    const change: Change = {
      rule: "additional-properties-opened",
      levels: { input: "info", output },
      message: "object now accepts properties it does not declare",
    };
    return record(walk, h.additionalAt ?? h.at, droppedDecided(walk, pair, b, h, change, "warning"), keyword);
  }
  if (h.additional === false) {
    // Required properties already fill every place maxProperties allows: there was no room for another.
    if ((b.maxProperties?.value ?? Infinity) <= b.required.size) return;
    return record(
      walk,
      h.additionalAt ?? h.at,
      { rule: "additional-properties-closed", levels: NARROWS, message: "object no longer accepts undeclared properties" },
      keyword,
    );
  }
  if (acceptsAnything(b.additional) && acceptsAnything(h.additional)) return;
  const anyB: Piece = { schema: true, at: child(b.additionalAt ?? b.at, ["additionalProperties"], ".*"), drop: false };
  const anyH: Piece = { schema: true, at: child(h.additionalAt ?? h.at, ["additionalProperties"], ".*"), drop: false };
  walk.compareNode(walk, { b: b.additional.length === 0 ? [anyB] : b.additional, h: h.additional.length === 0 ? [anyH] : h.additional, headers: false });
}

/** The names a closed object may have: its declared properties that allow some value. */
function closedNames(part: ObjectPart, walk: Walk, base: boolean): string[] | undefined {
  if (part.additional !== false) return undefined;
  return [...part.properties].filter(([, e]) => allowsSome(e.pieces, walk, base)).map(([n]) => n);
}

function comparePropertyNames(walk: Walk, b: ObjectPart, h: ObjectPart): void {
  if (b.propertyNames.length === 0 && h.propertyNames.length === 0) return;
  const any = (p: ObjectPart): Piece => ({ schema: true, at: child(p.at, ["propertyNames"], "{key}"), drop: false });
  const bp = b.propertyNames.length === 0 ? [any(b)] : b.propertyNames;
  const hp = h.propertyNames.length === 0 ? [any(h)] : h.propertyNames;
  const found = probe(walk, (scratch) => scratch.compareNode(scratch, { b: bp, h: hp, headers: false }));
  // A closed object's names are known: check each of them instead.
  const bNames = closedNames(b, walk, true);
  const hNames = closedNames(h, walk, false);
  const refusedIn = bNames?.filter((n) => accepts(walk.base, bp, "output", n) === true && accepts(walk.head, hp, "output", n) === false);
  const refusedOut = hNames?.filter((n) => accepts(walk.head, hp, "output", n) === true && accepts(walk.base, bp, "output", n) === false);
  for (const f of found) {
    const levels: Levels = {
      input: refusedIn === undefined ? f.levels.input : refusedIn.length > 0 ? "breaking" : f.levels.input === null ? null : "info",
      output: refusedOut === undefined ? f.levels.output : refusedOut.length > 0 ? "breaking" : f.levels.output === null ? null : "info",
    };
    walk.out.push({ ...f, levels });
  }
}

/**
 * minProperties as it acts: no accepted value has fewer properties than the
 * object requires, nor, on input, than it requires and fills in by default,
 * so a bound below that says nothing in that direction.
 */
function compareMinProperties(walk: Walk, b: ObjectPart, h: ObjectPart): void {
  const [bMin, hMin] = [b.minProperties?.value ?? 0, h.minProperties?.value ?? 0];
  if (bMin === hMin) return;
  const input = Math.max(hMin, alwaysPresent(h)) - Math.max(bMin, alwaysPresent(b));
  const output = Math.max(hMin, h.required.size) - Math.max(bMin, b.required.size);
  if (input === 0 && output === 0) return;
  const levels: Levels = { input: input > 0 ? "breaking" : input < 0 ? "info" : null, output: output < 0 ? "breaking" : output > 0 ? "info" : null };
  const message = `minProperties ${bMin} → ${hMin}`;
  record(walk, h.minProperties?.at ?? h.at, { rule: hMin > bMin ? "bound-tightened" : "bound-loosened", levels, message }, ["minProperties"]);
}

function compareCounts(walk: Walk, b: ObjectPart, h: ObjectPart): void {
  // A closed object cannot have more properties than it declares: a larger maxProperties says nothing.
  const ceiling = (p: ObjectPart) => (p.additional === false ? p.properties.size : Infinity);
  compareMinProperties(walk, b, h);
  const [bLit, hLit] = [b.maxProperties?.value ?? Infinity, h.maxProperties?.value ?? Infinity];
  if (bLit === hLit) return;
  // Only what the bound itself changes: measured against the properties each side can have.
  const tightened = hLit < bLit && Math.min(hLit, ceiling(b)) < Math.min(bLit, ceiling(b));
  const loosened = hLit > bLit && Math.min(hLit, ceiling(h)) > Math.min(bLit, ceiling(h));
  if (!tightened && !loosened) return;
  const message = `maxProperties ${b.maxProperties?.value ?? "(none)"} → ${h.maxProperties?.value ?? "(none)"}`;
  record(
    walk,
    h.maxProperties?.at ?? h.at,
    tightened ? { rule: "bound-tightened", levels: NARROWS, message } : { rule: "bound-loosened", levels: WIDENS, message },
    ["maxProperties"],
  );
}
