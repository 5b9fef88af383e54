/**
 * A contract's output and declared errors from an operation's responses.
 * The output is the first 2xx response's JSON schema, whatever its root:
 * an array or a string answer is the output as it is (an outputSchema may
 * have any root since MCP 2026-07-28, SEP-2106; docs/contract-format.md
 * says how a 2025-era client gets it). A 2xx without content is `{}`; one
 * with non-JSON content becomes a content block (text, image, audio or an
 * embedded resource) and the output says its media type. Each 4xx with a
 * status code is a declared error, and every tool rejects an undeclared 4xx
 * with a reason of its own (buildErrors).
 */
import { pointerJoin, type Reporter } from "../problems.js";
import { defsEntryName } from "../../schema/refs.js";
import { isObjectSchema } from "../../schema/walk.js";
import type { SuccessBinding } from "./binding.js";
import type { Operation, ResponseSpec } from "./model.js";
import { isJsonMediaType } from "./model.js";
import type { Conversions } from "./report.js";
import type { SchemaConverter } from "./schemas.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

/** Reason codes for the 4xx statuses (RFC 9110 §15.5 reason phrases). */
const REASONS: Record<string, string> = {
  "400": "BAD_REQUEST",
  "401": "UNAUTHORIZED",
  "402": "PAYMENT_REQUIRED",
  "403": "FORBIDDEN",
  "404": "NOT_FOUND",
  "405": "METHOD_NOT_ALLOWED",
  "406": "NOT_ACCEPTABLE",
  "407": "PROXY_AUTHENTICATION_REQUIRED",
  "408": "REQUEST_TIMEOUT",
  "409": "CONFLICT",
  "410": "GONE",
  "411": "LENGTH_REQUIRED",
  "412": "PRECONDITION_FAILED",
  "413": "CONTENT_TOO_LARGE",
  "414": "URI_TOO_LONG",
  "415": "UNSUPPORTED_MEDIA_TYPE",
  "416": "RANGE_NOT_SATISFIABLE",
  "417": "EXPECTATION_FAILED",
  "421": "MISDIRECTED_REQUEST",
  "422": "UNPROCESSABLE_CONTENT",
  "423": "LOCKED",
  "424": "FAILED_DEPENDENCY",
  "425": "TOO_EARLY",
  "426": "UPGRADE_REQUIRED",
  "428": "PRECONDITION_REQUIRED",
  "431": "REQUEST_HEADER_FIELDS_TOO_LARGE",
  "451": "UNAVAILABLE_FOR_LEGAL_REASONS",
};

export interface BuiltOutput {
  readonly schema: JsonObject;
  readonly success: SuccessBinding;
  readonly content: readonly string[] | undefined;
  readonly failed: boolean;
}

const EMPTY: JsonObject = { type: "object", properties: {}, additionalProperties: false };

function successResponses(op: Operation): ResponseSpec[] {
  const numeric = op.responses.filter((r) => /^2\d\d$/.test(r.status)).sort((a, b) => Number(a.status) - Number(b.status));
  return [...numeric, ...op.responses.filter((r) => r.status === "2XX")];
}

function contentBlock(mediaType: string): "text" | "image" | "audio" | "resource" {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  if (essence.startsWith("text/")) return "text";
  if (essence.startsWith("image/")) return "image";
  if (essence.startsWith("audio/")) return "audio";
  return "resource";
}

export function buildOutput(op: Operation, converter: SchemaConverter, conversions: Conversions, report: Reporter): BuiltOutput {
  const responses = successResponses(op);
  const chosen = responses.find((r) => r.schema !== undefined && r.mediaType !== undefined && isJsonMediaType(r.mediaType)) ?? responses[0];
  if (!chosen || chosen.mediaType === undefined) {
    if (!chosen) report.warn(pointerJoin(op.pointer, "responses"), "no 2xx response is declared: the output is `{}` and any 2xx answer is accepted as such");
    return { schema: EMPTY, success: { kind: "empty" }, content: undefined, failed: false };
  }
  for (const other of responses) {
    if (other === chosen || other.schema === undefined || JSON.stringify(other.schema) === JSON.stringify(chosen.schema)) continue;
    report.warn(
      other.pointer,
      `the ${other.status} response's schema differs from the ${chosen.status} response's; the output declares ${chosen.status}'s, so a ${other.status} answer of another shape is INVALID_OUTPUT`,
    );
  }
  if (isJsonMediaType(chosen.mediaType) && chosen.schema === undefined) {
    conversions.add(
      "JSON answer without a schema",
      chosen.pointer,
      `the ${chosen.status} answer is JSON without a schema: the output accepts any JSON value, as it arrives`,
    );
    return { schema: {}, success: { kind: "json" }, content: undefined, failed: false };
  }
  if (!isJsonMediaType(chosen.mediaType) || chosen.schema === undefined) {
    const block = contentBlock(chosen.mediaType);
    conversions.add("non-JSON response", chosen.pointer, `${chosen.mediaType} answers come back as a ${block} content block; the output says the media type`);
    const schema: JsonObject = {
      type: "object",
      properties: { contentType: { type: "string", description: "The media type of the answer, which follows as a content block." } },
      required: ["contentType"],
    };
    return { schema, success: { kind: "content", block }, content: [block], failed: false };
  }
  const converted = converter.convertRoot(chosen.schema, chosen.pointer, "output", report);
  const root = rootObject(converted.schema, converted.defs, converter, chosen.schema);
  if (root !== undefined) {
    return { schema: withDefs(root, converted.defs), success: { kind: "json" }, content: undefined, failed: converted.failed };
  }
  const resolved = converter.resolve(chosen.schema);
  const kind = isJsonObject(resolved) && (resolved.type === "array" || "items" in resolved) ? "array output" : "non-object output";
  conversions.add(
    kind,
    chosen.pointer,
    `the ${chosen.status} answer is not an object; the output is the answer as it is, which a 2025-era MCP client receives as { result: answer }`,
  );
  // OpenAPI 3.1 allows a boolean schema: `true` accepts any answer, as `{}` does; `false` none, which no tool can serve.
  if (converted.schema === false) report.error(chosen.pointer, `the ${chosen.status} answer's schema is \`false\`, which accepts no answer`);
  const schema = isJsonObject(converted.schema) ? converted.schema : {};
  return { schema: withDefs(schema, converted.defs), success: { kind: "json" }, content: undefined, failed: converted.failed || converted.schema === false };
}

/**
 * The output root when the answer is an object: its converted schema, or
 * for a `$ref` the entry it names, copied to the root (a contract's root is
 * `type: object`, not a reference). `type: object` is written when only
 * `properties` or an `allOf` of objects said so.
 */
function rootObject(schema: unknown, defs: JsonObject, converter: SchemaConverter, original: unknown): JsonObject | undefined {
  let node = schema;
  if (isJsonObject(node) && typeof node.$ref === "string" && isJsonObject(original) && typeof original.$ref === "string") {
    const name = converter.defNameOfRef(original.$ref);
    node = name === undefined ? undefined : defs[name];
  }
  if (!isJsonObject(node) || typeof node.$ref === "string") return undefined;
  if (node.type === "object") return node;
  if (node.type === undefined && isObjectSchema(node)) return { type: "object", ...node };
  const branches = Array.isArray(node.allOf) ? node.allOf : undefined;
  if (node.type === undefined && branches && branches.some((b) => isObjectBranch(b, defs)))
    return { type: "object", ...node, allOf: branches.map((b) => nonNullBranch(b, defs)) };
  return undefined;
}

/**
 * A branch of the root's `allOf` that also allows null (a nullable
 * component) is copied without the null: the root is an object, so the
 * null could never match, and Ajv's strict mode refuses a branch whose type
 * the root excludes.
 */
function nonNullBranch(branch: JsonObject[string], defs: JsonObject): JsonObject[string] {
  const target = isJsonObject(branch) && typeof branch.$ref === "string" ? defTarget(branch.$ref, defs) : branch;
  if (!isJsonObject(target) || !Array.isArray(target.type) || !target.type.includes("null")) return branch;
  const type = target.type.filter((t) => t !== "null");
  return { ...target, type: type.length === 1 ? type[0]! : type };
}

function isObjectBranch(branch: unknown, defs: JsonObject): boolean {
  if (!isJsonObject(branch)) return false;
  const target = typeof branch.$ref === "string" ? defTarget(branch.$ref, defs) : branch;
  return isJsonObject(target) && isObjectSchema(target);
}

/** The converted `$defs` entry a converted `$ref` names (SchemaConverter writes them `#/$defs/<name>`). */
function defTarget(ref: string, defs: JsonObject): JsonObject[string] | undefined {
  const name = defsEntryName(ref);
  return name === undefined || !Object.hasOwn(defs, name) ? undefined : defs[name];
}

function withDefs(schema: JsonObject, defs: JsonObject): JsonObject {
  if (Object.keys(defs).length === 0) return schema;
  return { ...schema, $defs: { ...(isJsonObject(schema.$defs) ? schema.$defs : {}), ...defs } };
}

export interface BuiltErrors {
  readonly errors: JsonObject;
  /** HTTP status → reason. */
  readonly byStatus: Record<string, string>;
}

/**
 * Reasons every tool has for a 4xx its description does not declare, so the
 * agent gets the status and the API's own message (REJECTED) rather than a
 * bare FAILED. `4XX` stands for any other 4xx status.
 */
const UNDECLARED: readonly (readonly [status: string, reason: string, description: string])[] = [
  ["404", "NOT_FOUND", "The API answered 404: what the call names does not exist (check the ids)."],
  ["409", "CONFLICT", "The API answered 409: the call conflicts with the current state of what it changes."],
  ["422", "UNPROCESSABLE_CONTENT", "The API answered 422: it understood the call but refused its values; the message says why."],
  ["4XX", "HTTP_4XX", "The API refused the call with another 4xx status; the message gives the status and the API's words."],
];

const RATE_LIMITED: readonly [string, string, string] = [
  "429",
  "RATE_LIMITED",
  "The API answered 429: too many calls; the message says when to try again (Retry-After).",
];

/**
 * The contract's errors and the status → reason table the handler reads.
 * 429 is transient (retried per the contract's policy) on a tool that is
 * retried; on one that is not, it is RATE_LIMITED, since a FAILED would say
 * the write may have applied, and a 429 never applies.
 */
export function buildErrors(op: Operation, conversions: Conversions, retried: boolean): BuiltErrors {
  const errors: JsonObject = {};
  const byStatus: Record<string, string> = {};
  for (const response of op.responses) {
    if (!/^4\d\d$/.test(response.status)) {
      if (/^4XX$/i.test(response.status)) {
        conversions.add("4XX range", response.pointer, "a 4XX range has no code of its own: another 4xx answer is rejected as HTTP_4XX");
        if (response.description.trim() !== "") errors.HTTP_4XX = { description: response.description.trim() };
      }
      continue;
    }
    if (response.status === "429" && retried) {
      conversions.add("429", response.pointer, "429 is a transient failure (retried per the contract's policy), not a declared error");
      continue;
    }
    const reason = response.status === "429" ? RATE_LIMITED[1] : (REASONS[response.status] ?? `HTTP_${response.status}`);
    byStatus[response.status] = reason;
    errors[reason] = { description: response.description.trim() === "" ? `HTTP ${response.status}` : response.description.trim() };
  }
  for (const [status, reason, description] of retried ? UNDECLARED : [...UNDECLARED, RATE_LIMITED]) {
    if (Object.hasOwn(byStatus, status)) continue;
    byStatus[status] = reason;
    if (!Object.hasOwn(errors, reason)) errors[reason] = { description };
  }
  return { errors, byStatus };
}
