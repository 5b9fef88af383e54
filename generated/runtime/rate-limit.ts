// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Per-caller rate limits at the border (border.ts): tools/call requests
 * per window, counted per verified subject or client (or per a key the
 * application derives from the request) in the shared store, so that the
 * limit holds across every instance behind a load balancer. A call over the
 * limit is answered before any server is made: HTTP 429 with `Retry-After`,
 * and in the body the tool's failure envelope (REJECTED, reason
 * RATE_LIMITED), so a client reading either knows to wait.
 */
import { ConfigurationError } from "./confirm.js";
import type { AnyToolContract, ContractMap } from "./contract.js";
import { failure } from "./policy.js";
import { toCallResult } from "./server.js";
import { memoryStore, type SharedStore } from "./store.js";
import type { TraceEvent } from "./types.js";

/** Who a call is counted against. */
export type RateLimitKey =
  | "subject"
  | "client"
  | ((request: Request, auth: object | undefined) => string | undefined);

export interface RateLimit {
  /** tools/call requests a caller may make per window. */
  calls: number;
  /** The window, in seconds; it starts with a caller's first call. */
  windowSeconds: number;
  /**
   * Who is counted: `subject` (the default: the verified token's `sub`),
   * `client` (its OAuth client), or a function of the request and the
   * verified caller (a header an API gateway sets, say) whose undefined
   * leaves the call uncounted. Without a verified caller, `subject` and
   * `client` count every such call under one key, `anonymous`.
   */
  per?: RateLimitKey;
}

/** The border options that rate limits read (ServerOptions carries the same `store`, `instances` and `onTrace`). */
export interface RateLimitOptions {
  /** Calls per window per caller; unset: no limit. */
  rateLimit?: RateLimit;
  /** Where the counters live; the same store as the approvals' (ServerOptions). Unset: a store in this process. */
  store?: SharedStore;
  /** How many instances serve this endpoint (ServerOptions). */
  instances?: number;
  /** The operator's trace: each call refused for its rate, or counted without the store, is one event. */
  onTrace?(event: TraceEvent): void;
}

/** Answers a call over its caller's limit; undefined lets it through. Never rejects. */
export type Limiter = (
  request: Request,
  body: unknown,
  auth: object | undefined,
) => Promise<Response | undefined>;

/** The tools/call's tool name, or undefined when the body is not a tools/call. */
function calledTool(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return undefined;
  const message = body as {
    readonly method?: unknown;
    readonly params?: { readonly name?: unknown };
  };
  if (message.method !== "tools/call") return undefined;
  return typeof message.params?.name === "string" ? message.params.name : "";
}

/** What a verified caller's auth info says, as the SDK holds it (`clientId`, `extra.subject`). */
function callerKey(
  per: "subject" | "client",
  auth: object | undefined,
): string {
  const info = auth as
    | {
        readonly clientId?: unknown;
        readonly extra?: { readonly subject?: unknown };
      }
    | undefined;
  const value = per === "client" ? info?.clientId : info?.extra?.subject;
  return typeof value === "string" && value !== ""
    ? `${per}:${value}`
    : "anonymous";
}

function contractNamed(
  contracts: ContractMap,
  name: string,
): AnyToolContract | undefined {
  for (const contract of Object.values(contracts))
    if (contract.name === name) return contract;
  return undefined;
}

function trace(onTrace: RateLimitOptions["onTrace"], event: TraceEvent): void {
  try {
    onTrace?.(event);
  } catch {
    // A failing onTrace changes nothing, as in the executor.
  }
}

/** The 429: `Retry-After` in whole seconds, and the call's failure envelope as the tools/call result. */
function limited(
  contract: AnyToolContract | undefined,
  id: unknown,
  retryAfter: number,
): Response {
  const message = `Too many calls: try again in ${retryAfter} s. Nothing was done.`;
  const payload =
    contract === undefined
      ? { error: { code: -32000, message } }
      : {
          result: toCallResult(
            failure(contract, "REJECTED", message, true, "none", 0, {
              reason: "RATE_LIMITED",
            }),
          ),
        };
  return new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      id: typeof id === "string" || typeof id === "number" ? id : null,
      ...payload,
    }),
    {
      status: 429,
      headers: {
        "content-type": "application/json",
        "retry-after": String(retryAfter),
      },
    },
  );
}

/**
 * The border's rate limiter for these options; undefined without a
 * `rateLimit`. More than one instance with no shared store is a start-up
 * error: each would count alone, and the limit would be one per instance.
 */
export function rateLimiter(
  options: RateLimitOptions,
  contracts: ContractMap,
): Limiter | undefined {
  const limit = options.rateLimit;
  if (limit === undefined) return undefined;
  if (
    !(Number.isInteger(limit.calls) && limit.calls > 0) ||
    !(limit.windowSeconds > 0)
  )
    throw new ConfigurationError(
      "toolc: rateLimit needs `calls`, a whole number above 0, and `windowSeconds` above 0.",
    );
  if (
    (options.instances ?? 1) > 1 &&
    (options.store === undefined || options.store.local === true)
  )
    throw new ConfigurationError(
      `toolc: a rate limit on ${options.instances} instances needs a shared \`store\` (redisStore, runtime/store.ts), or each instance would count alone; see docs/scaling.md.`,
    );
  const store = options.store ?? memoryStore();
  const windowMs = limit.windowSeconds * 1000;
  const per = limit.per ?? "subject";
  return async (request, body, auth) => {
    const name = calledTool(body);
    if (name === undefined) return undefined;
    const key =
      typeof per === "function" ? per(request, auth) : callerKey(per, auth);
    if (key === undefined) return undefined;
    const contract = contractNamed(contracts, name);
    const event = (reason: string, error?: unknown): TraceEvent => ({
      tool: name,
      version: contract?.version ?? 0,
      attempt: 0,
      durationMs: 0,
      code: "REJECTED",
      effect: "none",
      issuePaths: [],
      reason,
      ...(error === undefined ? {} : { error }),
    });
    let counted: { count: number; resetMs: number };
    try {
      counted = await store.increment(`rate:${key}`, windowMs);
    } catch (error) {
      // A limit that cannot be counted lets the call through: the limit guards capacity, not a promise to the user (a confirmed call still needs the store to run). The operator sees each one.
      trace(options.onTrace, { ...event("RATE_UNCOUNTED", error), code: "OK" });
      return undefined;
    }
    if (counted.count <= limit.calls) return undefined;
    trace(options.onTrace, event("RATE_LIMITED"));
    const retryAfter = Math.max(1, Math.ceil(counted.resetMs / 1000));
    const id = (body as { readonly id?: unknown }).id;
    return limited(contract, id, retryAfter);
  };
}
