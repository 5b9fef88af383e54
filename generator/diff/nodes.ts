/**
 * What the schema comparison walks: a side (one served schema and where its
 * parts were written), cursors into the YAML, and pieces: a subschema as
 * written at one place. A node of the comparison is a list of pieces that
 * must all hold (one, or the branches of an `allOf` merged into it).
 */
import type { DefOrigin, JsonObject, JsonSchema, SourceLocation } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import type { Levels, SchemaRule } from "./rules.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName } from "../schema/refs.js";

/** One side of the comparison: the served root schema and where its parts were written. */
export interface SchemaSide {
  readonly root: JsonObject;
  readonly defs: Readonly<Record<string, DefOrigin>>;
  readonly toolFile: YamlSource;
  /** "input" or "output": the key the schema sits under in the tool file. */
  readonly key: string;
  /** The YAML file that declares each named type. */
  readonly typeFiles: ReadonlyMap<string, YamlSource>;
}

/** Where a node of one side was written; `type` is set inside a named type. */
export interface Cursor {
  readonly file: YamlSource;
  readonly path: JsonPath;
  readonly type?: string;
  /** The field path, from the tool's root or from the named type's. */
  readonly field: string;
}

/**
 * A subschema as written at `at`. `drop` says whether the typed client,
 * validating output against this side's schema, drops the properties it does
 * not know here: it does on closed objects it reaches through properties and
 * items, never below `anyOf`, `oneOf` or `allOf`.
 */
export interface Piece {
  readonly schema: JsonSchema;
  readonly at: Cursor;
  readonly drop: boolean;
}

export interface SchemaFinding {
  readonly rule: SchemaRule;
  readonly levels: Levels;
  readonly message: string;
  readonly at: SourceLocation;
  /** The field, as a caller would name it: `orders[].status`. Inside a named type, relative to it. */
  readonly field: string;
  /** The named type the change is in, if any. */
  readonly type?: string;
}

export const child = (c: Cursor, path: JsonPath, field: string): Cursor => ({ ...c, path: [...c.path, ...path], field: c.field + field });

function cursorForDef(name: string, origin: DefOrigin | undefined, side: SchemaSide, from: Cursor): Cursor {
  const typeFile = side.typeFiles.get(name);
  if (origin?.kind === "named" && typeFile) return { file: typeFile, path: ["types", name], type: name, field: "" };
  return { file: side.toolFile, path: [side.key, "$defs", name], field: from.field, ...(from.type === undefined ? {} : { type: from.type }) };
}

/** The node a piece stands for, `$ref`s followed (siblings of a `$ref` kept), and where it was written. */
export interface Resolved {
  readonly node: JsonObject | boolean;
  readonly at: Cursor;
  /** The definitions followed, in order: a pair of chains seen again is a recursion. */
  readonly refs: readonly string[];
}

export function resolve(piece: Piece, side: SchemaSide): Resolved {
  let node: JsonObject | boolean = piece.schema;
  let at = piece.at;
  const refs: string[] = [];
  while (isJsonObject(node)) {
    const name = defsEntryName(node.$ref);
    if (name === undefined) break;
    const { $ref: _ref, ...siblings } = node;
    const target = (side.root.$defs as JsonObject | undefined)?.[name];
    if (target === undefined || refs.includes(name)) break;
    refs.push(name);
    at = cursorForDef(name, side.defs[name], side, at);
    if (typeof target === "boolean") node = target && Object.keys(siblings).length > 0 ? siblings : target;
    else node = isJsonObject(target) ? { ...target, ...siblings } : node;
  }
  return { node, at, refs };
}

/**
 * The served schema of `pieces` on its own, with the side's definitions, for
 * a validator. A `default` at the top applies to nothing (defaults fill in
 * properties of an object), and strict mode refuses it there, so it is left
 * out.
 */
export function standalone(pieces: readonly Piece[], side: SchemaSide): JsonObject {
  const top = (schema: JsonSchema): JsonSchema => {
    if (!isJsonObject(schema)) return schema;
    const { default: _default, $schema: _dialect, ...rest } = schema;
    return rest;
  };
  const [only, ...rest] = pieces;
  const body: JsonSchema = only !== undefined && rest.length === 0 ? top(only.schema) : { allOf: pieces.map((p) => top(p.schema)) };
  const object: JsonObject = body === true ? {} : body === false ? { not: {} } : body;
  const defs = side.root.$defs;
  return defs === undefined ? object : { ...object, $defs: defs };
}
