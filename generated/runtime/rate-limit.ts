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
import {
  callerKeyOf,
  countCall,
  rateEvent,
  rateLimitedMessage,
  rateStoreProblem,
  toolRateKey,
  traced,
} from "./rate-count.js";
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

/**
 * Whether `body` is the retry of a confirmed call carrying the user's answer
 * (the 2026-07-28 `requestState` the server signed when it asked). Its
 * question was counted; the state is checked by the server (signed, bound to
 * the caller, one-time), and a forged one runs nothing, so the handler runs
 * at most once per question counted.
 */
function isAnsweredConfirmation(
  contract: AnyToolContract | undefined,
  body: unknown,
): boolean {
  if (contract?.confirm !== true) return false;
  const params = (
    body as { readonly params?: { readonly requestState?: unknown } }
  ).params;
  return typeof params?.requestState === "string";
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
  return callerKeyOf(per, info?.extra?.subject, info?.clientId);
}

function contractNamed(
  contracts: ContractMap,
  name: string,
): AnyToolContract | undefined {
  for (const contract of Object.values(contracts))
    if (contract.name === name) return contract;
  return undefined;
}

/** The 429: `Retry-After` in whole seconds, and the call's failure envelope as the tools/call result. */
function limited(
  contract: AnyToolContract | undefined,
  id: unknown,
  retryAfter: number,
): Response {
  const message = rateLimitedMessage(retryAfter);
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
 * The border's rate limiter for these options and contracts; undefined
 * when neither the options' `rateLimit` nor any contract's declared
 * `rateLimit` asks for one. The options' limit counts every tool's calls
 * per caller; a declared one, its own tool's (the servers behind the
 * border then leave it to here: `countRateLimits: false`). More than one
 * instance with no shared store is a start-up error: each would count
 * alone, and the limit would be one per instance.
 */
export function rateLimiter(
  options: RateLimitOptions,
  contracts: ContractMap,
): Limiter | undefined {
  const limit = options.rateLimit;
  const declared = Object.values(contracts).some(
    (contract) => contract.rateLimit !== undefined,
  );
  if (limit === undefined && !declared) return undefined;
  if (
    limit !== undefined &&
    (!(Number.isInteger(limit.calls) && limit.calls > 0) ||
      !(limit.windowSeconds > 0))
  )
    throw new ConfigurationError(
      "toolc: rateLimit needs `calls`, a whole number above 0, and `windowSeconds` above 0.",
    );
  const problem = rateStoreProblem(options.store, options.instances);
  if (problem !== undefined) throw new ConfigurationError(problem);
  const store = options.store ?? memoryStore();
  const per = limit?.per ?? "subject";
  /** Counts one call; a Response refuses it. */
  const count = async (
    key: string,
    calls: { calls: number; windowSeconds: number },
    contract: AnyToolContract | undefined,
    name: string,
    body: unknown,
  ): Promise<Response | undefined> => {
    const counted = await countCall(store, key, calls);
    const version = contract?.version ?? 0;
    // A limit that cannot be counted lets the call through: the limit guards capacity, not a promise to the user (a confirmed call still needs the store to run). The operator sees each one.
    if ("error" in counted)
      traced(
        options.onTrace,
        rateEvent(name, version, "RATE_UNCOUNTED", counted.error),
      );
    if (!counted.over) return undefined;
    traced(options.onTrace, rateEvent(name, version, "RATE_LIMITED"));
    const id = (body as { readonly id?: unknown }).id;
    return limited(contract, id, counted.retryAfter);
  };
  return async (request, body, auth) => {
    const name = calledTool(body);
    if (name === undefined) return undefined;
    const contract = contractNamed(contracts, name);
    // A confirmed call is two requests over HTTP (the question, then the answer): it counts once, at its question.
    if (isAnsweredConfirmation(contract, body)) return undefined;
    if (limit !== undefined) {
      const key =
        typeof per === "function" ? per(request, auth) : callerKey(per, auth);
      const refused =
        key === undefined
          ? undefined
          : await count(`rate:${key}`, limit, contract, name, body);
      if (refused !== undefined) return refused;
    }
    const own = contract?.rateLimit;
    if (own === undefined) return undefined;
    const caller = toolRateKey(name, callerKey(own.per, auth));
    return count(caller, own, contract, name, body);
  };
}
