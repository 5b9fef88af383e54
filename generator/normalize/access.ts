/**
 * Who may call a tool, how often, and whether a person confirms each call:
 * a contract's `scopes` and `rateLimit` (or the config's defaults) and
 * `confirm`. A confirmed or rate-limited tool can be refused for reasons of
 * toolc's own, which join the contract's declared errors, so that callers,
 * types and the typed client know them like any other rejection reason.
 */
import type { AuthSetting } from "../config/auth.js";
import { rateLimitOf, type RateLimitValues } from "../config/rate-limit.js";
import type { LoadingSetting } from "../config/loading.js";
import { Codes, error, warning } from "../diagnostics.js";
import type { DeclaredError, Diagnostic, Effect, RateLimitIR } from "../ir.js";
import type { YamlSource } from "../load/index.js";

/** The tool's `_meta` key listing the scopes a call needs; absent when it needs none. */
export const SCOPES_META_KEY = "toolc/scopes";

/** What normalize needs from the run's settings. */
export interface NormalizeOptions {
  /** Lint what the provider exports cannot do (TC070-TC072); default true. Off with the config's `providers: false`, which drops the exports too. */
  readonly providers?: boolean;
  /** The config's `auth:` section; absent: auth is off. */
  readonly auth?: AuthSetting;
  /** The config's `rateLimit`: the limit of every tool whose contract declares none. */
  readonly rateLimit?: RateLimitIR;
  /** The config's `loading:` section; absent: a tool is eager unless its contract says `loading: deferred`. */
  readonly loading?: LoadingSetting;
}

/** The settings normalize depends on: the config's `providers` (default true), its `auth:`, `rateLimit` and `loading:` sections. */
export interface NormalizeSettings {
  readonly providers?: boolean;
  readonly auth?: AuthSetting;
  readonly rateLimit?: RateLimitIR;
  readonly loading?: LoadingSetting;
}

/**
 * The normalize options of a run's settings. The one derivation that
 * generate, check, `toolc docs`, `toolc diff` and the catalog's changelog
 * share, so they all see the same scopes (the config's default applied) and
 * the same lints.
 */
export function normalizeOptionsOf(settings: NormalizeSettings): NormalizeOptions {
  return {
    providers: settings.providers !== false,
    ...(settings.auth === undefined ? {} : { auth: settings.auth }),
    ...(settings.rateLimit === undefined ? {} : { rateLimit: settings.rateLimit }),
    ...(settings.loading === undefined ? {} : { loading: settings.loading }),
  };
}

/**
 * The reason a call over its declared rate limit is refused with
 * (runtime/rate-limit.ts gives it). Not reserved: a contract may declare it
 * for its own upstream's 429 (the OpenAPI import does), which means the same
 * to a caller (wait, then retry); then the contract's description stands and
 * toolc adds no second one.
 */
export const RATE_LIMIT_ERROR: DeclaredError = {
  code: "RATE_LIMITED",
  description: "Too many calls from this caller in the tool's rate-limit window; nothing was done. Retry after the time the refusal gives (HTTP Retry-After).",
};

/**
 * The reasons a tool with `confirm: true` may be rejected with, before its
 * handler runs (runtime/confirm.ts gives them). Reserved: a contract cannot
 * declare them itself.
 */
export const CONFIRMATION_ERRORS: readonly DeclaredError[] = [
  { code: "CONFIRMATION_DECLINED", description: "The user declined or dismissed the confirmation; nothing was done. Do not retry without asking them." },
  {
    code: "CONFIRMATION_INVALID",
    description:
      "The approval does not match this call (other arguments, another caller, expired or already used); nothing was done. Call again to ask for a new one.",
  },
  {
    code: "CONFIRMATION_UNAVAILABLE",
    description:
      "The client cannot ask the user to confirm (no elicitation support, or a connection that cannot carry it); nothing was done. Ask the user another way, or use a client that supports elicitation.",
  },
];

interface RawAccess {
  readonly effect: Effect;
  readonly scopes?: readonly string[];
  readonly confirm?: boolean;
  readonly rateLimit?: RateLimitValues;
  readonly errors?: Record<string, unknown>;
}

export interface Access {
  /** The scopes a call needs, the default applied; empty: none. */
  readonly scopes: readonly string[];
  readonly confirm: boolean;
  /** Calls per window per caller, the config's default applied; absent: none declared. */
  readonly rateLimit?: RateLimitIR;
  /** The contract's declared errors, and for a confirmed or rate-limited tool toolc's own after them. */
  readonly errors: readonly DeclaredError[];
}

/**
 * The tool's access rules, with the lints on them: a reserved reason
 * declared by hand is an error; with auth on, a destructive tool that any
 * authenticated caller may run (no scope, none by default) is a warning.
 */
export function accessOf(raw: RawAccess, declared: readonly DeclaredError[], file: YamlSource, options: NormalizeOptions, out: Diagnostic[]): Access {
  const scopes = raw.scopes ?? options.auth?.defaultScopes ?? [];
  const confirm = raw.confirm === true;
  const rateLimit = raw.rateLimit === undefined ? options.rateLimit : rateLimitOf(raw.rateLimit);
  for (const reserved of CONFIRMATION_ERRORS) {
    if (declared.some((e) => e.code === reserved.code)) {
      out.push(
        error(
          file.locate(["errors", reserved.code], { key: true }),
          Codes.invalidValue,
          `rejection reason \`${reserved.code}\` is reserved for confirmed calls (\`confirm: true\`); name it otherwise`,
        ),
      );
    }
  }
  if (options.auth !== undefined && raw.effect === "destructive" && scopes.length === 0) {
    const where = raw.scopes === undefined ? file.locate(["effect"]) : file.locate(["scopes"]);
    const why = raw.scopes === undefined ? "it declares no `scopes` and `auth.defaultScopes` is empty" : "its `scopes` is empty";
    out.push(
      warning(
        where,
        Codes.unscopedDestructive,
        `destructive tool with auth on, but any caller with a valid token may run it: ${why}; give it a scope such as \`scopes: [${scopeHint(file)}]\``,
      ),
    );
  }
  const declaresRateLimited = declared.some((e) => e.code === RATE_LIMIT_ERROR.code);
  const own = [...(confirm ? CONFIRMATION_ERRORS : []), ...(rateLimit === undefined || declaresRateLimited ? [] : [RATE_LIMIT_ERROR])];
  return { scopes, confirm, ...(rateLimit === undefined ? {} : { rateLimit }), errors: own.length === 0 ? declared : [...declared, ...own] };
}

/** A scope name to suggest, from the tool's name: `delete_customer` → `customer:delete`. */
function scopeHint(file: YamlSource): string {
  const name = (file.data as { name?: unknown }).name;
  const parts = typeof name === "string" ? name.split(/[_.-]/).filter((p) => /^[a-z0-9]+$/i.test(p)) : [];
  return parts.length >= 2 ? `${parts.slice(1).join("_")}:${parts[0]}` : "admin";
}
