/**
 * Real parts for the authorization tests: an authorization server's key set
 * served on loopback, tokens signed with jose (and the bad ones an attacker
 * would try), and test/fixtures/auth generated into a consumer-like project
 * whose protected Streamable HTTP server runs in this process or as a
 * spawned stdio or HTTP process.
 */
import { createServer as createNodeServer, type RequestListener, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey } from "jose";
import { generate, linkAllModules } from "../../contract-tests/project.js";
import { ROOT } from "../../compiler/helpers.js";

export const ISSUER = "https://auth.example.com/";

export interface TokenClaims {
  readonly scope?: string;
  readonly sub?: string;
  readonly aud?: string;
  readonly iss?: string;
  /** Seconds from now; negative: already expired. */
  readonly expiresIn?: number;
  readonly clientId?: string;
  /** A key the key set does not list. */
  readonly unlistedKey?: boolean;
}

export interface Issuer {
  readonly jwksUri: string;
  /** The key set served at jwksUri, for a gate handed its keys (`auth.keys`) instead of fetching them. */
  readonly keySet: { keys: object[] };
  /** How many times the key set was fetched. */
  fetches(): number;
  token(audience: string, claims?: TokenClaims): Promise<string>;
  /** An unsigned token (`alg: none`) with the claims a valid one would have. */
  unsigned(audience: string, claims?: TokenClaims): string;
  close(): Promise<void>;
}

async function listen(listener: RequestListener): Promise<{ server: HttpServer; origin: string }> {
  const server = createNodeServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function close(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** An authorization server's key set on loopback, and tokens signed with its key (or with one it does not list). */
export async function startIssuer(): Promise<Issuer> {
  const listed = await generateKeyPair("RS256");
  const unlisted = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(listed.publicKey)), kid: "listed", alg: "RS256", use: "sig" };
  let fetches = 0;
  const { server, origin } = await listen((_req, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const payload = (claims: TokenClaims) => ({ ...(claims.scope === undefined ? {} : { scope: claims.scope }), client_id: claims.clientId ?? "agent-app" });
  const expiry = (claims: TokenClaims) => Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 600);
  return {
    jwksUri: `${origin}/jwks.json`,
    keySet: { keys: [jwk] },
    fetches: () => fetches,
    token(audience, claims = {}) {
      const [key, kid]: [CryptoKey, string] = claims.unlistedKey ? [unlisted.privateKey, "unlisted"] : [listed.privateKey, "listed"];
      return new SignJWT(payload(claims))
        .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
        .setSubject(claims.sub ?? "user-1")
        .setIssuer(claims.iss ?? ISSUER)
        .setAudience(claims.aud ?? audience)
        .setIssuedAt()
        .setExpirationTime(expiry(claims))
        .sign(key);
    },
    unsigned(audience, claims = {}) {
      return new UnsecuredJWT(payload(claims)).setSubject(claims.sub ?? "user-1").setIssuer(ISSUER).setAudience(audience).setIssuedAt().setExpirationTime(expiry(claims)).encode();
    },
    close: () => close(server),
  };
}

/** test/fixtures/auth, plus `extra` definitions (file name → YAML), generated into a temp project on SDK 2.x, with jose as the dependency auth adds. */
export async function authProject(extra: Readonly<Record<string, string>> = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "toolc-auth-"));
  cpSync(join(ROOT, "test/fixtures/auth/definitions"), join(dir, "definitions"), { recursive: true });
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, "definitions", file), text);
  cpSync(join(ROOT, "test/fixtures/auth/toolc.config.yaml"), join(dir, "toolc.config.yaml"));
  const dependencies = { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/client": "*", "@modelcontextprotocol/node": "*", jose: "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "auth-fixture", private: true, type: "module", dependencies }));
  linkAllModules(dir);
  await generate(dir);
  return dir;
}

export async function load<T>(dir: string, file: string): Promise<T> {
  return (await import(pathToFileURL(join(dir, "generated", file)).href)) as T;
}

/** A listener that exists before the handler does: the handler needs the URL, which needs the port. */
export async function serveLater(): Promise<{ server: HttpServer; origin: string; resource: string; use(handler: RequestListener): void }> {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const { server, origin } = await listen((req, res) => handler(req, res));
  return { server, origin, resource: `${origin}/mcp`, use: (h) => void (handler = h) };
}
