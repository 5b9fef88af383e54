// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The executor: validate input → run the handler → validate output →
 * envelope, with retries and tracing as the contract's policy says. It never
 * throws; every path ends in a ToolResult.
 */
import type {
  AnyToolContract,
  DeclaredRateLimit,
  OutputOf,
  ReasonOf,
  ToolValidators,
} from "./contract.js";
import type { ToolResult } from "./envelope.js";
import {
  type AnyHandler,
  type AttemptOwner,
  type AttemptSpec,
  type Outcome,
  runAttempt,
} from "./attempt.js";
import { approveCall, type Approval } from "./approval.js";
import { clearDeadline, setDeadline } from "./deadline.js";
import { LoopGuard } from "./loop-guard.js";
import type { ProgressFloor } from "./notify.js";
import {
  backoffDelay,
  failure,
  maxAttempts,
  uncertainEffect,
} from "./policy.js";
import { withinRateLimit } from "./rate-count.js";
import { collectSecrets, Secrets } from "./redact.js";
import type { ExecuteOptions, HandlerFor } from "./types.js";
import { validatorsOf } from "./validators.js";
import { emit, MESSAGES, settle, traceFor } from "./settle.js";
import { idempotencyKeyOf, prepare, prepareInput } from "./call-input.js";

export { MESSAGES };

type Result = ToolResult<unknown, string>;

/**
 * State shared by the attempts of one call. It is also the spec of the
 * attempt in flight and the owner its outcome goes to, so that an attempt
 * allocates neither.
 */
class Call implements AttemptSpec, AttemptOwner<Result> {
  readonly contract: AnyToolContract;
  readonly options: ExecuteOptions;
  /** The caller's value, never modified: each retry starts again from it. */
  readonly rawInput: unknown;
  readonly validators: ToolValidators;
  readonly handler: AnyHandler;
  readonly secrets: Secrets;
  idempotencyKey: string | undefined = undefined;
  /** The first attempt's input: validated, defaults applied. */
  validInput: unknown = undefined;
  // The attempt in flight.
  input: unknown = undefined;
  attempt = 0;
  timeoutMs = 0;
  startedAt = 0;
  /** Time charged to the retry budget so far, delays included. */
  spentMs = 0;
  /** The last progress value the handler sent, over all attempts (see notify.ts). */
  lastProgress = Number.NEGATIVE_INFINITY;
  /** Progress must increase across the whole call, so the floor is the call itself. */
  readonly progressFloor: ProgressFloor = this;

  constructor(
    contract: AnyToolContract,
    options: ExecuteOptions,
    rawInput: unknown,
    validators: ToolValidators,
    handler: AnyHandler,
  ) {
    this.contract = contract;
    this.options = options;
    this.rawInput = rawInput;
    this.validators = validators;
    this.handler = handler;
    this.secrets = hasSensitive(contract) ? new Secrets() : NO_SECRETS;
  }

  conclude(outcome: Outcome): Result | Promise<Result> {
    try {
      return afterAttempt(this, outcome);
    } catch {
      // Only reachable through a broken contract object or hostile options; still an envelope.
      return lastResort(this.contract);
    }
  }
}

const now = (): number => performance.now();

function defaultSleep(
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Starts the next attempt, unless the call was cancelled. A handler that
 * returns without a promise is concluded at once: the whole call then settles
 * with no promise of its own until executeTool wraps the result in one.
 */
function nextAttempt(call: Call): Result | Promise<Result> {
  const { contract, options } = call;
  const attempt = call.attempt + 1;
  if (options.signal?.aborted) {
    const effect = attempt === 1 ? "none" : uncertainEffect(contract);
    emit(call, {
      attempt: attempt - 1,
      durationMs: 0,
      code: "FAILED",
      effect,
      issuePaths: [],
      error: options.signal.reason,
    });
    return failure(
      contract,
      "FAILED",
      MESSAGES.cancelled,
      false,
      effect,
      attempt - 1,
    );
  }
  call.attempt = attempt;
  // The last attempt gets only what is left of the budget, so the whole call stays within it.
  call.timeoutMs = Math.max(
    1,
    Math.min(contract.timeoutMs, budgetOf(contract) - call.spentMs),
  );
  call.startedAt = now();
  // A retry gets a fresh copy, so a handler that mutated its input cannot affect the next attempt.
  if (attempt === 1) call.input = call.validInput;
  else {
    const fresh = prepare(call);
    call.input = fresh.ok ? fresh.input : call.validInput;
  }
  return runAttempt(call, call);
}

function budgetOf(contract: AnyToolContract): number {
  return contract.retry.budgetMs > 0
    ? contract.retry.budgetMs
    : Number.POSITIVE_INFINITY;
}

/** After an attempt: the final envelope, or a retry after its delay, while the attempt limit and the time budget allow. */
function afterAttempt(call: Call, outcome: Outcome): Result | Promise<Result> {
  const { contract, options, attempt } = call;
  // The clock is read again only where the duration is used: by the budget of a retry, or by a trace.
  const timed = outcome.kind === "transient" || options.onTrace !== undefined;
  const durationMs = timed ? now() - call.startedAt : 0;
  call.spentMs += durationMs;
  if (outcome.kind === "invalid-output" && outcome.output !== undefined)
    collectSecrets(outcome.output, contract.sensitive.output, call.secrets);
  if (outcome.kind === "transient" && attempt < maxAttempts(contract)) {
    const delay = backoffDelay(
      contract.retry,
      attempt,
      options.random ?? Math.random,
      outcome.retryAfterMs,
    );
    if (call.spentMs + delay < budgetOf(contract)) {
      emit(call, {
        attempt,
        durationMs,
        code: "RETRYABLE",
        effect: uncertainEffect(contract),
        issuePaths: [],
        error: outcome.error,
      });
      if (outcome.running !== undefined)
        return retryAfterSettled(call, outcome, delay);
      return wait(options, delay).then((waitedMs) => retry(call, waitedMs));
    }
  }
  const result = settle(call, outcome, attempt);
  if (options.onTrace)
    emit(call, traceFor(call, outcome, result, attempt, durationMs));
  return result;
}

/**
 * The retry after a timeout: the timed-out handler may still be running (its
 * ctx.signal is aborted, but it may not be listening), and a second attempt
 * beside it could apply a write twice. So the next attempt waits until that
 * handler settles as well as for the backoff, for at most one more
 * `timeoutMs` within the retry budget. A handler still running then ends the
 * call: no further attempt, and the timeout's envelope says it may still
 * take effect.
 */
function retryAfterSettled(
  call: Call,
  outcome: Extract<Outcome, { kind: "transient" }>,
  delay: number,
): Promise<Result> {
  const { contract, options, attempt } = call;
  const started = now();
  const graceMs = Math.max(
    0,
    Math.min(contract.timeoutMs, budgetOf(contract) - call.spentMs),
  );
  const settled = settledWithin(
    outcome.running as Promise<void>,
    graceMs,
    options.signal,
  );
  return Promise.all([wait(options, delay), settled]).then(
    ([waitedMs, stopped]) => {
      const elapsed = Math.max(waitedMs, now() - started);
      if (stopped) return retry(call, elapsed);
      call.spentMs += elapsed;
      return settle(call, { ...outcome, stillRunning: true }, attempt);
    },
  );
}

/** True once `running` settles, or the caller's signal aborts (the next attempt then ends the call as cancelled); false when `graceMs` passes first. */
function settledWithin(
  running: Promise<void>,
  graceMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  return new Promise((resolve) => {
    let over = false;
    const finish = (value: boolean): void => {
      if (over) return;
      over = true;
      clearDeadline(grace);
      try {
        signal?.removeEventListener("abort", onAbort);
      } catch {
        // A signal whose methods throw was never listened to either.
      }
      resolve(value);
    };
    const onAbort = (): void => finish(true);
    const grace = setDeadline(now() + graceMs, () => finish(false));
    void running.then(() => finish(true));
    try {
      if (signal?.aborted) return finish(true);
      signal?.addEventListener("abort", onAbort, { once: true });
    } catch {
      // Caller signals whose reads throw: the handler's settling or the grace period ends the wait.
    }
  });
}

function retry(call: Call, waitedMs: number): Result | Promise<Result> {
  try {
    call.spentMs += waitedMs;
    return nextAttempt(call);
  } catch {
    return lastResort(call.contract);
  }
}

/** Waits between attempts; returns the time to charge to the budget (at least the planned delay). Never rejects. */
async function wait(options: ExecuteOptions, delay: number): Promise<number> {
  const started = now();
  try {
    await (options.sleep ?? defaultSleep)(delay, options.signal);
  } catch {
    // A sleep that rejects (aborted, say) just ends the wait; the loop checks the signal next.
  }
  return Math.max(delay, now() - started);
}

/** Shared by calls to tools that declare no sensitive property: nothing is ever added to it. */
const NO_SECRETS = new Secrets();

function hasSensitive(contract: AnyToolContract): boolean {
  return (
    contract.sensitive.input.length > 0 || contract.sensitive.output.length > 0
  );
}

/** FAILED before any attempt (no handler, validators that would not load): nothing ran, so effect none. */
function refuse(
  contract: AnyToolContract,
  options: ExecuteOptions,
  message: string,
  error?: unknown,
): Result {
  try {
    emit(
      { contract, options, secrets: NO_SECRETS },
      {
        attempt: 0,
        durationMs: 0,
        code: "FAILED",
        effect: "none",
        issuePaths: [],
        ...(error === undefined ? {} : { error }),
      },
    );
    return failure(contract, "FAILED", message, false, "none", 0);
  } catch {
    return lastResort(contract);
  }
}

/** The call once its validators are at hand: input, then attempts. Never throws. */
function start(
  contract: AnyToolContract,
  rawInput: unknown,
  handler: AnyHandler,
  options: ExecuteOptions,
  validators: ToolValidators,
): Result | Promise<Result> {
  try {
    const call = new Call(contract, options, rawInput, validators, handler);
    const prepared = prepareInput(call);
    if (!prepared.ok) return prepared.result;
    call.validInput = prepared.input;
    call.idempotencyKey = idempotencyKeyOf(contract, prepared.input);
    if (contract.confirm === true) return afterApproval(call);
    return nextAttempt(call);
  } catch {
    return lastResort(contract);
  }
}

/**
 * A confirmed tool's border, which every entry point goes through: the
 * handler runs only once the call's `confirm` hook approved these exact
 * arguments (runtime/approval.ts); otherwise REJECTED, and nothing ran.
 */
function afterApproval(call: Call): Promise<Result> {
  const { contract } = call;
  return approveCall(contract, call.validInput, call.options.confirm).then(
    (approval) => {
      try {
        return approval.approved
          ? nextAttempt(call)
          : unconfirmed(call, approval);
      } catch {
        return lastResort(contract);
      }
    },
    () => lastResort(contract),
  );
}

function unconfirmed(
  call: Call,
  approval: Extract<Approval, { approved: false }>,
): Result {
  emit(call, {
    attempt: 0,
    durationMs: 0,
    code: "REJECTED",
    effect: "none",
    issuePaths: [],
  });
  return failure(
    call.contract,
    "REJECTED",
    approval.message,
    false,
    "none",
    0,
    { reason: approval.reason },
  );
}

/**
 * Not async: an async function, and every await in it, would add promise
 * layers to each call. The only promises on a call's path are the handler's
 * own, the one an attempt waits on, and the one executeTool returns.
 */
function execute(
  contract: AnyToolContract,
  rawInput: unknown,
  handler: AnyHandler | undefined,
  options: ExecuteOptions,
): Promise<Result> {
  try {
    if (typeof handler !== "function")
      return Promise.resolve(refuse(contract, options, MESSAGES.noHandler));
    // Only a tool's first call waits here: its validator module loads once.
    const found = validatorsOf(contract);
    if (found instanceof Promise) {
      return found.then(
        (validators: ToolValidators) =>
          start(contract, rawInput, handler, options, validators),
        (error: unknown) =>
          refuse(contract, options, MESSAGES.unexpected, error),
      );
    }
    const result = start(contract, rawInput, handler, options, found);
    return result instanceof Promise ? result : Promise.resolve(result);
  } catch {
    // Only reachable through a broken contract object or hostile options; still an envelope.
    return Promise.resolve(lastResort(contract));
  }
}

/** FAILED for a call that broke the executor itself; reads the contract only as far as it lets itself be read. */
function lastResort(contract: AnyToolContract): Result {
  let tool = "";
  let version = 0;
  try {
    if (typeof contract.name === "string") tool = contract.name;
    if (typeof contract.version === "number") version = contract.version;
  } catch {
    // Not a contract at all; the envelope carries no name.
  }
  return {
    ok: false,
    code: "FAILED",
    message: MESSAGES.unexpected,
    retryable: false,
    effect: "unknown",
    tool,
    version,
    attempts: 0,
  };
}

/**
 * Runs one call of `contract` through `handler`. Never throws and never
 * rejects: every outcome, including a bug in a hook, is a ToolResult.
 */
export function executeTool<C extends AnyToolContract>(
  contract: C,
  rawInput: unknown,
  handler: HandlerFor<C> | undefined,
  options: ExecuteOptions = {},
): Promise<ToolResult<OutputOf<C>, ReasonOf<C>>> {
  // execute is async and catches everything itself, so this never throws either.
  const settled = options ?? {};
  const guard = settled.guard;
  const run = handler as AnyHandler | undefined;
  const call = (): Promise<Result> =>
    guard === undefined
      ? execute(contract, rawInput, run, settled)
      : guarded(guard, contract, rawInput, settled, () =>
          execute(contract, rawInput, run, settled),
        );
  // A declared rate limit counts every call that reaches here, unless the border in front already counted it.
  const limit =
    settled.countRateLimits === false ? undefined : declaredLimit(contract);
  return (
    limit === undefined
      ? call()
      : withinRateLimit(contract, limit, settled, call).catch(() =>
          lastResort(contract),
        )
  ) as Promise<ToolResult<OutputOf<C>, ReasonOf<C>>>;
}

/** The contract's declared rate limit; undefined for one that is not a contract at all (execute then answers with its last resort). */
function declaredLimit(
  contract: AnyToolContract,
): DeclaredRateLimit | undefined {
  try {
    return contract.rateLimit;
  } catch {
    return undefined;
  }
}

/** A call under the conversation's loop guard (runtime/loop-guard.ts); a guard that throws ends in an envelope too. */
function guarded(
  guard: LoopGuard,
  contract: AnyToolContract,
  rawInput: unknown,
  options: ExecuteOptions,
  run: () => Promise<Result>,
): Promise<Result> {
  try {
    const guardedRun = guard.run(
      contract,
      contract.name,
      rawInput,
      options.onTrace,
      run,
    );
    // The runtime's own guard never rejects; anything else passed as one is not trusted to.
    return guard instanceof LoopGuard
      ? guardedRun
      : guardedRun.catch(() => lastResort(contract));
  } catch {
    return Promise.resolve(lastResort(contract));
  }
}
