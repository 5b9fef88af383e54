// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * One attempt: run the handler under a deadline, then sort whatever happened
 * into an outcome. Nothing here decides about retries; executor.ts does.
 */
import { checkContent, type ContentBlock } from "./content.js";
import type {
  AnyToolContract,
  SensitivePaths,
  ToolValidators,
} from "./contract.js";
import type { ToolIssue } from "./envelope.js";
import {
  isRejectionSignal,
  isTransientError,
  RejectionSignal,
} from "./errors.js";
import { toIssues } from "./issues.js";
import {
  addDeadline,
  clearDeadline,
  nextTurn,
  type Deadline,
} from "./deadline.js";
import { copyJson, notJsonMessage } from "./json.js";
import {
  checkedProgress,
  deliver,
  isLoggingLevel,
  NOTHING_SENT,
  plainLogData,
  type ProgressFloor,
} from "./notify.js";
import { hasWithheld, withhold } from "./sensitive.js";
import type {
  CallerIdentity,
  Classification,
  ExecuteOptions,
  HandlerContext,
  LoggingLevel,
  ProgressUpdate,
} from "./types.js";

/** The handler, with the contract's types erased. */
export type AnyHandler = (
  input: unknown,
  ctx: HandlerContext<string>,
) => unknown;

export type Outcome =
  | { kind: "ok"; data: unknown; content?: ContentBlock[] }
  | { kind: "invalid-output"; issues: ToolIssue[]; output: unknown }
  | { kind: "rejected"; reason: string; detail: string | undefined }
  | { kind: "undeclared-reason"; error: RejectionSignal }
  | {
      kind: "transient";
      error: unknown;
      timedOut: boolean;
      retryAfterMs: number | undefined;
      /** A timeout while the handler was still running: settles when the handler does (it may still take effect until then). */
      running?: Promise<void>;
      /** Set by the executor when the timed-out handler had not settled within its grace period, so no retry was started. */
      stillRunning?: boolean;
    }
  | { kind: "cancelled"; error: unknown }
  | { kind: "failed"; error: unknown };

/** What one attempt needs; the executor's per-call state provides it, so an attempt allocates no spec of its own. */
export interface AttemptSpec {
  readonly contract: AnyToolContract;
  readonly validators: ToolValidators;
  readonly handler: AnyHandler;
  readonly options: ExecuteOptions;
  readonly idempotencyKey: string | undefined;
  /** This attempt's own fresh copy of the input. */
  readonly input: unknown;
  readonly attempt: number;
  readonly timeoutMs: number;
  /** performance.now() before the handler was called; the deadline counts from here. */
  readonly startedAt: number;
  /** Per call, not per attempt: progress must increase across retries too. */
  readonly progressFloor: ProgressFloor;
}

/** Takes the outcome of an attempt, and gives what the attempt's caller waits for. Must not throw. */
export interface AttemptOwner<R> {
  conclude(outcome: Outcome): R | Promise<R>;
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

type Settled =
  { threw: false; value: unknown } | { threw: true; error: unknown };
type Stopped =
  { stopped: "timeout"; running: Promise<void> } | { stopped: "cancelled" };

/**
 * The handler's `ctx`, which also records whether and why the attempt's
 * signal aborted. The AbortController behind `signal` is made only when the
 * handler reads it: most handlers never do, and creating one costs more than
 * the rest of a fast call. A class, not an object literal with a getter,
 * because V8 builds those slowly. Members a handler may not use belong on
 * the prototype, with any state they need made on first use, so that a call
 * that does not use them pays nothing for them.
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
  readonly auth: CallerIdentity | undefined;

  constructor(spec: AttemptSpec) {
    this.#spec = spec;
    this.attempt = spec.attempt;
    this.idempotencyKey = spec.idempotencyKey;
    this.auth = spec.options.caller;
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
    if (this.#over || options.onLog === undefined || !isLoggingLevel(level))
      return NOTHING_SENT;
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
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Attempts waiting on a caller's signal, to be given an abort listener on
 * the next turn of the event loop (see PendingAttempt.wait).
 */
let unwatched: { watchCaller(): void }[] = [];

function watchOnNextTurn(attempt: { watchCaller(): void }): void {
  if (unwatched.push(attempt) === 1) nextTurn(watchUnwatched);
}

function watchUnwatched(): void {
  const batch = unwatched;
  unwatched = [];
  for (const attempt of batch) attempt.watchCaller();
}

/**
 * An attempt whose handler returned a promise: it waits for that promise, the
 * deadline or the caller's signal, whichever comes first, and stops waiting
 * at the first. It is its own deadline entry and its own abort listener
 * (`handleEvent`), so waiting costs one object and the promise.
 *
 * The listener goes on the caller's signal only if the handler is still
 * running on the next turn of the event loop: adding and removing one costs
 * several microseconds, more than the rest of the executor's work on a
 * call, and a server passes every call a signal of its own. Until then, the
 * signal is read when the handler settles, so an abort that came first
 * still wins, as it would have with a listener.
 */
class PendingAttempt<R> implements Deadline {
  readonly at: number;
  prev: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  pending = false;
  #done = false;
  /** Whether the abort listener is on the caller's signal. */
  #watching = false;
  /** Set once the attempt timed out with the handler still running: called when the handler settles after all. */
  #settledLate: (() => void) | undefined = undefined;
  #resolve: ((value: R | Promise<R>) => void) | undefined = undefined;
  readonly #spec: AttemptSpec;
  readonly #ctx: AttemptContext;
  readonly #owner: AttemptOwner<R>;
  /** The caller's signal, read once: the options object is the caller's, and its reads may throw. */
  readonly #signal: AbortSignal | undefined;

  constructor(
    spec: AttemptSpec,
    ctx: AttemptContext,
    owner: AttemptOwner<R>,
    signal: AbortSignal | undefined,
  ) {
    this.at = spec.startedAt + spec.timeoutMs;
    this.#signal = signal;
    this.#spec = spec;
    this.#ctx = ctx;
    this.#owner = owner;
  }

  wait(handlerPromise: PromiseLike<unknown>): Promise<R> {
    const settled = new Promise<R>((resolve) => {
      this.#resolve = resolve;
    });
    addDeadline(this);
    const caller = this.#signal;
    if (caller?.aborted) this.handleEvent();
    else if (caller !== undefined) watchOnNextTurn(this);
    try {
      // Promise.resolve adopts foreign thenables, and turns a throwing `then` into a rejection.
      Promise.resolve(handlerPromise).then(
        (value) => this.#settle({ threw: false, value }),
        (error: unknown) => this.#settle({ threw: true, error }),
      );
    } catch (error) {
      // A native promise whose `constructor` getter throws: the handler threw, in effect.
      this.#finish({ threw: true, error });
    }
    return settled;
  }

  /** Listens to the caller's signal, unless the attempt is already over. Never throws: it runs on a turn of its own. */
  watchCaller(): void {
    const caller = this.#signal;
    if (this.#done || caller === undefined) return;
    try {
      if (caller.aborted) return this.handleEvent();
      caller.addEventListener("abort", this, { once: true });
      this.#watching = true;
    } catch {
      // A signal whose reads throw cannot be listened to; the handler's outcome or the deadline ends the attempt.
    }
  }

  /** The deadline passed. The handler is still running; the outcome carries when it settles, so no retry starts before (executor.ts). */
  onExpire(): void {
    this.#ctx.abort(new ToolTimeoutError(this.#spec.timeoutMs));
    const running = new Promise<void>((resolve) => {
      this.#settledLate = resolve;
    });
    this.#finish({ stopped: "timeout", running });
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.#ctx.abort(this.#signal?.reason);
    this.#finish({ stopped: "cancelled" });
  }

  /** The handler settled: that is the outcome, unless the caller's signal aborted first and no listener has reported it yet. */
  #settle(result: Settled): void {
    if (this.#done) return this.#settledLate?.();
    if (!this.#watching && this.#callerAborted()) this.handleEvent();
    else this.#finish(result);
  }

  #callerAborted(): boolean {
    try {
      return this.#signal?.aborted === true;
    } catch {
      return false;
    }
  }

  #finish(result: Settled | Stopped): void {
    if (this.#done) return;
    this.#done = true;
    clearDeadline(this);
    if (this.#watching) this.#signal?.removeEventListener("abort", this);
    this.#resolve?.(conclude(this.#spec, this.#ctx, result, this.#owner));
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
  const after =
    typeof retryAfterMs === "number" &&
    Number.isFinite(retryAfterMs) &&
    retryAfterMs >= 0
      ? retryAfterMs
      : undefined;
  return { kind: "transient", error, timedOut: false, retryAfterMs: after };
}

/** Sorts a thrown value: rejection, then the user's classify hook, then TransientError, else failed. */
export function classifyThrown(
  contract: AnyToolContract,
  options: ExecuteOptions,
  error: unknown,
): Outcome {
  if (isRejectionSignal(error)) {
    if (!Object.hasOwn(contract.errors, error.reason))
      return { kind: "undeclared-reason", error };
    return { kind: "rejected", reason: error.reason, detail: error.detail };
  }
  const verdict = askClassify(options, error);
  if (verdict === "failed") return { kind: "failed", error };
  if (verdict === "transient")
    return transient(
      error,
      isTransientError(error) ? error.retryAfterMs : undefined,
    );
  if (
    typeof verdict === "object" &&
    verdict !== null &&
    verdict.transient === true
  )
    return transient(error, verdict.retryAfterMs);
  if (isTransientError(error)) return transient(error, error.retryAfterMs);
  return { kind: "failed", error };
}

/**
 * Copies the output as plain JSON and validates the copy; what passes is what
 * the caller gets and what is serialized, so nothing of the handler's object
 * (a getter, a `toJSON`, a later mutation) reaches the wire. Values the
 * contract withholds are then removed from the copy, and what is left is
 * validated again: it is what every caller gets and checks against the same
 * schema.
 */
export function checkOutput(
  { validateOutput, copyOutput }: ToolValidators,
  value: unknown,
  sensitive: SensitivePaths = [],
): Outcome {
  const plain = (copyOutput ?? copyJson)(value);
  if (!plain.ok)
    return {
      kind: "invalid-output",
      issues: [{ path: "", message: notJsonMessage(plain, sensitive) }],
      output: undefined,
    };
  if (!validateOutput(plain.value))
    return {
      kind: "invalid-output",
      issues: toIssues(validateOutput.errors, plain.value, sensitive),
      output: plain.value,
    };
  if (!hasWithheld(sensitive)) return { kind: "ok", data: plain.value };
  const delivered = withhold(plain.value, sensitive);
  if (validateOutput(delivered)) return { kind: "ok", data: delivered };
  return {
    kind: "invalid-output",
    issues: toIssues(validateOutput.errors, delivered, sensitive),
    output: delivered,
  };
}

/** A valid output gets the attached blocks, checked; a bad block makes the outcome invalid output. */
function withAttachments(
  spec: AttemptSpec,
  ctx: AttemptContext,
  outcome: Outcome,
): Outcome {
  const attached = ctx.attachments();
  if (attached === undefined || outcome.kind !== "ok") return outcome;
  const checked = checkContent(attached, spec.contract.content);
  // The output goes along so that its sensitive values are scrubbed from the blocks' issues too.
  if (!checked.ok)
    return {
      kind: "invalid-output",
      issues: checked.issues,
      output: outcome.data,
    };
  return { kind: "ok", data: outcome.data, content: checked.blocks };
}

/** What the attempt came to, once the handler settled or the attempt was stopped. */
function outcomeOf(
  spec: AttemptSpec,
  ctx: AttemptContext,
  result: Settled | Stopped,
): Outcome {
  const aborted = ctx.abortReason();
  if ("stopped" in result) {
    if (result.stopped === "timeout")
      return {
        kind: "transient",
        error: aborted?.reason,
        timedOut: true,
        retryAfterMs: undefined,
        running: result.running,
      };
    return { kind: "cancelled", error: aborted?.reason };
  }
  if (!result.threw)
    return withAttachments(
      spec,
      ctx,
      checkOutput(
        spec.validators,
        result.value,
        spec.contract.sensitive.output,
      ),
    );
  if (aborted !== undefined && !isRejectionSignal(result.error)) {
    // A handler that rethrows an AbortError the deadline caused has timed out, whatever it threw.
    if (aborted.reason instanceof ToolTimeoutError)
      return {
        kind: "transient",
        error: result.error,
        timedOut: true,
        retryAfterMs: undefined,
      };
    if (spec.options.signal?.aborted)
      return { kind: "cancelled", error: result.error };
  }
  try {
    return classifyThrown(spec.contract, spec.options, result.error);
  } catch {
    // A thrown value whose every read throws (a hostile Proxy) is still a failed attempt, counted and traced.
    return { kind: "failed", error: result.error };
  }
}

/** The owner's answer for a settled or stopped attempt; an outcome that cannot be worked out is a failed attempt. */
function conclude<R>(
  spec: AttemptSpec,
  ctx: AttemptContext,
  result: Settled | Stopped,
  owner: AttemptOwner<R>,
): R | Promise<R> {
  let outcome: Outcome;
  ctx.end();
  try {
    outcome = outcomeOf(spec, ctx, result);
  } catch (error) {
    outcome = { kind: "failed", error };
  }
  return owner.conclude(outcome);
}

/**
 * Runs the handler, and hands what happened to `owner`. A handler that
 * returns without a promise is concluded at once, with no promise and no
 * deadline; its synchronous part counts against the deadline either way,
 * since `startedAt` is taken before the call.
 */
export function runAttempt<R>(
  spec: AttemptSpec,
  owner: AttemptOwner<R>,
): R | Promise<R> {
  const ctx = new AttemptContext(spec);
  let returned: unknown;
  try {
    returned = spec.handler(spec.input, ctx);
  } catch (error) {
    return conclude(spec, ctx, { threw: true, error }, owner);
  }
  if (!isThenable(returned))
    return conclude(spec, ctx, { threw: false, value: returned }, owner);
  return new PendingAttempt(spec, ctx, owner, spec.options.signal).wait(
    returned,
  );
}
