/**
 * One attempt: run the handler under a deadline, then sort whatever happened
 * into an outcome. Nothing here decides about retries; executor.ts does.
 */
import type { AnyToolContract } from "./contract.js";
import type { ToolIssue } from "./envelope.js";
import { isRejectionSignal, isTransientError, RejectionSignal } from "./errors.js";
import { toIssues } from "./issues.js";
import { copyJson } from "./json.js";
import type { Classification, ExecuteOptions, HandlerContext } from "./types.js";

/** The handler, with the contract's types erased. */
export type AnyHandler = (input: unknown, ctx: HandlerContext<string>) => unknown;

export type Outcome =
  | { kind: "ok"; data: unknown }
  | { kind: "invalid-output"; issues: ToolIssue[]; output: unknown }
  | { kind: "rejected"; reason: string; detail: string | undefined }
  | { kind: "undeclared-reason"; error: RejectionSignal }
  | { kind: "transient"; error: unknown; timedOut: boolean; retryAfterMs: number | undefined }
  | { kind: "cancelled"; error: unknown }
  | { kind: "failed"; error: unknown };

export interface AttemptSpec {
  contract: AnyToolContract;
  handler: AnyHandler;
  input: unknown;
  attempt: number;
  timeoutMs: number;
  idempotencyKey: string | undefined;
  options: ExecuteOptions;
}

/** The abort reason on ctx.signal when the deadline passes. */
export class ToolTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The tool did not finish within ${timeoutMs} ms.`);
    this.name = "TimeoutError";
  }
}

type Settled = { threw: false; value: unknown } | { threw: true; error: unknown };
type Stopped = { stopped: "timeout" | "cancelled" };

function makeContext(spec: AttemptSpec, signal: AbortSignal): HandlerContext<string> {
  return {
    signal,
    attempt: spec.attempt,
    idempotencyKey: spec.idempotencyKey,
    reject(reason: string, message?: string): never {
      throw new RejectionSignal(reason, message);
    },
  };
}

/** Races the handler against the deadline and the caller's signal; the executor stops waiting at either. */
async function race(spec: AttemptSpec): Promise<{ result: Settled | Stopped; signal: AbortSignal }> {
  const controller = new AbortController();
  const caller = spec.options.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onCallerAbort: (() => void) | undefined;
  const stop = new Promise<Stopped>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new ToolTimeoutError(spec.timeoutMs));
      resolve({ stopped: "timeout" });
    }, spec.timeoutMs);
    onCallerAbort = () => {
      controller.abort(caller?.reason);
      resolve({ stopped: "cancelled" });
    };
    if (caller?.aborted) onCallerAbort();
    else caller?.addEventListener("abort", onCallerAbort, { once: true });
  });
  const run = new Promise<unknown>((resolve) => resolve(spec.handler(spec.input, makeContext(spec, controller.signal))));
  const settled = run.then(
    (value): Settled => ({ threw: false, value }),
    (error: unknown): Settled => ({ threw: true, error }),
  );
  try {
    return { result: await Promise.race([settled, stop]), signal: controller.signal };
  } finally {
    clearTimeout(timer);
    if (onCallerAbort) caller?.removeEventListener("abort", onCallerAbort);
  }
}

function askClassify(options: ExecuteOptions, error: unknown): Classification {
  try {
    return options.classify?.(error);
  } catch {
    // A broken hook must not turn a handler error into an executor crash.
    return undefined;
  }
}

function transient(error: unknown, retryAfterMs: number | undefined): Outcome {
  const after = typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : undefined;
  return { kind: "transient", error, timedOut: false, retryAfterMs: after };
}

/** Sorts a thrown value: rejection, then the user's classify hook, then TransientError, else failed. */
export function classifyThrown(contract: AnyToolContract, options: ExecuteOptions, error: unknown): Outcome {
  if (isRejectionSignal(error)) {
    if (!Object.hasOwn(contract.errors, error.reason)) return { kind: "undeclared-reason", error };
    return { kind: "rejected", reason: error.reason, detail: error.detail };
  }
  const verdict = askClassify(options, error);
  if (verdict === "failed") return { kind: "failed", error };
  if (verdict === "transient") return transient(error, isTransientError(error) ? error.retryAfterMs : undefined);
  if (typeof verdict === "object" && verdict !== null && verdict.transient === true) return transient(error, verdict.retryAfterMs);
  if (isTransientError(error)) return transient(error, error.retryAfterMs);
  return { kind: "failed", error };
}

/** Copies the output to plain JSON and validates it; the copy is what the caller gets. */
export function checkOutput(contract: AnyToolContract, value: unknown): Outcome {
  const copy = copyJson(value);
  if (!copy.ok) return { kind: "invalid-output", issues: [{ path: "", message: copy.message }], output: undefined };
  if (contract.validateOutput(copy.value)) return { kind: "ok", data: copy.value };
  return { kind: "invalid-output", issues: toIssues(contract.validateOutput.errors, copy.value), output: copy.value };
}

export async function runAttempt(spec: AttemptSpec): Promise<Outcome> {
  const { result, signal } = await race(spec);
  if ("stopped" in result) {
    if (result.stopped === "timeout") return { kind: "transient", error: signal.reason, timedOut: true, retryAfterMs: undefined };
    return { kind: "cancelled", error: signal.reason };
  }
  if (!result.threw) return checkOutput(spec.contract, result.value);
  // A handler that rethrows an AbortError the deadline caused has timed out, whatever it threw.
  if (signal.aborted && signal.reason instanceof ToolTimeoutError && !isRejectionSignal(result.error)) {
    return { kind: "transient", error: result.error, timedOut: true, retryAfterMs: undefined };
  }
  if (signal.aborted && spec.options.signal?.aborted && !isRejectionSignal(result.error)) return { kind: "cancelled", error: result.error };
  return classifyThrown(spec.contract, spec.options, result.error);
}
