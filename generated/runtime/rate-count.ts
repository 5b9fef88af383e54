// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * A tool's declared rate limit (`rateLimit` in its contract or in
 * toolc.config.yaml), counted once per call in the shared store, whichever
 * entry the call came through: the border counts it for the HTTP and fetch
 * handlers (rate-limit.ts, which answers 429), the executor for every other
 * (a server over stdio, `execute`). One key per tool and caller, so every
 * entry and every instance with the same store counts against one limit.
 */
import type { AnyToolContract, DeclaredRateLimit } from "./contract.js";
import { failure } from "./policy.js";
import { memoryStore, type SharedStore } from "./store.js";
import type { ToolFailure } from "./envelope.js";
import type { CallerIdentity, TraceEvent } from "./types.js";

/** Where declared limits count when no store is given: one store for this process, as for `execute` called directly. */
let processStore: SharedStore | undefined;

export function defaultRateStore(): SharedStore {
  return (processStore ??= memoryStore());
}

/** The counter's key part for a caller: `subject:<sub>`, `client:<id>`, or `anonymous` without a verified one. */
export function callerKeyOf(
  per: "subject" | "client",
  subject: unknown,
  clientId: unknown,
): string {
  const value = per === "client" ? clientId : subject;
  return typeof value === "string" && value !== ""
    ? `${per}:${value}`
    : "anonymous";
}

/** The store key of one tool's counter for one caller. */
export function toolRateKey(tool: string, caller: string): string {
  return `rate:tool:${tool}:${caller}`;
}

/** What the caller reads when refused: how long to wait, and that nothing ran. */
export function rateLimitedMessage(retryAfterSeconds: number): string {
  return `Too many calls: try again in ${retryAfterSeconds} s. Nothing was done.`;
}

/** A counted call: over the limit with the seconds until its window ends, under it, or not counted (the store failed). */
export type RateCount =
  | { readonly over: true; readonly retryAfter: number }
  | { readonly over: false }
  | { readonly over: false; readonly error: unknown };

/** Counts one call against `calls` per `windowSeconds` under `key`; never rejects. */
export async function countCall(
  store: SharedStore,
  key: string,
  limit: { readonly calls: number; readonly windowSeconds: number },
): Promise<RateCount> {
  let counted: { count: number; resetMs: number };
  try {
    counted = await store.increment(key, limit.windowSeconds * 1000);
  } catch (error) {
    return { over: false, error };
  }
  if (counted.count <= limit.calls) return { over: false };
  return {
    over: true,
    retryAfter: Math.max(1, Math.ceil(counted.resetMs / 1000)),
  };
}

/**
 * Why counting cannot work, or undefined: more than one instance with no
 * shared store, where each would count alone and the limit would be one
 * per instance. The caller throws it as a ConfigurationError (confirm.ts),
 * which this module does not import: the executor reaches it, and must not
 * load the SDK.
 */
export function rateStoreProblem(
  store: SharedStore | undefined,
  instances: number | undefined,
): string | undefined {
  return (instances ?? 1) > 1 && (store === undefined || store.local === true)
    ? `toolc: a rate limit on ${instances} instances needs a shared \`store\` (redisStore, runtime/store.ts), or each instance would count alone; see docs/scaling.md.`
    : undefined;
}

/** The operator's trace event for a call refused for its rate, or let through uncounted. */
export function rateEvent(
  tool: string,
  version: number,
  reason: "RATE_LIMITED" | "RATE_UNCOUNTED",
  error?: unknown,
): TraceEvent {
  return {
    tool,
    version,
    attempt: 0,
    durationMs: 0,
    code: reason === "RATE_LIMITED" ? "REJECTED" : "OK",
    effect: "none",
    issuePaths: [],
    reason,
    ...(error === undefined ? {} : { error }),
  };
}

export function traced(
  onTrace: ((event: TraceEvent) => void) | undefined,
  event: TraceEvent,
): void {
  try {
    onTrace?.(event);
  } catch {
    // A failing onTrace changes nothing, as in the executor.
  }
}

/** What the executor's count needs of its options. */
export interface RateCountOptions {
  readonly store?: SharedStore | undefined;
  readonly caller?: CallerIdentity | undefined;
  readonly onTrace?: ((event: TraceEvent) => void) | undefined;
}

/**
 * Runs `run` unless the caller is over the tool's declared limit, which
 * gets the failure envelope instead (REJECTED, reason RATE_LIMITED,
 * retryable, effect none) and no run. A store that fails lets the call
 * through: the limit guards capacity, and the operator sees each one.
 */
export async function withinRateLimit<R>(
  contract: AnyToolContract,
  limit: DeclaredRateLimit,
  options: RateCountOptions,
  run: () => Promise<R>,
): Promise<R | ToolFailure<string>> {
  const caller = callerKeyOf(
    limit.per,
    options.caller?.subject,
    options.caller?.clientId,
  );
  const counted = await countCall(
    options.store ?? defaultRateStore(),
    toolRateKey(contract.name, caller),
    limit,
  );
  if ("error" in counted)
    traced(
      options.onTrace,
      rateEvent(
        contract.name,
        contract.version,
        "RATE_UNCOUNTED",
        counted.error,
      ),
    );
  if (!counted.over) return run();
  traced(
    options.onTrace,
    rateEvent(contract.name, contract.version, "RATE_LIMITED"),
  );
  return failure(
    contract,
    "REJECTED",
    rateLimitedMessage(counted.retryAfter),
    true,
    "none",
    0,
    { reason: "RATE_LIMITED" },
  );
}
