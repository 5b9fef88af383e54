/**
 * The `auth:` section of toolc.config.yaml: whether the generated Streamable
 * HTTP server is an OAuth resource server (MCP authorization), and the
 * defaults it starts from. The schema (schema/config.schema.json) checks the
 * shape; this checks what the schema cannot (URLs that parse, an issuer
 * that follows from the servers, the SDK line) and gives the setting the
 * emitters and normalize read.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, SourceLocation } from "../ir.js";
import type { McpSdkLine } from "./mcp-sdk.js";

/** The section as written (see config.schema.json). */
export interface AuthConfigValues {
  readonly resource?: string;
  readonly authorizationServers?: readonly string[];
  readonly issuer?: string;
  readonly audience?: string | readonly string[];
  readonly jwksUri?: string;
  readonly algorithms?: readonly string[];
  readonly clockToleranceSec?: number;
  readonly defaultScopes?: readonly string[];
  readonly impliedScopes?: Readonly<Record<string, readonly string[]>>;
  readonly listing?: "allowed" | "all";
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/**
 * What the compiler knows of auth: that it is on, the default scopes
 * normalize applies, and the resource-server defaults the generated
 * `http.ts` carries (everything but the default scopes, which are already
 * in each contract).
 */
export interface AuthSetting {
  readonly defaultScopes: readonly string[];
  readonly server: Readonly<Omit<AuthConfigValues, "defaultScopes">>;
}

/** An absolute http(s) URL without a fragment (RFC 8707 section 2 forbids one in a resource indicator). */
function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http or https URL";
  if (url.hash !== "") return "must not have a fragment";
  return undefined;
}

const URL_KEYS = ["resource", "issuer", "jwksUri", "resourceDocumentation"] as const;

/**
 * A key set fetched over plain http can be swapped by anyone on the way, who then mints tokens
 * the server accepts: https, except on a loopback host (the runtime checks a run-time value alike).
 */
function jwksProblem(value: string): string | undefined {
  const url = new URL(value);
  const host = url.hostname;
  const loopback = host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return url.protocol === "http:" && !loopback
    ? "uses plain http on a host that is not loopback: anyone on the way could hand the server keys of their own; use https"
    : undefined;
}

/**
 * The setting, or the located problems with it. `at` locates a key below
 * `auth` (an empty path: the section itself, or the key's place when it is
 * not written). `cacheScope` is `mcp.cache`'s.
 */
export function authSetting(
  values: AuthConfigValues,
  sdk: McpSdkLine,
  cacheScope: "public" | "private" | undefined,
  at: (path: readonly (string | number)[]) => SourceLocation,
): { setting?: AuthSetting; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (cacheScope === "public" && values.listing !== "all") {
    // tools/list then depends on the caller's scopes: a shared cache would hand one caller's list to another.
    diagnostics.push(
      error(
        at(["listing"]),
        Codes.invalidValue,
        "`mcp.cache.cacheScope: public` with auth on: each caller's tools/list shows what its scopes allow, so shared caches must not keep it; use `cacheScope: private`, or `auth.listing: all`",
      ),
    );
  }
  if (sdk !== 2) {
    diagnostics.push(
      error(
        at([]),
        Codes.invalidValue,
        "`auth` needs MCP SDK 2.x (`mcp.sdk: 2`): the resource server is built on SDK 2.x's bearer-token and metadata helpers, which SDK 1.x has only as Express middleware (docs/authorization.md)",
      ),
    );
  }
  for (const key of URL_KEYS) {
    const value = values[key];
    const problem = value === undefined ? undefined : (urlProblem(value) ?? (key === "jwksUri" ? jwksProblem(value) : undefined));
    if (problem !== undefined) diagnostics.push(error(at([key]), Codes.invalidValue, `\`auth.${key}\` ${problem}: ${JSON.stringify(value)}`));
  }
  values.authorizationServers?.forEach((server, i) => {
    const problem = urlProblem(server);
    if (problem !== undefined)
      diagnostics.push(error(at(["authorizationServers", i]), Codes.invalidValue, `\`auth.authorizationServers\` entry ${problem}: ${JSON.stringify(server)}`));
  });
  if (diagnostics.length > 0) return { diagnostics };
  const { defaultScopes = [], ...server } = values;
  return { setting: { defaultScopes, server }, diagnostics };
}
