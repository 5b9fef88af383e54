// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * A call's input before its first attempt: a copy of the caller's value,
 * validated with defaults applied (or the INVALID_INPUT envelope, traced),
 * and the idempotency key it carries. Each retry starts again from the copy.
 */
import type { AnyToolContract, ToolValidators } from "./contract.js";
import type { ToolFailure, ToolIssue } from "./envelope.js";
import { toIssues } from "./issues.js";
import { copyJson, notJsonMessage } from "./json.js";
import { failure } from "./policy.js";
import { collectSecrets } from "./redact.js";
import { emit, MESSAGES, redactIssues, type CallView } from "./settle.js";

/** What of a call its input is read from. */
export interface CallInput extends CallView {
  /** The caller's value, never modified. */
  readonly rawInput: unknown;
  readonly validators: ToolValidators;
}

type Prepared =
  { ok: true; input: unknown } | { ok: false; issues: ToolIssue[] };

/** A fresh copy of the caller's input, validated with defaults applied, or its issues. */
export function prepare(call: CallInput): Prepared {
  const { contract } = call;
  const copy = (call.validators.copyInput ?? copyJson)(call.rawInput);
  let issues: ToolIssue[];
  if (!copy.ok)
    issues = [
      { path: "", message: notJsonMessage(copy, contract.sensitive.input) },
    ];
  else {
    const { validateInput } = call.validators;
    const valid = validateInput(copy.value);
    // Collected even from invalid input: its values must not leak either.
    collectSecrets(copy.value, contract.sensitive.input, call.secrets);
    if (valid) return { ok: true, input: copy.value };
    issues = toIssues(
      validateInput.errors,
      copy.value,
      contract.sensitive.input,
    );
  }
  return { ok: false, issues };
}

/** The validated input for the first attempt; on failure, the INVALID_INPUT envelope. */
export function prepareInput(
  call: CallInput,
): { ok: true; input: unknown } | { ok: false; result: ToolFailure<string> } {
  const { contract } = call;
  const prepared = prepare(call);
  if (prepared.ok) return prepared;
  const safe = call.secrets.empty
    ? prepared.issues
    : redactIssues(prepared.issues, call.secrets);
  if (call.options.onTrace)
    emit(call, {
      attempt: 0,
      durationMs: 0,
      code: "INVALID_INPUT",
      effect: "none",
      issuePaths: safe.map((i) => i.path),
    });
  return {
    ok: false,
    result: failure(
      contract,
      "INVALID_INPUT",
      MESSAGES.invalidInput,
      false,
      "none",
      0,
      { issues: safe },
    ),
  };
}

export function idempotencyKeyOf(
  contract: AnyToolContract,
  input: unknown,
): string | undefined {
  const key = contract.idempotencyKey;
  if (
    key === undefined ||
    input === null ||
    typeof input !== "object" ||
    !Object.hasOwn(input, key)
  )
    return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}
