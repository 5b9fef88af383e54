// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The approval of a confirmed call (`confirm: true`), at the executor's
 * border: every entry point (`execute`, a provider's `run`, the AI SDK's
 * `execute`, the MCP server) reaches the handler through the executor, and
 * the executor runs a confirmed tool's handler only when the call's
 * `confirm` hook approves these exact arguments. Without a hook the call is
 * refused with CONFIRMATION_UNAVAILABLE; nothing is ever approved by default.
 *
 * What the user is asked is written here too, once for every path: each
 * argument the handler will get, in full, in the order the contract's schema
 * declares its properties (never the order the caller sent them), with the
 * contract's `x-sensitive` values masked by their schema path and every
 * invisible or direction-changing character escaped where it can be seen. A
 * question that would not fit is not cut: the call is refused.
 */
import type {
  AnyToolContract,
  JsonSchemaObject,
  SensitivePaths,
} from "./contract.js";
import { copyJson } from "./json.js";
import { decodeToken } from "./pointer.js";
import { REDACTED } from "./redact.js";
import { childState, type PathSegment } from "./sensitive.js";

/** The reasons a confirmed call is refused with (code REJECTED); the compiler adds them to the contract's errors. */
export type ConfirmationReason =
  "CONFIRMATION_DECLINED" | "CONFIRMATION_INVALID" | "CONFIRMATION_UNAVAILABLE";

/** What a `confirm` hook is asked to approve. */
export interface ConfirmationRequest {
  /** The tool's MCP name. */
  readonly tool: string;
  /** The arguments the handler will get (validated, defaults applied); a copy, so changing it changes nothing. */
  readonly arguments: unknown;
  /** The question to show the user: every argument in full, in the contract's order, secrets masked. */
  readonly question: string;
}

/**
 * Asks the user to approve one call of a confirmed tool; `true` runs it,
 * anything else refuses it (CONFIRMATION_DECLINED). A hook that throws or
 * rejects refuses it too (CONFIRMATION_UNAVAILABLE).
 */
export type ConfirmHook = (
  request: ConfirmationRequest,
) => boolean | Promise<boolean>;

/** The longest question asked. A call whose question is longer is refused, never asked cut short. */
export const MAX_QUESTION = 2_000;

export type Question =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly length: number };

/**
 * Characters a reader cannot see or that reorder what they see: controls,
 * format characters (bidi embeddings, overrides and isolates, zero-width
 * characters, the BOM), line and paragraph separators, any whitespace but
 * the space, surrogates, private-use characters, and the rest of Unicode's
 * default-ignorable characters (fillers, variation selectors, tags).
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Default_Ignorable_Code_Point}]|[^\S ]/gu;

/** `text` with every invisible character written as `\u{XXXX}`, so that it shows. */
export function escapeInvisible(text: string): string {
  return text.replace(
    INVISIBLE,
    (char) =>
      `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`,
  );
}

/** A JSON string, with what JSON leaves invisible escaped as well. */
const quoted = (text: string): string => escapeInvisible(JSON.stringify(text));

/** A property name: bare when it is a plain word, else quoted like a string. */
const keyText = (key: string): string =>
  /^[A-Za-z_$][\w$-]*$/.test(key) ? key : quoted(key);

type Schema = JsonSchemaObject | boolean | undefined;

/** Where the renderer stands: the value's schema (for its property order) and its state in the sensitivity automaton. */
interface Place {
  readonly schemas: readonly JsonSchemaObject[];
  readonly state: number | undefined;
}

const MAX_SCHEMA_HOPS = 64;

/** The schema a local `$ref` (`#/$defs/Money`) points to; undefined when it points elsewhere. */
function resolveRef(root: JsonSchemaObject, ref: string): Schema {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === "") return root;
  for (const token of pointer.slice(1).split("/").map(decodeToken)) {
    if (
      typeof node !== "object" ||
      node === null ||
      !Object.hasOwn(node, token)
    )
      return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return typeof node === "object" && node !== null
    ? (node as JsonSchemaObject)
    : undefined;
}

/** The schema and the subschemas that also describe its value (`$ref`, `allOf`, `anyOf`, `oneOf`, `then`, `else`), first ones first. */
function expand(root: JsonSchemaObject, schema: Schema): JsonSchemaObject[] {
  const found: JsonSchemaObject[] = [];
  const pending: Schema[] = [schema];
  while (pending.length > 0 && found.length < MAX_SCHEMA_HOPS) {
    const next = pending.shift();
    if (typeof next !== "object" || next === null || found.includes(next))
      continue;
    found.push(next);
    const record = next as Record<string, unknown>;
    if (typeof record["$ref"] === "string")
      pending.push(resolveRef(root, record["$ref"]));
    for (const key of ["allOf", "anyOf", "oneOf"])
      if (Array.isArray(record[key]))
        pending.push(...(record[key] as Schema[]));
    pending.push(record["then"] as Schema, record["else"] as Schema);
  }
  return found;
}

/** The property names the schemas declare, in their order. */
function declaredOrder(schemas: readonly JsonSchemaObject[]): string[] {
  const names: string[] = [];
  for (const schema of schemas) {
    const properties = (schema as Record<string, unknown>)["properties"];
    if (typeof properties !== "object" || properties === null) continue;
    for (const name of Object.keys(properties))
      if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The schemas of the child at `key` (a number: an array item). */
function childSchemas(
  root: JsonSchemaObject,
  schemas: readonly JsonSchemaObject[],
  key: PathSegment,
): JsonSchemaObject[] {
  const children: Schema[] = [];
  for (const schema of schemas) {
    const record = schema as Record<string, unknown>;
    if (typeof key === "number") {
      const prefix = record["prefixItems"];
      if (Array.isArray(prefix) && key < prefix.length)
        children.push(prefix[key] as Schema);
      else children.push(record["items"] as Schema);
      continue;
    }
    const properties = record["properties"] as
      { readonly [name: string]: Schema } | undefined;
    if (
      typeof properties === "object" &&
      properties !== null &&
      Object.hasOwn(properties, key)
    )
      children.push(properties[key]);
    else children.push(record["additionalProperties"] as Schema);
  }
  return children.flatMap((child) => expand(root, child));
}

/**
 * The keys of an object in the order they are shown: the ones its schema
 * declares, in the schema's order, then any others sorted, so the caller's
 * order never decides what comes first.
 */
function shownKeys(
  record: Record<string, unknown>,
  schemas: readonly JsonSchemaObject[],
): string[] {
  const declared = declaredOrder(schemas).filter((key) =>
    Object.hasOwn(record, key),
  );
  const rest = Object.keys(record)
    .filter((key) => !declared.includes(key))
    .sort();
  return [...declared, ...rest];
}

class Renderer {
  readonly #root: JsonSchemaObject;
  readonly #sensitive: SensitivePaths;

  constructor(contract: AnyToolContract) {
    this.#root = contract.inputSchema;
    this.#sensitive = contract.sensitive.input;
  }

  rootPlace(): Place {
    return {
      schemas: expand(this.#root, this.#root),
      state: this.#sensitive.length > 0 ? 0 : undefined,
    };
  }

  child(place: Place, key: PathSegment): Place {
    const node =
      place.state === undefined ? undefined : this.#sensitive[place.state];
    return {
      schemas: childSchemas(this.#root, place.schemas, key),
      state: node === undefined ? undefined : childState(node, key),
    };
  }

  masked(place: Place): boolean {
    return (
      place.state !== undefined &&
      this.#sensitive[place.state]?.sensitive !== undefined
    );
  }

  /** One value as indented JSON, keys in the schema's order, secrets masked, strings escaped. */
  value(value: unknown, place: Place, indent: string): string {
    if (this.masked(place)) return REDACTED;
    if (typeof value === "string") return quoted(value);
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      const inner = `${indent}  `;
      const items = value.map(
        (item, i) => `${inner}${this.value(item, this.child(place, i), inner)}`,
      );
      return `[\n${items.join(",\n")}\n${indent}]`;
    }
    if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      const keys = shownKeys(record, place.schemas);
      if (keys.length === 0) return "{}";
      const inner = `${indent}  `;
      const entries = keys.map(
        (key) =>
          `${inner}${quoted(key)}: ${this.value(record[key], this.child(place, key), inner)}`,
      );
      return `{\n${entries.join(",\n")}\n${indent}}`;
    }
    return JSON.stringify(value) ?? "null";
  }

  /** The arguments, one top-level property a line. */
  arguments(args: unknown): string {
    const place = this.rootPlace();
    if (this.masked(place)) return REDACTED;
    if (typeof args !== "object" || args === null || Array.isArray(args))
      return this.value(args, place, "");
    const record = args as Record<string, unknown>;
    const keys = shownKeys(record, place.schemas);
    if (keys.length === 0) return "(none)";
    return keys
      .map(
        (key) =>
          `${keyText(key)}: ${this.value(record[key], this.child(place, key), "")}`,
      )
      .join("\n");
  }
}

/**
 * What the user is asked to approve: the tool, then every argument in full,
 * one top-level property a line in the contract's order (properties the
 * schema does not declare follow, sorted), nested objects in their schema's
 * order too. `x-sensitive` values show as [REDACTED], found by their schema
 * path, so a public argument that happens to hold the same text still
 * shows. Not ok when the question would pass MAX_QUESTION characters.
 */
export function confirmationQuestion(
  contract: AnyToolContract,
  args: unknown,
): Question {
  const title = escapeInvisible(contract.title ?? contract.name);
  const description =
    contract.description === undefined
      ? ""
      : `\n${escapeInvisible(contract.description)}`;
  const head = `Allow ${title} (${contract.name})?${description}`;
  const text = `${head}\n\nArguments:\n${new Renderer(contract).arguments(args)}`;
  return text.length <= MAX_QUESTION
    ? { ok: true, text }
    : { ok: false, length: text.length };
}

/** The refusal of a call whose question would not fit. */
export function tooLongMessage(length: number): string {
  return `This call's arguments are too long to show the user in full for confirmation (the question would be ${length} characters; at most ${MAX_QUESTION}), so nothing was asked and nothing was done. Call again with shorter arguments.`;
}

export type Approval =
  | { readonly approved: true }
  | {
      readonly approved: false;
      readonly reason: ConfirmationReason;
      readonly message: string;
    };

const NO_HOOK =
  "This tool needs the user's confirmation, and this application has set up no way to ask for it, so nothing was done.";
const HOOK_FAILED =
  "This tool needs the user's confirmation, and asking for it failed, so nothing was done.";
const DECLINED = "The user did not confirm the call, so nothing was done.";

/**
 * The border: whether a confirmed call's handler may run with `input` (the
 * executor's own validated copy). The hook gets a copy of it, and the
 * question about it; only `true` approves. Never rejects.
 */
export async function approveCall(
  contract: AnyToolContract,
  input: unknown,
  hook: ConfirmHook | undefined,
): Promise<Approval> {
  if (typeof hook !== "function")
    return {
      approved: false,
      reason: "CONFIRMATION_UNAVAILABLE",
      message: NO_HOOK,
    };
  try {
    const question = confirmationQuestion(contract, input);
    if (!question.ok)
      return {
        approved: false,
        reason: "CONFIRMATION_UNAVAILABLE",
        message: tooLongMessage(question.length),
      };
    const copy = copyJson(input);
    const answer = await hook({
      tool: contract.name,
      arguments: copy.ok ? copy.value : undefined,
      question: question.text,
    });
    return answer === true
      ? { approved: true }
      : {
          approved: false,
          reason: "CONFIRMATION_DECLINED",
          message: DECLINED,
        };
  } catch {
    return {
      approved: false,
      reason: "CONFIRMATION_UNAVAILABLE",
      message: HOOK_FAILED,
    };
  }
}
