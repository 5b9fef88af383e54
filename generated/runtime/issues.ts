// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Turns validator errors into issues a model can act on: the path of the
 * field to fix, and a message built from the failing keyword. Messages never
 * quote the value that was sent, so nothing secret can leak through them.
 */
import type { ToolIssue } from "./envelope.js";
import type { SensitivePaths, ValidationError } from "./contract.js";
import { pointerTokens } from "./pointer.js";
import { hideSensitiveKeys, type PathSegment } from "./sensitive.js";

/** More than this many issues helps nobody; the rest are summarized. */
export const MAX_ISSUES = 50;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `out` with a property name appended: `.name`, `name` at the root, or `["a key"]`. */
function appendName(out: string, name: string): string {
  if (!IDENTIFIER.test(name)) return `${out}[${JSON.stringify(name)}]`;
  return out === "" ? name : `${out}.${name}`;
}

/** Renders segments as `orders[0].status`; the root is "". */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments)
    out =
      typeof segment === "number"
        ? `${out}[${segment}]`
        : appendName(out, segment);
  return out;
}

/** An array index as JSON pointer writes one: 0, or digits without a leading zero. */
function isIndexToken(token: string): boolean {
  if (token.length === 0 || (token.length > 1 && token.charCodeAt(0) === 48))
    return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Splits an Ajv instancePath (a JSON pointer) into segments, using the data to
 * tell array indices from property names that happen to be digits.
 */
export function pointerSegments(pointer: string, data: unknown): PathSegment[] {
  if (pointer === "") return [];
  const segments: PathSegment[] = [];
  let node: unknown = data;
  let tokens: string[];
  try {
    tokens = pointerTokens(pointer);
  } catch {
    // Ajv writes well-formed pointers; anything else is shown as it came rather than thrown.
    return [pointer];
  }
  for (const token of tokens) {
    if (Array.isArray(node) && isIndexToken(token)) {
      segments.push(Number(token));
      node = node[Number(token)];
    } else {
      segments.push(token);
      node =
        node !== null && typeof node === "object" && Object.hasOwn(node, token)
          ? (node as Record<string, unknown>)[token]
          : undefined;
    }
  }
  return segments;
}

function list(values: unknown): string {
  const items = Array.isArray(values) ? values : [values];
  const shown = items
    .slice(0, 10)
    .map((v) => JSON.stringify(v))
    .join(", ");
  return items.length > 10 ? `${shown}, …` : shown;
}

function plural(n: unknown, word: string): string {
  return `${String(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** "must be string", "must be string or null", by the type list as Ajv writes it; there are only so many. */
const typeMessages = new Map<string, string>();

function typeMessage(type: string): string {
  let message = typeMessages.get(type);
  if (message === undefined) {
    message = `must be ${type.split(",").join(" or ")}`;
    // The type lists come from schemas, not from data, but a bound costs nothing.
    if (typeMessages.size < 256) typeMessages.set(type, message);
  }
  return message;
}

/** A message per keyword, built from the schema's parameters, never from the data. */
export function describeError(error: ValidationError): string {
  const p = error.params;
  switch (error.keyword) {
    case "type":
      return typeMessage(String(p["type"]));
    case "required":
      return "is required";
    case "additionalProperties":
    case "unevaluatedProperties":
      return "is not an allowed property";
    case "enum":
      return `must be one of: ${list(p["allowedValues"])}`;
    case "const":
      return `must be ${list(p["allowedValue"])}`;
    case "format":
      return `must be a valid ${String(p["format"])}`;
    case "pattern":
      return `must match the pattern ${String(p["pattern"])}`;
    case "minLength":
      return `must have at least ${plural(p["limit"], "character")}`;
    case "maxLength":
      return `must have at most ${plural(p["limit"], "character")}`;
    case "minItems":
      return `must have at least ${plural(p["limit"], "item")}`;
    case "maxItems":
      return `must have at most ${plural(p["limit"], "item")}`;
    case "minProperties":
      return `must have at least ${plural(p["limit"], "property")}`;
    case "maxProperties":
      return `must have at most ${plural(p["limit"], "property")}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(p["comparison"])} ${String(p["limit"])}`;
    case "multipleOf":
      return `must be a multiple of ${String(p["multipleOf"])}`;
    case "uniqueItems":
      return `must not contain duplicate items (items ${String(p["j"])} and ${String(p["i"])} are equal)`;
    case "anyOf":
      return "must match one of the allowed shapes";
    case "oneOf":
      return Array.isArray(p["passingSchemas"])
        ? "must match exactly one of the allowed shapes, but matches several"
        : "must match exactly one of the allowed shapes";
    case "propertyNames":
      return "has a property name that is not allowed";
    case "discriminator":
      // A tagged union's tag (see generator/discriminators.ts): missing or not a string, or naming no branch.
      return p["error"] === "tag"
        ? "must be a string that selects one of the allowed shapes"
        : "must select one of the allowed shapes";
    case "false schema":
      return "is not allowed";
    default:
      return `fails the ${error.keyword} rule`;
  }
}

/** The property a `required`, `additionalProperties`, `unevaluatedProperties`, `propertyNames` or `discriminator` error is about, if any. */
function namedProperty(error: ValidationError): string | undefined {
  const p = error.params;
  let name: unknown;
  switch (error.keyword) {
    case "required":
      name = p["missingProperty"];
      break;
    case "additionalProperties":
      name = p["additionalProperty"];
      break;
    case "unevaluatedProperties":
      name =
        typeof p["additionalProperty"] === "string"
          ? p["additionalProperty"]
          : p["unevaluatedProperty"];
      break;
    case "propertyNames":
      name = p["propertyName"];
      break;
    case "discriminator":
      // The tag's name (Ajv's `tag`); `tagValue` is data and is never shown.
      name = p["tag"];
      break;
    default:
      return undefined;
  }
  return typeof name === "string" ? name : undefined;
}

/** The path of the field to fix: a missing or extra property is named itself, not its parent. */
function issueSegments(error: ValidationError, data: unknown): PathSegment[] {
  const base = pointerSegments(error.instancePath, data);
  const name = namedProperty(error);
  return name === undefined ? base : [...base, name];
}

/**
 * Paths that did not depend on the data (no token of the pointer could be an
 * array index), by pointer and named property. The same few fields fail call
 * after call, so most invalid calls find their paths here. Bounded in number
 * and length, since a pointer or a property name can be a key that came with
 * the data, and the data must not decide how much memory stays taken.
 */
const knownPaths = new Map<
  string,
  { bare: string | undefined; named: Map<string, string> | undefined }
>();
const MAX_KNOWN_PATHS = 1024;
const MAX_KNOWN_PATH_LENGTH = 256;
let knownPathCount = 0;

function knownPath(
  pointer: string,
  name: string | undefined,
): string | undefined {
  const known = knownPaths.get(pointer);
  if (known === undefined) return undefined;
  return name === undefined ? known.bare : known.named?.get(name);
}

function rememberPath(
  pointer: string,
  name: string | undefined,
  path: string,
): void {
  if (
    knownPathCount >= MAX_KNOWN_PATHS ||
    path.length > MAX_KNOWN_PATH_LENGTH ||
    pointer.length > MAX_KNOWN_PATH_LENGTH
  )
    return;
  let known = knownPaths.get(pointer);
  if (known === undefined) {
    known = { bare: undefined, named: undefined };
    knownPaths.set(pointer, known);
  }
  if (name === undefined) known.bare = path;
  else (known.named ??= new Map()).set(name, path);
  knownPathCount++;
}

/**
 * The same path as `formatPath(issueSegments(error, data))`, written straight
 * from the pointer, with no arrays of tokens or segments: issues are built on
 * every invalid call.
 */
function issuePath(error: ValidationError, data: unknown): string {
  const pointer = error.instancePath;
  const name = namedProperty(error);
  const known = knownPath(pointer, name);
  if (known !== undefined) return known;
  let out = "";
  // Whether the data decided the path: only a token that could be an index lets it.
  let fromData = false;
  if (pointer !== "") {
    if (pointer.charCodeAt(0) !== 47 || pointer.includes("~")) {
      out = formatPath(pointerSegments(pointer, data));
      fromData = true;
    } else {
      let node: unknown = data;
      for (let start = 1; start <= pointer.length;) {
        const slash = pointer.indexOf("/", start);
        const end = slash === -1 ? pointer.length : slash;
        const token = pointer.slice(start, end);
        const index = isIndexToken(token);
        if (index) fromData = true;
        if (index && Array.isArray(node)) {
          out = `${out}[${token}]`;
          node = node[Number(token)];
        } else {
          out = appendName(out, token);
          node =
            node !== null &&
            typeof node === "object" &&
            Object.hasOwn(node, token)
              ? (node as Record<string, unknown>)[token]
              : undefined;
        }
        start = end + 1;
      }
    }
  }
  const path = name === undefined ? out : appendName(out, name);
  if (!fromData) rememberPath(pointer, name, path);
  return path;
}

/**
 * Errors raised inside a failed anyOf/oneOf branch describe shapes the caller
 * may not have meant; the composite error at the union's own path says it
 * better, so branch errors are dropped.
 */
function isUnionError(error: ValidationError): boolean {
  return error.keyword === "anyOf" || error.keyword === "oneOf";
}

function withoutBranchErrors(
  errors: readonly ValidationError[],
): readonly ValidationError[] {
  let unions = false;
  for (const error of errors) if (isUnionError(error)) unions = true;
  if (!unions) return errors;
  const unionSchemaPaths = errors
    .filter(isUnionError)
    .map((e) => (e as ValidationError & { schemaPath?: string }).schemaPath)
    .filter((p): p is string => typeof p === "string");
  if (unionSchemaPaths.length === 0) return errors;
  return errors.filter((e) => {
    const schemaPath = (e as ValidationError & { schemaPath?: string })
      .schemaPath;
    if (typeof schemaPath !== "string") return true;
    return !unionSchemaPaths.some(
      (u) => schemaPath !== u && schemaPath.startsWith(`${u}/`),
    );
  });
}

function hasIssue(
  issues: readonly ToolIssue[],
  path: string,
  message: string,
): boolean {
  for (const issue of issues)
    if (issue.path === path && issue.message === message) return true;
  return false;
}

/**
 * Converts validator errors for `data` into deduplicated, ordered issues.
 * `sensitive` says where the x-sensitive values are (the contract's
 * automaton); any key below one of them is hidden from the issue's path.
 */
export function toIssues(
  errors: readonly ValidationError[] | null | undefined,
  data: unknown,
  sensitive: SensitivePaths = [],
): ToolIssue[] {
  const issues: ToolIssue[] = [];
  if (errors === null || errors === undefined) return issues;
  for (const error of withoutBranchErrors(errors)) {
    const path =
      sensitive.length === 0
        ? issuePath(error, data)
        : formatPath(hideSensitiveKeys(issueSegments(error, data), sensitive));
    const message = describeError(error);
    // At most MAX_ISSUES kept, so a scan for duplicates costs less than hashing every key.
    if (hasIssue(issues, path, message)) continue;
    issues.push({ path, message });
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}
