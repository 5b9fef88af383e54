// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The Streamable HTTP server as an OAuth 2.1 resource server (MCP
 * authorization, revision 2026-07-28), SDK 2.x line; emitted only for a
 * project whose config has `auth:`. Bearer tokens are checked before any
 * server or handler exists for the request: JWTs against the authorization
 * server's key set with `jose` (signature, allowed algorithms, issuer,
 * audience, expiry with clock skew), or by a function of the application's
 * own (opaque tokens, introspection). The SDK's bearer-token core parses the
 * header, checks the resource and expiry again and writes every 401 and 403
 * with its `WWW-Authenticate` challenge. A token never leaves this module:
 * the SDK and the handlers get the verified identity only.
 */
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from "jose" with {
  "resolution-mode": "import",
};
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";

/** What a verify function of the application's own says about a token it accepts. */
export interface VerifiedToken {
  /** The user, or the client acting on its own behalf. */
  subject: string;
  scopes: readonly string[];
  /** The token's audience (`aud`): it must include the server's audience, or the token is refused. */
  audience: string | readonly string[];
  /** Seconds since the epoch; a token past it is refused. */
  expiresAt: number;
  clientId?: string;
  claims?: { readonly [claim: string]: unknown };
}

/** Verifies a token the server cannot check as a JWT (an opaque token, by RFC 7662 introspection say); undefined or a throw refuses it. */
export type TokenVerifier = (
  token: string,
) => Promise<VerifiedToken | undefined>;

/** The JWS algorithms a token may be signed with: asymmetric ones only, never `none` or a shared secret. */
export type TokenAlgorithm =
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA"
  | "Ed25519";
const ALGORITHMS: readonly TokenAlgorithm[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];
const DEFAULT_ALGORITHMS: readonly TokenAlgorithm[] = [
  "RS256",
  "PS256",
  "ES256",
  "EdDSA",
];
const DEFAULT_CLOCK_TOLERANCE_SEC = 30;

/** The resource server's settings: toolc.config.yaml's `auth:`, overridden by `createHttpHandler`'s `auth` option. */
export interface AuthOptions {
  /** The server's canonical URI (RFC 8707), as clients name it: `https://mcp.example.com/mcp`. */
  resource?: string;
  /** The issuers of the authorization servers, served in the protected-resource metadata. */
  authorizationServers?: readonly string[];
  /** The `iss` a JWT must carry; default: the one authorization server. */
  issuer?: string;
  /** The `aud` a token must carry (any of a list); default: `resource`. */
  audience?: string | readonly string[];
  /** The authorization server's JWKS URL: tokens are JWTs checked against it (fetched, cached and refreshed by jose). */
  jwksUri?: string;
  /** A key set of your own instead of `jwksUri` (tests, or keys distributed out of band). */
  keys?: JSONWebKeySet;
  /** A verify function instead of JWT checks; it must report the token's audience and expiry. */
  verify?: TokenVerifier;
  algorithms?: readonly TokenAlgorithm[];
  clockToleranceSec?: number;
  /** Scope hierarchies: a scope and the narrower ones it grants. */
  impliedScopes?: { readonly [scope: string]: readonly string[] };
  /** What tools/list shows a caller: only the tools its scopes allow (default), or all. */
  listing?: "allowed" | "all";
  /** `scopes_supported` in the metadata; default: every scope a tool needs. */
  scopesSupported?: readonly string[];
  resourceName?: string;
  resourceDocumentation?: string;
  /**
   * Told when the key set (`jwksUri`) cannot be fetched or read, for the operator: the caller
   * only gets a 500 without details. Default: a line on stderr. What it throws is ignored.
   */
  onKeySetError?: (error: unknown) => void;
}

/** A request as the gate reads it: Node's IncomingMessage has this shape, and so do framework requests. */
export interface GateRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}

/** An answer the gate gives instead of the MCP server. */
export interface GateAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The gate the HTTP entry (runtime/http.ts) runs before the SDK sees a request. */
export interface AuthGate {
  readonly listing: "allowed" | "all";
  /** The protected-resource metadata, for a request to its well-known path; undefined for anything else. */
  answer(req: GateRequest): GateAnswer | undefined;
  /** The verified caller (the SDK's AuthInfo, without the token), or the 401 that refuses the request. */
  authenticate(
    req: GateRequest,
  ): Promise<{ auth: AuthInfo } | { refused: GateAnswer }>;
  /** The 403 for a body that calls a tool outside the caller's scopes; undefined when it may. */
  authorize(auth: AuthInfo, body: unknown): Promise<GateAnswer | undefined>;
}

/** The contracts' part the gate needs: each tool's scopes. */
type ScopedContracts = {
  readonly [key: string]: {
    readonly name: string;
    readonly scopes?: readonly string[];
  };
};

interface Resolved {
  readonly resource: URL;
  readonly metadataUrl: string;
  readonly metadata: OAuthProtectedResourceMetadata;
  readonly verifier: OAuthTokenVerifier;
}

/** The settings the gate reads: the option's values over the config's, and the keys the option set to `undefined`. */
interface Settings extends AuthOptions {
  readonly unsetByOption: ReadonlySet<string>;
}

/**
 * The option's values over the config's, one by one; an `undefined` value keeps the config's
 * (`resource: process.env.MCP_RESOURCE` with the variable unset must not wipe it out).
 */
function settingsOf(options: AuthOptions, defaults: AuthOptions): Settings {
  const merged: Record<string, unknown> = { ...defaults };
  const unsetByOption = new Set<string>();
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) merged[key] = value;
    else if (merged[key] === undefined) unsetByOption.add(key);
  }
  return { ...(merged as AuthOptions), unsetByOption };
}

/** `key`'s value, or a start-up error that says where it was lost. */
function required<T>(
  value: T | undefined,
  what: string,
  settings: Settings,
  key: string,
): T {
  if (value !== undefined) return value;
  if (settings.unsetByOption.has(key))
    throw new Error(
      `auth: ${what} is not set: createHttpHandler's auth option gives ${key}: undefined (an unset environment variable?), and toolc.config.yaml's auth section has no ${key} to fall back on`,
    );
  throw new Error(
    `auth: ${what} is not set (toolc.config.yaml's auth section, or createHttpHandler's auth option)`,
  );
}

/** The scopes a JWT grants: `scope` (RFC 9068, space-separated) and `scp` (a string or a list, as some providers write it). */
function scopesOfClaims(payload: JWTPayload): string[] {
  const out: string[] = [];
  for (const claim of [payload["scope"], payload["scp"]]) {
    if (typeof claim === "string")
      out.push(...claim.split(" ").filter((s) => s !== ""));
    else if (Array.isArray(claim))
      out.push(...claim.filter((s): s is string => typeof s === "string"));
  }
  return out;
}

/** The granted scopes and every scope they imply, transitively (the spec: a broader scope implies narrower ones). */
function withImplied(
  scopes: readonly string[],
  implied: AuthOptions["impliedScopes"],
): string[] {
  const granted = new Set(scopes);
  const pending = [...scopes];
  for (let scope = pending.pop(); scope !== undefined; scope = pending.pop()) {
    const narrower =
      implied !== undefined && Object.hasOwn(implied, scope)
        ? implied[scope]
        : undefined;
    for (const next of narrower ?? [])
      if (!granted.has(next)) (granted.add(next), pending.push(next));
  }
  return [...granted].sort();
}

type Jose = typeof import("jose", { with: { "resolution-mode": "import" } });
let joseModule: Promise<Jose> | undefined;

/**
 * jose, loaded on the first token to verify: it is published as an ES module
 * only, which a CommonJS project may not `require` under every TypeScript
 * module setting, and a project that verifies opaque tokens with its own
 * function never needs it installed.
 */
function loadJose(): Promise<Jose> {
  return (joseModule ??= import("jose"));
}

const invalid = (message: string): OAuthError =>
  new OAuthError(OAuthErrorCode.InvalidToken, message);

/**
 * jose's verdicts as the challenge states them. Fixed texts only: jose's own
 * messages name claims and values of the token, and nothing of a token goes
 * into an answer. A key set that cannot be fetched is the server's trouble,
 * not the token's, so it stays an error (the SDK answers 500).
 */
function jwtRefusal(error: unknown, joseErrors: Jose["errors"]): Error {
  if (error instanceof joseErrors.JWTExpired)
    return invalid("The access token has expired.");
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return invalid(
      "The access token was not issued for this server (issuer, audience or a required claim).",
    );
  // A timeout, a key set that is not one, a non-200 answer (jose's generic error), or no answer at all (fetch's own).
  const keySetTrouble =
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid ||
    (error instanceof joseErrors.JOSEError &&
      error.code === "ERR_JOSE_GENERIC");
  if (keySetTrouble || !(error instanceof joseErrors.JOSEError))
    return new Error("The authorization server's keys could not be read.");
  return invalid("The access token is not valid.");
}

/** The identity the SDK and the handlers get: never the token (AuthInfo requires the field; it stays empty). */
function authInfoOf(
  subject: string,
  clientId: string,
  scopes: readonly string[],
  expiresAt: number,
  resource: URL,
  claims: { readonly [claim: string]: unknown },
): AuthInfo {
  return {
    token: "",
    clientId,
    scopes: [...scopes],
    expiresAt,
    resource,
    extra: { subject, claims },
  };
}

const asList = (value: string | readonly string[]): readonly string[] =>
  typeof value === "string" ? [value] : value;

const remoteKeys =
  (url: URL) =>
  (jose: Jose): JWTVerifyGetKey =>
    jose.createRemoteJWKSet(url);

/** localhost, 127.0.0.0/8 and ::1: the only hosts a key set may be fetched from over plain http. */
function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** The key set's URL; plain http only on a loopback host, where nobody between can swap the keys. */
function jwksUrl(written: string): URL {
  const url = new URL(written);
  if (url.protocol === "http:" && !isLoopback(url))
    throw new Error(
      `auth: jwksUri ${JSON.stringify(written)} uses plain http on a host that is not loopback: anyone on the way could hand the server keys of their own and mint tokens; use https`,
    );
  return url;
}

function reportKeySetError(options: AuthOptions, error: unknown): void {
  try {
    if (options.onKeySetError !== undefined) options.onKeySetError(error);
    else
      console.error(
        `toolc auth: the key set at ${options.jwksUri ?? "(keys)"} could not be read; requests with tokens get 500:`,
        error,
      );
  } catch {
    // A failing hook changes nothing for the request, as a failing onTrace does not.
  }
}

function jwtVerifier(
  options: Settings,
  resource: URL,
  audience: readonly string[],
): OAuthTokenVerifier {
  const keySet = options.keys;
  const makeKeys =
    keySet !== undefined
      ? (jose: Jose) => jose.createLocalJWKSet(keySet)
      : remoteKeys(
          jwksUrl(
            required(
              options.jwksUri,
              "jwksUri (or keys, or verify)",
              options,
              "jwksUri",
            ),
          ),
        );
  // One key set per verifier, made once: jose's remote set caches and refreshes the keys it fetched.
  let keys: JWTVerifyGetKey | undefined;
  const servers = options.authorizationServers ?? [];
  const issuer =
    options.issuer ?? (servers.length === 1 ? servers[0] : undefined);
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const bad = algorithms.find((a) => !ALGORITHMS.includes(a));
  if (bad !== undefined)
    throw new Error(
      `auth: algorithm ${JSON.stringify(bad)} is not accepted; use ${ALGORITHMS.join(", ")}`,
    );
  const clockTolerance =
    options.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC;
  const verifyOptions = {
    issuer: required(
      issuer,
      "issuer (needed when there is not exactly one authorization server)",
      options,
      "issuer",
    ),
    audience: [...audience],
    algorithms,
    clockTolerance,
    requiredClaims: ["exp"],
  };
  return {
    async verifyAccessToken(token) {
      const jose = await loadJose();
      keys ??= makeKeys(jose);
      let payload: JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(token, keys, verifyOptions));
      } catch (error) {
        const refusal = jwtRefusal(error, jose.errors);
        // The key set's trouble is the operator's to fix: they hear of it, the caller does not.
        if (!(refusal instanceof OAuthError)) reportKeySetError(options, error);
        throw refusal;
      }
      const clientId =
        [payload["client_id"], payload["azp"], payload.sub].find(
          (v): v is string => typeof v === "string",
        ) ?? "";
      const scopes = withImplied(
        scopesOfClaims(payload),
        options.impliedScopes,
      );
      // jose allowed the skew on exp; the SDK checks exp again without it, so the accepted deadline is stated with it.
      return authInfoOf(
        payload.sub ?? clientId,
        clientId,
        scopes,
        (payload.exp ?? 0) + clockTolerance,
        resource,
        { ...payload },
      );
    },
  };
}

function functionVerifier(
  verify: TokenVerifier,
  options: AuthOptions,
  resource: URL,
  audience: readonly string[],
): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      let verified: VerifiedToken | undefined;
      try {
        verified = await verify(token);
      } catch {
        verified = undefined;
      }
      if (verified === undefined)
        throw invalid("The access token is not valid.");
      if (!asList(verified.audience).some((a) => audience.includes(a)))
        throw invalid(
          "The access token was not issued for this server (issuer, audience or a required claim).",
        );
      const scopes = withImplied(verified.scopes, options.impliedScopes);
      return authInfoOf(
        verified.subject,
        verified.clientId ?? verified.subject,
        scopes,
        verified.expiresAt,
        resource,
        { ...(verified.claims ?? {}) },
      );
    },
  };
}

function resolve(options: Settings, contracts: ScopedContracts): Resolved {
  // As written, not as URL prints it: RFC 9728 has the metadata's `resource` be the identifier clients use, byte for byte.
  const written = required(options.resource, "resource", options, "resource");
  const resource = new URL(written);
  const audience = asList(options.audience ?? written);
  const verifier =
    options.verify !== undefined
      ? functionVerifier(options.verify, options, resource, audience)
      : jwtVerifier(options, resource, audience);
  const scopes =
    options.scopesSupported ??
    [
      ...new Set(Object.values(contracts).flatMap((c) => c.scopes ?? [])),
    ].sort();
  const metadata: OAuthProtectedResourceMetadata = {
    resource: written,
    authorization_servers: [
      ...required(
        options.authorizationServers,
        "authorizationServers",
        options,
        "authorizationServers",
      ),
    ],
    bearer_methods_supported: ["header"],
    ...(scopes.length === 0 ? {} : { scopes_supported: [...scopes] }),
    ...(options.resourceName === undefined
      ? {}
      : { resource_name: options.resourceName }),
    ...(options.resourceDocumentation === undefined
      ? {}
      : { resource_documentation: options.resourceDocumentation }),
  };
  return {
    resource,
    metadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
    metadata,
    verifier,
  };
}

async function answerOf(response: Response): Promise<GateAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: await response.text() };
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://localhost").pathname.replace(
      /(.)\/$/,
      "$1",
    );
  } catch {
    return "";
  }
}

/** The tools/call names a JSON-RPC body (one message, or a 2025-03-26 batch) asks for. */
function calledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const names: string[] = [];
  for (const m of messages) {
    if (
      typeof m !== "object" ||
      m === null ||
      (m as { method?: unknown }).method !== "tools/call"
    )
      continue;
    const name = (m as { params?: { name?: unknown } }).params?.name;
    if (typeof name === "string") names.push(name);
  }
  return names;
}

/**
 * The gate for a server's contracts. `options` override `defaults` (the
 * config's `auth` section) key by key, except where they are `undefined`.
 * Throws when the settings are incomplete (no resource, no authorization
 * server, no way to verify), so a misconfigured server fails at start-up
 * rather than on its first request.
 */
export function createAuthGate(
  options: AuthOptions,
  contracts: ScopedContracts,
  defaults: AuthOptions = {},
): AuthGate {
  const settings = settingsOf(options, defaults);
  const resolved = resolve(settings, contracts);
  const byName = new Map(
    Object.values(contracts).map((c) => [c.name, c.scopes ?? []]),
  );
  const metadataPath = new URL(resolved.metadataUrl).pathname;
  const challenge = { resourceMetadataUrl: resolved.metadataUrl };
  return {
    listing: settings.listing ?? "allowed",
    answer(req) {
      if (pathOf(req.url) !== metadataPath) return undefined;
      const cors = { "access-control-allow-origin": "*" };
      if (req.method === "GET" || req.method === "HEAD") {
        return {
          status: 200,
          headers: { "content-type": "application/json", ...cors },
          body: req.method === "HEAD" ? "" : JSON.stringify(resolved.metadata),
        };
      }
      return {
        status: 405,
        headers: { allow: "GET, HEAD", ...cors },
        body: "",
      };
    },
    async authenticate(req) {
      const header = req.headers["authorization"];
      try {
        const auth = await verifyBearerToken(
          typeof header === "string" ? header : undefined,
          {
            verifier: resolved.verifier,
            expectedResource: resolved.resource,
            ...challenge,
          },
        );
        return { auth };
      } catch (error) {
        return {
          refused: await answerOf(
            bearerAuthChallengeResponse(error, challenge),
          ),
        };
      }
    },
    async authorize(auth, body) {
      const missing = new Set<string>();
      const tools: string[] = [];
      for (const name of calledTools(body)) {
        const needed = byName.get(name) ?? [];
        const lacking = needed.filter((scope) => !auth.scopes.includes(scope));
        if (lacking.length === 0) continue;
        tools.push(name);
        // Every scope the call needs in one challenge, as the spec asks, not only the ones lacking.
        for (const scope of needed) missing.add(scope);
      }
      if (tools.length === 0) return undefined;
      const error = new OAuthError(
        OAuthErrorCode.InsufficientScope,
        `Calling ${tools.join(", ")} needs the scopes ${[...missing].join(" ")}.`,
      );
      return answerOf(
        bearerAuthChallengeResponse(error, {
          ...challenge,
          requiredScopes: [...missing],
        }),
      );
    },
  };
}
