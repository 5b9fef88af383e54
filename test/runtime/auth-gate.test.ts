/**
 * The resource server's gate (runtime/sdk2/auth.ts) on its own, with no
 * network: a verify function of the application's own (opaque tokens,
 * introspection), a local key set (`keys`) with tokens signed by jose, the
 * `issuer` and `audience` overrides, and scopes in `scp`. Every refusal is the
 * SDK's 401 with its challenge, and never carries the token.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWTPayload } from "jose";
import { createAuthGate, type AuthGate, type AuthOptions, type VerifiedToken } from "../../generator/runtime/sdk2/auth.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://login.example.com/realms/orders";
const METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const CONTRACTS = {
  get_order: { name: "get_order", scopes: ["orders:read"] },
  refund_order: { name: "refund_order", scopes: ["orders:write"] },
};
const BASE: AuthOptions = { resource: RESOURCE, authorizationServers: [ISSUER], impliedScopes: { "orders:admin": ["orders:read", "orders:write"] } };

const request = (token: string) => ({ method: "POST", url: "/mcp", headers: { authorization: `Bearer ${token}` } });
const call = (tool: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: {} } });
const inAnHour = (): number => Math.floor(Date.now() / 1000) + 3600;

/** The caller the gate accepted, or the 401 it answered (with the token nowhere in it). */
async function authenticate(gate: AuthGate, token: string) {
  const result = await gate.authenticate(request(token));
  if ("auth" in result) return { auth: result.auth };
  const { status, headers, body } = result.refused;
  expect(JSON.stringify(result.refused)).not.toContain(token);
  return { status, challenge: headers["www-authenticate"], body };
}

function expectInvalidToken(result: Awaited<ReturnType<typeof authenticate>>, description: string): void {
  expect(result).toMatchObject({ status: 401, challenge: `Bearer error="invalid_token", error_description="${description}", resource_metadata="${METADATA}"` });
}

describe("a verify function of your own", () => {
  const NOT_FOR_US = "The access token was not issued for this server (issuer, audience or a required claim).";
  const opaque = "opaque-7f3a9c";
  const accepted = (over: Partial<VerifiedToken> = {}): VerifiedToken => ({
    subject: "user-9", clientId: "agent-3", scopes: ["orders:admin"], audience: RESOURCE, expiresAt: inAnHour(), claims: { tenant: "t1" }, ...over,
  });
  const gateWith = (verify: AuthOptions["verify"]): AuthGate => createAuthGate({ ...BASE, verify }, CONTRACTS);

  it("accepted: the caller is what it returned, implied scopes added, and the token is kept out", async () => {
    const seen: string[] = [];
    const gate = gateWith(async (token) => (seen.push(token), accepted()));
    const { auth } = await authenticate(gate, opaque);
    expect(seen).toEqual([opaque]);
    expect(auth).toEqual({
      token: "", clientId: "agent-3", scopes: ["orders:admin", "orders:read", "orders:write"], expiresAt: expect.any(Number),
      resource: new URL(RESOURCE), resourceMetadataUrl: METADATA, extra: { subject: "user-9", claims: { tenant: "t1" } },
    });
    expect(await gate.authorize(auth!, call("refund_order"))).toBeUndefined();
  });

  it("returning undefined refuses the token with 401", async () => {
    expectInvalidToken(await authenticate(gateWith(async () => undefined), opaque), "The access token is not valid.");
  });

  it("throwing refuses the token with 401, and its message stays out of the answer", async () => {
    const result = await authenticate(gateWith(async (token) => { throw new Error(`introspection said no to ${token} (secret detail)`); }), opaque);
    expectInvalidToken(result, "The access token is not valid.");
    expect(JSON.stringify(result)).not.toContain("secret detail");
  });

  it("a token for another audience is refused with 401", async () => {
    expectInvalidToken(await authenticate(gateWith(async () => accepted({ audience: ["https://other.example.com/api"] })), opaque), NOT_FOR_US);
  });

  it("a token past its expiry is refused with 401", async () => {
    expectInvalidToken(await authenticate(gateWith(async () => accepted({ expiresAt: Math.floor(Date.now() / 1000) - 5 })), opaque), "Token has expired");
  });

  it("the scopes it reports decide tools/call: one lacking a tool's scope gets 403", async () => {
    const gate = gateWith(async () => accepted({ scopes: ["orders:read"] }));
    const { auth } = await authenticate(gate, opaque);
    expect(await gate.authorize(auth!, call("get_order"))).toBeUndefined();
    expect(await gate.authorize(auth!, call("refund_order"))).toMatchObject({ status: 403, headers: { "www-authenticate": expect.stringContaining('scope="orders:write"') } });
  });
});

describe("a local key set (keys) with tokens signed by jose", () => {
  let listed: CryptoKey;
  let unlisted: CryptoKey;
  let keys: JSONWebKeySet;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256");
    listed = pair.privateKey;
    unlisted = (await generateKeyPair("ES256")).privateKey;
    keys = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };
  });

  const token = (claims: JWTPayload, options: { iss?: string; aud?: string | string[]; exp?: number; key?: CryptoKey } = {}): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setSubject("user-1")
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? RESOURCE)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? inAnHour())
      .sign(options.key ?? listed);
  const gate = (over: AuthOptions = {}): AuthGate => createAuthGate({ ...BASE, algorithms: ["ES256"], keys, ...over }, CONTRACTS);
  const NOT_FOR_US = "The access token was not issued for this server (issuer, audience or a required claim).";

  it("verifies a token against the set, with no key set URL", async () => {
    const { auth } = await authenticate(gate(), await token({ scope: "orders:read", client_id: "app" }));
    expect(auth).toMatchObject({ clientId: "app", scopes: ["orders:read"], extra: { subject: "user-1", claims: { iss: ISSUER, aud: RESOURCE } } });
  });

  it("refuses a token signed with a key the set does not list", async () => {
    expectInvalidToken(await authenticate(gate(), await token({ scope: "orders:read" }, { key: unlisted })), "The access token is not valid.");
  });

  it("refuses a token past its expiry and the clock skew", async () => {
    const exp = Math.floor(Date.now() / 1000) - 120;
    expectInvalidToken(await authenticate(gate({ clockToleranceSec: 30 }), await token({ scope: "orders:read" }, { exp })), "The access token has expired.");
  });

  it("issuer: the iss a token must carry, instead of the one authorization server", async () => {
    const other = "https://issuer.example.com/tenant-1/v2.0";
    const overridden = gate({ issuer: other });
    expect(await authenticate(overridden, await token({ scope: "orders:read" }, { iss: other }))).toHaveProperty("auth");
    expectInvalidToken(await authenticate(overridden, await token({ scope: "orders:read" })), NOT_FOR_US);
    expectInvalidToken(await authenticate(gate(), await token({ scope: "orders:read" }, { iss: other })), NOT_FOR_US);
  });

  it("issuer is required when there is not exactly one authorization server", () => {
    expect(() => gate({ authorizationServers: [ISSUER, "https://second.example.com/"] })).toThrow(/auth: issuer .* is not set/);
    expect(() => gate({ authorizationServers: [ISSUER, "https://second.example.com/"], issuer: ISSUER })).not.toThrow();
  });

  it("audience: the aud a token must carry, instead of the resource", async () => {
    const clientId = "api://orders-mcp";
    const overridden = gate({ audience: [clientId, "https://alt.example.com/mcp"] });
    expect(await authenticate(overridden, await token({ scope: "orders:read" }, { aud: clientId }))).toHaveProperty("auth");
    expect(await authenticate(overridden, await token({ scope: "orders:read" }, { aud: ["https://unrelated.example.com", "https://alt.example.com/mcp"] }))).toHaveProperty("auth");
    expectInvalidToken(await authenticate(overridden, await token({ scope: "orders:read" })), NOT_FOR_US);
    expectInvalidToken(await authenticate(gate(), await token({ scope: "orders:read" }, { aud: clientId })), NOT_FOR_US);
  });

  it.each([
    ["scp as a space-separated string", { scp: "orders:read orders:write" }, ["orders:read", "orders:write"]],
    ["scp as an array", { scp: ["orders:write", "orders:read"] }, ["orders:read", "orders:write"]],
    ["scope and scp together", { scope: "orders:read", scp: ["orders:write"] }, ["orders:read", "orders:write"]],
    ["scp naming a broader scope", { scp: ["orders:admin"] }, ["orders:admin", "orders:read", "orders:write"]],
    ["scp with entries that are not strings", { scp: ["orders:read", 7, null] }, ["orders:read"]],
  ])("%s", async (_name, claims, scopes) => {
    const g = gate();
    const { auth } = await authenticate(g, await token(claims));
    expect(auth?.scopes).toEqual(scopes);
    const refund = await g.authorize(auth!, call("refund_order"));
    if (scopes.includes("orders:write")) expect(refund).toBeUndefined();
    else expect(refund?.status).toBe(403);
  });

  it("a key set that cannot be fetched tells the operator (onKeySetError, else stderr), and the caller only gets a 500", async () => {
    // Port 9 (discard) on loopback: nothing listens, so the fetch fails at once, with no traffic off this machine.
    const jwksUri = "http://127.0.0.1:9/jwks.json";
    const reported: unknown[] = [];
    const hooked = createAuthGate({ ...BASE, algorithms: ["ES256"], jwksUri, onKeySetError: (e) => reported.push(e) }, CONTRACTS);
    const result = await authenticate(hooked, await token({ scope: "orders:read" }));
    expect(result).toMatchObject({ status: 500 });
    expect(JSON.parse(result.body ?? "")).toEqual({ error: "server_error", error_description: "Internal Server Error" });
    expect(reported).toHaveLength(1);
    // Without a hook, a line on stderr names the key set.
    const logged: unknown[][] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      await authenticate(createAuthGate({ ...BASE, algorithms: ["ES256"], jwksUri }, CONTRACTS), await token({ scope: "orders:read" }));
    } finally {
      spy.mockRestore();
    }
    expect(String(logged[0]?.[0])).toContain(`the key set at ${jwksUri} could not be read`);
  });
});

describe("settings: the config's, overridden at run time", () => {
  const verify: AuthOptions["verify"] = async () => undefined;
  const CONFIG: AuthOptions = { resource: RESOURCE, authorizationServers: [ISSUER] };

  it("an undefined run-time value (an unset environment variable) keeps the config's", () => {
    const gate = createAuthGate({ resource: undefined, authorizationServers: undefined, verify }, CONTRACTS, CONFIG);
    const metadata = gate.answer({ method: "GET", url: "/.well-known/oauth-protected-resource/mcp", headers: {} });
    expect(JSON.parse(metadata?.body ?? "")).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });
    // A value given at run time still wins.
    const other = "https://other.example.com/mcp";
    const overridden = createAuthGate({ resource: other, verify }, CONTRACTS, CONFIG);
    expect(overridden.answer({ method: "GET", url: "/.well-known/oauth-protected-resource/mcp", headers: {} })?.body).toContain(other);
  });

  it("says where a value was lost when neither side has it", () => {
    expect(() => createAuthGate({ resource: undefined, verify }, CONTRACTS, { authorizationServers: [ISSUER] })).toThrow(
      "auth: resource is not set: createHttpHandler's auth option gives resource: undefined (an unset environment variable?), and toolc.config.yaml's auth section has no resource to fall back on",
    );
    expect(() => createAuthGate({ verify }, CONTRACTS, { authorizationServers: [ISSUER] })).toThrow(
      "auth: resource is not set (toolc.config.yaml's auth section, or createHttpHandler's auth option)",
    );
  });

  it("refuses a key set over plain http on a host that is not loopback, at start-up", () => {
    expect(() => createAuthGate({ jwksUri: "http://login.example.com/jwks.json" }, CONTRACTS, CONFIG)).toThrow(
      'auth: jwksUri "http://login.example.com/jwks.json" uses plain http on a host that is not loopback',
    );
    for (const jwksUri of ["https://login.example.com/jwks.json", "http://127.0.0.1:8081/", "http://localhost:8081/", "http://[::1]:8081/"])
      expect(() => createAuthGate({ jwksUri }, CONTRACTS, CONFIG), jwksUri).not.toThrow();
  });
});
