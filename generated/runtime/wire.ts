// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Reading a failure envelope that arrived from a server. It is untrusted
 * data: only a value with exactly the envelope's shape is accepted, and only
 * the envelope's own fields are kept.
 */
import type { AnyToolContract } from "./contract.js";
import type {
  ToolEffect,
  ToolErrorCode,
  ToolFailure,
  ToolIssue,
} from "./envelope.js";
import { truncate } from "./policy.js";

const CODES: readonly ToolErrorCode[] = [
  "INVALID_INPUT",
  "INVALID_OUTPUT",
  "RETRYABLE",
  "REJECTED",
  "FAILED",
];
const EFFECTS: readonly ToolEffect[] = ["none", "applied", "unknown"];
/** Why a server's authorization refuses a call (client.ts's AccessReason): every tool's typed result includes them. */
const ACCESS_REASONS: readonly string[] = [
  "UNAUTHORIZED",
  "INSUFFICIENT_SCOPE",
];

/** Any object, with the fields we look at typed as unknown until checked. */
type Loose = { readonly [K in keyof ToolFailure<string> | "path"]?: unknown };

const isRecord = (v: unknown): v is Loose =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const isCount = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0;

function parseIssues(value: unknown): ToolIssue[] | undefined | false {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return false;
  const issues: ToolIssue[] = [];
  for (const item of value) {
    if (
      !isRecord(item) ||
      typeof item.path !== "string" ||
      typeof item.message !== "string"
    )
      return false;
    issues.push({ path: item.path, message: truncate(item.message, 300) });
  }
  return issues;
}

function hasShape(v: Loose): boolean {
  return (
    v.ok === false &&
    CODES.includes(v.code as ToolErrorCode) &&
    typeof v.message === "string" &&
    typeof v.retryable === "boolean" &&
    EFFECTS.includes(v.effect as ToolEffect) &&
    typeof v.tool === "string" &&
    typeof v.version === "number" &&
    isCount(v.attempts) &&
    (v.reason === undefined || typeof v.reason === "string")
  );
}

/** The envelope in `value`, or undefined if `value` is not one. */
export function parseEnvelope(
  contract: AnyToolContract,
  value: unknown,
): ToolFailure<string> | undefined {
  if (!isRecord(value) || !hasShape(value)) return undefined;
  const issues = parseIssues(value.issues);
  if (issues === false) return undefined;
  const code = value.code as ToolErrorCode;
  // Only REJECTED has a reason, one the contract declares (checked below); on any other code it is none of the envelope's, and may carry anything.
  const reason =
    code === "REJECTED" ? (value.reason as string | undefined) : undefined;
  const envelope: ToolFailure<string> = {
    ok: false,
    code,
    message: truncate(value.message as string),
    ...(issues === undefined ? {} : { issues }),
    ...(reason === undefined ? {} : { reason }),
    retryable: value.retryable as boolean,
    effect: value.effect as ToolEffect,
    tool: value.tool as string,
    version: value.version as number,
    attempts: value.attempts as number,
  };
  // A REJECTED envelope's reason is typed to the contract's errors and the server's access reasons; a server that sends another breaks it.
  if (
    code === "REJECTED" &&
    (reason === undefined ||
      !(
        Object.hasOwn(contract.errors, reason) ||
        ACCESS_REASONS.includes(reason)
      ))
  ) {
    const message =
      "The server rejected the call with a reason the contract does not declare.";
    return {
      ok: false,
      code: "FAILED",
      message,
      retryable: false,
      effect: envelope.effect,
      tool: envelope.tool,
      version: envelope.version,
      attempts: envelope.attempts,
    };
  }
  return envelope;
}
