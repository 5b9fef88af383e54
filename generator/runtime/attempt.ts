/**
 * One attempt: run the handler under a deadline, then sort whatever happened
 * into an outcome. Nothing here decides about retries; executor.ts does.
 */
import { checkContent, type ContentBlock } from "./content.js";
import type { AnyToolContract, ToolValidators } from "./contract.js";
import type { ToolIssue } from "./envelope.js";
import { isRejectionSignal, isTransientError, RejectionSignal } from "./errors.js";
import { toIssues } from "./issues.js";
import { clearDeadline, setDeadline } from "./deadline.js";
import { copyJson } from "./json.js";
import { checkedProgress, deliver, isLoggingLevel, NOTHING_SENT, plainLogData, type ProgressFloor } from "./notify.js";
import type { Classification, ExecuteOptions, HandlerContext, LoggingLevel, ProgressUpdate } from "./types.js";

/** The handler, with the contract's types erased. */
export type AnyHandler = (input: unknown, ctx: HandlerContext<string>) => unknown;

export type Outcome =
  | { kind: "ok"; data: unknown; content?: ContentBlock[] }
  | { kind: "invalid-output"; issues: ToolIssue[]; output: unknown }
  | { kind: "rejected"; reason: string; detail: string | undefined }
  | { kind: "undeclared-reason"; error: RejectionSignal }
  | { kind: "transient"; error: unknown; timedOut: boolean; retryAfterMs: number | undefined }
  | { kind: "cancelled"; error: unknown }
  | { kind: "failed"; error: unknown };

export interface AttemptSpec {
  contract: AnyToolContract;
  validators: ToolValidators;
  handler: AnyHandler;
  input: unknown;
  attempt: number;
  timeoutMs: number;
  idempotencyKey: string | undefined;
  options: ExecuteOptions;
  /** Per call, not per attempt: progress must increase across retries too. */
  progressFloor: ProgressFloor;
}

/** The abort reason on ctx.signal when the deadline passes. */
export class ToolTimeoutError extends Error {
  // Fields assigned in the constructor, not parameter properties: those are not erasable syntax.
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`The tool did not finish within ${timeoutMs} ms.`);
    this.name = "TimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

type Settled = { threw: false; value: unknown } | { threw: true; error: unknown };
type Stopped = { stopped: "timeout" | "cancelled" };

/**
 * The handler's `ctx`, which also records whether and why the attempt's
 * signal aborted. The AbortController behind `signal` is made only when the
 * handler reads it: most handlers never do, and creating one costs more than
 * the rest of a fast call. A class, not an object literal with a getter,
 * because V8 builds those slowly.
 */
class AttemptContext implements HandlerContext<string> {
  #controller: AbortController | undefined = undefined;
  #aborted = false;
  #reason: unknown = undefined;
  /** What the handler attached; made on the first attach, so a call that attaches nothing pays nothing. */
  #attached: unknown[] | undefined = undefined;
  /** Set once the attempt is over: a handler still running after that (timed out, say) notifies nobody. */
  #over = false;
  readonly #spec: AttemptSpec;

  readonly attempt: number;
  readonly idempotencyKey: string | undefined;

  constructor(spec: AttemptSpec) {
    this.#spec = spec;
    this.attempt = spec.attempt;
    this.idempotencyKey = spec.idempotencyKey;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  reject(reason: string, message?: string): never {
    throw new RejectionSignal(reason, message);
  }

  attach(block: ContentBlock): void {
    (this.#attached ??= []).push(block);
  }

  /** The blocks attached so far, unchecked; undefined when none. */
  attachments(): readonly unknown[] | undefined {
    return this.#attached;
  }

  progress(update: ProgressUpdate): Promise<void> {
    const { options, progressFloor } = this.#spec;
    if (this.#over || options.onProgress === undefined) return NOTHING_SENT;
    return deliver(() => {
      const checked = checkedProgress(update, progressFloor);
      if (checked !== undefined) return options.onProgress?.(checked);
    });
  }

  log(level: LoggingLevel, data: unknown): Promise<void> {
    const { options } = this.#spec;
    if (this.#over || options.onLog === undefined || !isLoggingLevel(level)) return NOTHING_SENT;
    return deliver(() => {
      const plain = plainLogData(data);
      if (plain !== undefined) return options.onLog?.(level, plain.value);
    });
  }

  /** Mutes progress and logging once the attempt's outcome is settled. */
  end(): void {
    this.#over = true;
  }

  /** Ends the attempt's signal; the executor's side, not the handler's. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** Why the signal aborted: undefined while it has not. */
  abortReason(): { reason: unknown } | undefined {
    return this.#aborted ? { reason: this.#reason } : undefined;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Runs the handler and waits for it, or for the deadline or the caller's
 * signal, whichever comes first; the executor stops waiting at either. A
 * handler that returns without a promise settles at once, with no deadline
 * to set; its synchronous part counts against the deadline either way, since
 * `startedAt` is taken before the call.
 */
function race(spec: AttemptSpec, ctx: AttemptContext, startedAt: number): Promise<Settled | Stopped> {
  let returned: unknown;
  try {
    returned = spec.handler(spec.input, ctx);
    if (!isThenable(returned)) return Promise.resolve({ threw: false, value: returned });
  } catch (error) {
    return Promise.resolve({ threw: true, error });
  }
  const pending = returned;
  return new Promise((resolve) => {
    const caller = spec.options.signal;
    const finish = (result: Settled | Stopped): void => {
      clearDeadline(deadline);
      caller?.removeEventListener("abort", onCallerAbort);
      resolve(result);
    };
    const onCallerAbort = (): void => {
      ctx.abort(caller?.reason);
      finish({ stopped: "cancelled" });
    };
    const deadline = setDeadline(startedAt + spec.timeoutMs, () => {
      ctx.abort(new ToolTimeoutError(spec.timeoutMs));
      finish({ stopped: "timeout" });
    });
    if (caller?.aborted) onCallerAbort();
    else caller?.addEventListener("abort", onCallerAbort, { once: true });
    // Promise.resolve adopts foreign thenables, and turns a throwing `then` into a rejection.
    Promise.resolve(pending).then(
      (value) => finish({ threw: false, value }),
      (error: unknown) => finish({ threw: true, error }),
    );
  });
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

/**
 * Copies the output as plain JSON and validates the copy; what passes is what
 * the caller gets and what is serialized, so nothing of the handler's object
 * (a getter, a `toJSON`, a later mutation) reaches the wire.
 */
export function checkOutput({ validateOutput }: ToolValidators, value: unknown, sensitive: readonly (readonly string[])[] = []): Outcome {
  const plain = copyJson(value);
  if (!plain.ok) return { kind: "invalid-output", issues: [{ path: "", message: plain.message }], output: undefined };
  if (validateOutput(plain.value)) return { kind: "ok", data: plain.value };
  return { kind: "invalid-output", issues: toIssues(validateOutput.errors, plain.value, sensitive), output: plain.value };
}

/** A valid output gets the attached blocks, checked; a bad block makes the outcome invalid output. */
function withAttachments(spec: AttemptSpec, ctx: AttemptContext, outcome: Outcome): Outcome {
  const attached = ctx.attachments();
  if (attached === undefined || outcome.kind !== "ok") return outcome;
  const checked = checkContent(attached, spec.contract.content);
  if (!checked.ok) return { kind: "invalid-output", issues: checked.issues, output: undefined };
  return { kind: "ok", data: outcome.data, content: checked.blocks };
}

/** What the attempt came to, once the handler settled or the attempt was stopped. */
function outcomeOf(spec: AttemptSpec, ctx: AttemptContext, result: Settled | Stopped): Outcome {
  const aborted = ctx.abortReason();
  if ("stopped" in result) {
    if (result.stopped === "timeout") return { kind: "transient", error: aborted?.reason, timedOut: true, retryAfterMs: undefined };
    return { kind: "cancelled", error: aborted?.reason };
  }
  if (!result.threw) return withAttachments(spec, ctx, checkOutput(spec.validators, result.value, spec.contract.sensitive.output));
  if (aborted !== undefined && !isRejectionSignal(result.error)) {
    // A handler that rethrows an AbortError the deadline caused has timed out, whatever it threw.
    if (aborted.reason instanceof ToolTimeoutError) return { kind: "transient", error: result.error, timedOut: true, retryAfterMs: undefined };
    if (spec.options.signal?.aborted) return { kind: "cancelled", error: result.error };
  }
  try {
    return classifyThrown(spec.contract, spec.options, result.error);
  } catch {
    // A thrown value whose every read throws (a hostile Proxy) is still a failed attempt, counted and traced.
    return { kind: "failed", error: result.error };
  }
}

export function runAttempt(spec: AttemptSpec, startedAt: number): Promise<Outcome> {
  const ctx = new AttemptContext(spec);
  return race(spec, ctx, startedAt).then((result) => {
    ctx.end();
    return outcomeOf(spec, ctx, result);
  });
}
