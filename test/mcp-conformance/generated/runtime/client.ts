// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The typed client: one method per tool over an SDK `Client`. It checks the
 * input before sending and the output on receipt, and turns every outcome,
 * including a server that breaks the contract, into a ToolResult.
 */
import {
  receivesWrappedOutput,
  requestToolCall,
  sdkAuthFailure,
  sdkErrorKind,
  type CallToolResult,
  type Client,
} from "./sdk.js";
import type { SdkRequestOptions } from "./sdk-port.js";
import { checkContent } from "./content.js";
import type {
  AnyToolContract,
  ContractMap,
  InputOf,
  OutputOf,
  ReasonOf,
  ToolValidators,
} from "./contract.js";
import type { ToolFailure, ToolIssue, ToolResult } from "./envelope.js";
import { MAX_ISSUES, toIssues } from "./issues.js";
import { copyJson, notJsonMessage } from "./json.js";
import {
  completedEffect,
  failure,
  isRetrySafe,
  truncate,
  uncertainEffect,
} from "./policy.js";
import { collectSecrets, redactText, type Secrets } from "./redact.js";
import { hasWithheld, withhold } from "./sensitive.js";
import { naturalOutput } from "./legacy-output.js";
import type { LoopGuard } from "./loop-guard.js";
import { FAILURE_META_KEY } from "./server.js";
import { validatorsOf } from "./validators.js";
import { dropUnknownProperties } from "./unknown-properties.js";
import { parseEnvelope } from "./wire.js";

export interface CallOptions {
  signal?: AbortSignal;
  /** The conversation's loop guard (runtime/loop-guard.ts): a call it refuses is never sent. */
  guard?: LoopGuard;
  /** Request timeout; defaults to the SDK's (60 s). */
  timeoutMs?: number;
}

/**
 * Why the typed client reports a call refused at the HTTP layer (code
 * REJECTED, nothing ran): the server wants a valid access token (401), or a
 * token with more scopes (403 insufficient_scope; the message names them).
 */
export type AccessReason = "UNAUTHORIZED" | "INSUFFICIENT_SCOPE";

export type ToolClient<M extends ContractMap> = {
  [K in keyof M]: (
    input: InputOf<M[K]>,
    options?: CallOptions,
  ) => Promise<ToolResult<OutputOf<M[K]>, ReasonOf<M[K]> | AccessReason>>;
};

type Result = ToolResult<unknown, string>;

/** The text blocks of a result, joined. */
function textOf(result: CallToolResult): string {
  return result.content
    .filter(
      (block): block is { type: "text"; text: string } =>
        block.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join("\n");
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A server's envelope as this client passes it on: every string it carries
 * scrubbed of the call's secrets (a server may echo them anywhere), named
 * for the tool that was called, and with the retry verdict this contract
 * allows. A server cannot make a call retryable that the contract says is
 * not safe to retry.
 */
function trusted(
  contract: AnyToolContract,
  envelope: ToolFailure<string>,
  secrets: Secrets,
): Result {
  const message = redactText(envelope.message, secrets);
  if (envelope.code === "RETRYABLE" && !isRetrySafe(contract)) {
    const said = `The server reported a retryable failure, but the contract says the tool is not safe to retry, and it may have taken effect. The server said: ${truncate(message, 300)}`;
    return {
      ...failure(contract, "FAILED", said, false, "unknown", envelope.attempts),
      version: envelope.version,
    };
  }
  const issues = envelope.issues?.slice(0, MAX_ISSUES).map((i) => ({
    path: redactText(i.path, secrets),
    message: redactText(i.message, secrets),
  }));
  const details = {
    ...(issues === undefined ? {} : { issues }),
    ...(envelope.reason === undefined ? {} : { reason: envelope.reason }),
  };
  const code = envelope.code;
  return {
    ...failure(
      contract,
      code,
      message,
      code === "RETRYABLE",
      envelope.effect,
      envelope.attempts,
      details,
    ),
    version: envelope.version,
  };
}

/** isError: the server's envelope if it sent one we can trust, else its text as a FAILED message. */
function fromError(
  contract: AnyToolContract,
  result: CallToolResult,
  secrets: Secrets,
): Result {
  const meta = result._meta;
  const candidates = [
    meta !== undefined && Object.hasOwn(meta, FAILURE_META_KEY)
      ? meta[FAILURE_META_KEY]
      : undefined,
    tryParse(textOf(result)),
  ];
  for (const candidate of candidates) {
    const envelope = parseEnvelope(contract, candidate);
    if (envelope !== undefined) return trusted(contract, envelope, secrets);
  }
  const text = truncate(redactText(textOf(result).trim(), secrets), 300);
  return failure(
    contract,
    "FAILED",
    text === "" ? "The tool failed and the server gave no details." : text,
    false,
    "unknown",
    1,
  );
}

/**
 * The output a success carries: structuredContent, any JSON value, taken out
 * of its `{ result }` wrapper when the connection is 2025-era and the output
 * schema's root is not an object (runtime/legacy-output.ts); from older
 * servers that send no structuredContent, the JSON text. Undefined when a
 * wrapper was due and is not there.
 */
function receivedOutput(
  contract: AnyToolContract,
  result: CallToolResult,
  wrapped: boolean,
): { readonly value: unknown } | undefined {
  // `null` is a value here: a 2026-07-28 server sends it as it is for a nullable output.
  if (result.structuredContent === undefined)
    return { value: tryParse(textOf(result)) };
  return wrapped
    ? naturalOutput(result.structuredContent, contract.outputSchema)
    : { value: result.structuredContent };
}

/**
 * Success: the output must match the output schema, once the properties this
 * client does not know are dropped.
 */
function fromSuccess(
  contract: AnyToolContract,
  { validateOutput }: ToolValidators,
  result: CallToolResult,
  wrapped: boolean,
): Result {
  const received = receivedOutput(contract, result, wrapped);
  const copy = received === undefined ? undefined : copyJson(received.value);
  if (copy?.ok) dropUnknownProperties(contract.outputSchema, copy.value);
  if (copy === undefined || !copy.ok || !validateOutput(copy.value)) {
    return failure(
      contract,
      "INVALID_OUTPUT",
      "The server returned output that does not match the tool's output schema.",
      false,
      completedEffect(contract),
      1,
    );
  }
  let data = copy.value;
  // A server that sends what the contract withholds (an older one, say) does not get it past this client either.
  if (hasWithheld(contract.sensitive.output)) {
    data = withhold(data, contract.sensitive.output);
    if (!validateOutput(data))
      return failure(
        contract,
        "INVALID_OUTPUT",
        "The server returned output that does not match the tool's output schema.",
        false,
        completedEffect(contract),
        1,
      );
  }
  const attached = attachmentsOf(result);
  if (attached.length === 0) return { ok: true, data };
  const checked = checkContent(attached, contract.content);
  if (!checked.ok)
    return failure(
      contract,
      "INVALID_OUTPUT",
      "The server returned content blocks that do not match the tool's contract.",
      false,
      completedEffect(contract),
      1,
    );
  return { ok: true, data, content: checked.blocks };
}

/** The blocks after the output's JSON text block: what the server's handler attached. */
function attachmentsOf(result: CallToolResult): unknown[] {
  const [first, ...rest] = result.content;
  return first === undefined
    ? []
    : first.type === "text"
      ? rest
      : result.content;
}

/** Scope names as a challenge gave them, kept to the OAuth scope-token alphabet: the header is the server's text. */
function scopeList(scopes: string | undefined): string {
  const names = (scopes ?? "")
    .split(" ")
    .filter((s) => /^[!#-[\]-~]{1,128}$/.test(s))
    .slice(0, 20);
  return names.length === 0 ? "" : `: ${names.join(" ")}`;
}

/** A 401 or 403 from the server's authorization: nothing ran, and retrying with the same token will not help. */
function fromAuthFailure(
  contract: AnyToolContract,
  failed: NonNullable<ReturnType<typeof sdkAuthFailure>>,
): Result {
  if (failed.kind === "unauthorized") {
    return failure(
      contract,
      "REJECTED",
      "The server refused the call: it needs a valid access token (HTTP 401).",
      false,
      "none",
      0,
      { reason: "UNAUTHORIZED" },
    );
  }
  const message = `The server refused the call: the access token lacks a scope it needs (HTTP 403 insufficient_scope)${scopeList(failed.scopes)}.`;
  return failure(contract, "REJECTED", message, false, "none", 0, {
    reason: "INSUFFICIENT_SCOPE",
  });
}

/** Errors from the SDK: protocol refusals, timeouts, broken connections, cancellation. */
function fromThrown(
  contract: AnyToolContract,
  error: unknown,
  options: CallOptions,
  secrets: Secrets,
): Result {
  if (options.signal?.aborted)
    return failure(
      contract,
      "FAILED",
      "The call was cancelled.",
      false,
      uncertainEffect(contract),
      1,
    );
  const denied = sdkAuthFailure(error);
  if (denied !== undefined) return fromAuthFailure(contract, denied);
  const kind = sdkErrorKind(error);
  if (kind === "timeout") {
    if (isRetrySafe(contract))
      return failure(
        contract,
        "RETRYABLE",
        "The server did not answer in time.",
        true,
        uncertainEffect(contract),
        1,
      );
    return failure(
      contract,
      "FAILED",
      "The server did not answer in time; the call is not safe to retry and may have taken effect.",
      false,
      "unknown",
      1,
    );
  }
  // The server refused the request itself (unknown tool, malformed call): nothing ran.
  const refused = kind === "refused";
  const detail =
    error instanceof Error
      ? truncate(redactText(error.message, secrets), 300)
      : "unknown error";
  return failure(
    contract,
    "FAILED",
    `The call failed: ${detail}`,
    false,
    refused ? "none" : uncertainEffect(contract),
    refused ? 0 : 1,
  );
}

function invalidInput(contract: AnyToolContract, issues: ToolIssue[]): Result {
  return failure(
    contract,
    "INVALID_INPUT",
    "The input does not match the tool's input schema.",
    false,
    "none",
    0,
    { issues },
  );
}

function requestOptions(options: CallOptions): SdkRequestOptions {
  const out: SdkRequestOptions = {};
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeoutMs !== undefined) out.timeout = options.timeoutMs;
  return out;
}

async function call(
  contract: AnyToolContract,
  client: Client,
  input: unknown,
  options: CallOptions = {},
): Promise<Result> {
  // The input as it is now, before any await: what is checked and what is sent, whatever the caller does to its object later.
  const sent = copyJson(input);
  if (!sent.ok)
    return invalidInput(contract, [
      { path: "", message: notJsonMessage(sent, contract.sensitive.input) },
    ]);
  const secrets = collectSecrets(sent.value, contract.sensitive.input);
  const validators = await validatorsOf(contract);
  // Validated as a second copy, since the validator applies defaults in place: the server applies its own, so none are sent.
  const checked = (validators.copyInput ?? copyJson)(sent.value);
  if (!checked.ok)
    return invalidInput(contract, [
      { path: "", message: notJsonMessage(checked, contract.sensitive.input) },
    ]);
  if (!validators.validateInput(checked.value)) {
    const issues = toIssues(
      validators.validateInput.errors,
      checked.value,
      contract.sensitive.input,
    ).map((i) => ({
      path: redactText(i.path, secrets),
      message: redactText(i.message, secrets),
    }));
    return invalidInput(contract, issues);
  }
  try {
    const params = {
      name: contract.name,
      arguments: sent.value as Record<string, unknown>,
    };
    const result = await requestToolCall(
      client,
      params,
      requestOptions(options),
      { name: contract.name, inputSchema: contract.inputSchema },
    );
    return result.isError === true
      ? fromError(contract, result, secrets)
      : fromSuccess(
          contract,
          validators,
          result,
          receivesWrappedOutput(client),
        );
  } catch (error) {
    return fromThrown(contract, error, options, secrets);
  }
}

/** A typed client for every contract in `contracts`. Methods never throw. */
export function createToolClient<M extends ContractMap>(
  contracts: M,
  client: Client,
): ToolClient<M> {
  const methods: {
    [key: string]: (input: unknown, options?: CallOptions) => Promise<Result>;
  } = {};
  for (const [key, contract] of Object.entries(contracts)) {
    const method = async (
      input: unknown,
      options?: CallOptions,
    ): Promise<Result> => {
      try {
        const guard = options?.guard;
        if (guard === undefined)
          return await call(contract, client, input, options);
        return await guard.run(contract, contract.name, input, undefined, () =>
          call(contract, client, input, options),
        );
      } catch {
        return failure(
          contract,
          "FAILED",
          "The call failed unexpectedly.",
          false,
          uncertainEffect(contract),
          0,
        );
      }
    };
    // defineProperty: a tool may legally be named "__proto__".
    Object.defineProperty(methods, key, { value: method, enumerable: true });
  }
  return methods as unknown as ToolClient<M>;
}
