/**
 * The protected Streamable HTTP server end to end: test/fixtures/auth
 * generated for SDK 2.x, a key set served on loopback, tokens signed with
 * jose. Every bad token gets the spec's 401 or 403 with its
 * `WWW-Authenticate` challenge and runs no handler; the SDK 2.x client's own
 * auth provider and the MCP Inspector CLI (with a header) call it; tools/list
 * and tools/call follow the token's scopes on both protocol generations.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, type AuthInfo, type Server } from "@modelcontextprotocol/server";
import { rmSync } from "node:fs";
import type { RequestListener } from "node:http";
import { inspectorCli } from "../helpers/inspector.js";
import { authProject, close, ISSUER, load, serveLater, startIssuer, type Issuer } from "./auth/harness.js";
import { final, modernRequest, post } from "./rpc.js";

interface Caller {
  subject: string;
  clientId: string;
  scopes: readonly string[];
  claims: Record<string, unknown>;
}
interface Ctx {
  auth: Caller | undefined;
}
interface HttpApi {
  createHttpHandler(handlers: unknown, options?: Record<string, unknown>): RequestListener;
}
interface IndexApi {
  createServer(handlers: unknown): Server;
  createClient(client: Client): Record<string, (input: unknown) => Promise<Record<string, unknown>>>;
  bearerAuth(token: string | (() => Promise<string | undefined>)): Record<string, unknown>;
}

const calls: { tool: string; input: unknown; ctx: Ctx }[] = [];
const handlers = {
  whoami: (input: unknown, ctx: Ctx) => (calls.push({ tool: "whoami", input, ctx }), { subject: ctx.auth?.subject ?? "", clientId: ctx.auth?.clientId ?? "", scopes: [...(ctx.auth?.scopes ?? [])] }),
  get_order: (input: { orderId: string }, ctx: Ctx) => (calls.push({ tool: "get_order", input, ctx }), { orderId: input.orderId, status: "paid", caller: ctx.auth?.subject ?? "" }),
  refund_order: (input: unknown, ctx: Ctx) => (calls.push({ tool: "refund_order", input, ctx }), { refunded: true }),
  delete_customer: (input: { customerId: string }, ctx: Ctx) => (calls.push({ tool: "delete_customer", input, ctx }), { deleted: input.customerId }),
};

let dir: string;
let issuer: Issuer;
let site: Awaited<ReturnType<typeof serveLater>>;
let allSite: Awaited<ReturnType<typeof serveLater>>;
let api: IndexApi;

beforeAll(async () => {
  dir = await authProject();
  issuer = await startIssuer();
  const { createHttpHandler } = await load<HttpApi>(dir, "http.ts");
  api = await load<IndexApi>(dir, "index.ts");
  site = await serveLater();
  site.use(createHttpHandler(handlers, { auth: { resource: site.resource, jwksUri: issuer.jwksUri } }));
  allSite = await serveLater();
  allSite.use(createHttpHandler(handlers, { auth: { resource: allSite.resource, jwksUri: issuer.jwksUri, listing: "all" } }));
}, 120_000);

afterAll(async () => {
  await Promise.all([site && close(site.server), allSite && close(allSite.server), issuer?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const url = (): URL => new URL(site.resource);
const metadataUrl = (): string => `${site.origin}/.well-known/oauth-protected-resource/mcp`;

/** A raw tools/call with an Authorization header of our choosing: status, challenge, and whether a handler ran. */
async function rawCall(authorization: string | undefined, tool = "get_order", args: Record<string, unknown> = { orderId: "o1" }) {
  const before = calls.length;
  const response = await fetch(site.resource, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body: await response.text(), ran: calls.length - before };
}

describe("tokens", () => {
  const bad: [string, (aud: string) => Promise<string | undefined> | string | undefined][] = [
    ["no Authorization header", () => undefined],
    ["a token for another audience", (aud) => issuer.token(aud, { scope: "orders:read", aud: "https://other.example.com/mcp" }).then((t) => `Bearer ${t}`)],
    ["a token from another issuer", (aud) => issuer.token(aud, { scope: "orders:read", iss: "https://evil.example.com/" }).then((t) => `Bearer ${t}`)],
    ["an expired token (past the 5 s skew)", (aud) => issuer.token(aud, { scope: "orders:read", expiresIn: -60 }).then((t) => `Bearer ${t}`)],
    ["an unsigned token (alg: none)", (aud) => `Bearer ${issuer.unsigned(aud, { scope: "orders:read" })}`],
    ["a token signed with a key not in the set", (aud) => issuer.token(aud, { scope: "orders:read", unlistedKey: true }).then((t) => `Bearer ${t}`)],
    ["a token that is not a JWT", () => "Bearer not-a-jwt"],
    ["another scheme", () => "Basic dXNlcjpwYXNz"],
  ];

  it.each(bad)("%s: 401 invalid_token with resource_metadata, and no handler runs", async (_name, make) => {
    const result = await rawCall(await make(site.resource));
    expect(result.status).toBe(401);
    expect(result.challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
    expect(result.challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(result.ran).toBe(0);
  });

  it("an expired token within the clock skew is still accepted", async () => {
    const result = await rawCall(`Bearer ${await issuer.token(site.resource, { scope: "orders:read", expiresIn: -2 })}`);
    expect(result.status).toBe(200);
    expect(result.ran).toBe(1);
  });

  it("a right token runs the handler once; one lacking the tool's scope gets 403 insufficient_scope naming it", async () => {
    const right = await rawCall(`Bearer ${await issuer.token(site.resource, { scope: "orders:read" })}`);
    expect(right).toMatchObject({ status: 200, ran: 1 });
    const lacking = await rawCall(`Bearer ${await issuer.token(site.resource, { scope: "orders:read" })}`, "refund_order");
    expect(lacking.status).toBe(403);
    expect(lacking.challenge).toBe(`Bearer error="insufficient_scope", error_description="Calling refund_order needs the scopes orders:write.", scope="orders:write", resource_metadata="${metadataUrl()}"`);
    expect(lacking.ran).toBe(0);
  });

  it("under listing: allowed, a name no contract has reaches the server's -32602, while an existing tool outside the scopes gets 403", async () => {
    const token = `Bearer ${await issuer.token(site.resource, { scope: "orders:read" })}`;
    const unknown = await rawCall(token, "no_such_tool", {});
    expect(unknown.status).toBe(200);
    expect(unknown.body).toContain('"code":-32602');
    expect(unknown.challenge).toBeNull();
    expect(await rawCall(token, "delete_customer", { customerId: "c1" })).toMatchObject({ status: 403, ran: 0 });
  });

  it("a broader scope implies the narrower ones (auth.impliedScopes)", async () => {
    const admin = `Bearer ${await issuer.token(site.resource, { scope: "orders:admin" })}`;
    expect(await rawCall(admin, "refund_order")).toMatchObject({ status: 200, ran: 1 });
    expect(await rawCall(admin, "get_order")).toMatchObject({ status: 200, ran: 1 });
  });

  it("serves the protected-resource metadata at the path-aware well-known URI, without a token", async () => {
    const response = await fetch(metadataUrl());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: site.resource,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["customers:delete", "orders:read", "orders:write"],
      resource_name: "Orders (test)",
    });
    expect((await fetch(metadataUrl(), { method: "POST" })).status).toBe(405);
  });

  it("a key set that cannot be read is the server's trouble: 500, and no handler runs", async () => {
    const broken = await serveLater();
    const keys = await serveLater();
    keys.use((_req, res) => res.writeHead(503).end("down"));
    const { createHttpHandler } = await load<HttpApi>(dir, "http.ts");
    const reported: unknown[] = [];
    broken.use(createHttpHandler(handlers, { auth: { resource: broken.resource, jwksUri: `${keys.origin}/jwks.json`, onKeySetError: (e: unknown) => reported.push(e) } }));
    try {
      const before = calls.length;
      const response = await fetch(broken.resource, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${await issuer.token(broken.resource, { scope: "orders:read" })}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_order", arguments: { orderId: "o1" } } }),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "server_error", error_description: "Internal Server Error" });
      expect(calls.length).toBe(before);
      // The operator hears of it; the caller above got nothing of it.
      expect(reported.length).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([close(broken.server), close(keys.server)]);
    }
  });

  it("a run-time value that is undefined (an unset environment variable) keeps the config's", async () => {
    const { createHttpHandler } = await load<HttpApi>(dir, "http.ts");
    const env = await serveLater();
    env.use(createHttpHandler(handlers, { auth: { resource: undefined, jwksUri: issuer.jwksUri } }));
    try {
      const metadata = await fetch(`${env.origin}/.well-known/oauth-protected-resource/mcp`);
      // test/fixtures/auth/toolc.config.yaml's resource, not "resource is not set".
      expect(((await metadata.json()) as { resource: string }).resource).toBe("http://127.0.0.1/mcp");
    } finally {
      await close(env.server);
    }
  });

  it("the same in createFetchHandler (fetch.ts): an undefined run-time value keeps the config's", async () => {
    const { createFetchHandler } = await load<{ createFetchHandler(handlers: unknown, options?: Record<string, unknown>): (request: Request) => Promise<Response> }>(dir, "fetch.ts");
    const handler = createFetchHandler(handlers, { auth: { resource: undefined, keys: issuer.keySet } });
    const metadata = await handler(new Request("http://127.0.0.1/.well-known/oauth-protected-resource/mcp", { headers: { host: "127.0.0.1" } }));
    expect(((await metadata.json()) as { resource: string }).resource).toBe("http://127.0.0.1/mcp");
  });

  it("fetches the key set once and reuses it", () => {
    expect(issuer.fetches()).toBeGreaterThanOrEqual(1);
    expect(issuer.fetches()).toBeLessThanOrEqual(2);
  });
});

/** An SDK 2.x client whose transport sends `token` through the SDK's own AuthProvider. */
async function sdkClient(era: "legacy" | "modern", token: string | undefined, base = site): Promise<Client> {
  const client = new Client({ name: "auth-e2e", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(base.resource), { authProvider: { token: async () => token } }));
  return client;
}

describe.each(["legacy", "modern"] as const)("scopes per tool, %s generation", (era) => {
  it("tools/list shows the caller only what its scopes allow; a call outside them is refused with 403 either way", async () => {
    const token = await issuer.token(site.resource, { scope: "orders:read" });
    const client = await sdkClient(era, token);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_order", "whoami"]);
      const before = calls.length;
      await expect(client.callTool({ name: "refund_order", arguments: { orderId: "o1" } })).rejects.toMatchObject({ name: "InsufficientScopeError", requiredScope: "orders:write" });
      expect(calls.length).toBe(before);
    } finally {
      await client.close();
    }
    const listed = await sdkClient(era, await issuer.token(allSite.resource, { scope: "orders:read" }), allSite);
    try {
      expect((await listed.listTools()).tools.map((t) => t.name)).toEqual(["delete_customer", "get_order", "refund_order", "whoami"]);
      await expect(listed.callTool({ name: "refund_order", arguments: { orderId: "o1" } })).rejects.toMatchObject({ name: "InsufficientScopeError", requiredScope: "orders:write" });
    } finally {
      await listed.close();
    }
  });

  it("the handler sees the verified caller in ctx.auth, never the token", async () => {
    const token = await issuer.token(site.resource, { scope: "orders:read orders:write", sub: "user-42", clientId: "agent-7" });
    const client = await sdkClient(era, token);
    try {
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect(result.structuredContent).toEqual({ subject: "user-42", clientId: "agent-7", scopes: ["orders:read", "orders:write"] });
      const seen = calls.at(-1)!;
      expect(seen.ctx.auth?.claims).toMatchObject({ sub: "user-42", iss: ISSUER, aud: site.resource, client_id: "agent-7" });
      expect(JSON.stringify({ input: seen.input, auth: seen.ctx.auth })).not.toContain(token.split(".")[2]);
    } finally {
      await client.close();
    }
  });

  it("the typed client sends a fixed token string with every request", async () => {
    const token = await issuer.token(site.resource, { scope: "orders:read", sub: "user-fixed" });
    const connect = async (fixed: string) => {
      const c = new Client({ name: "typed-fixed", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
      await c.connect(new StreamableHTTPClientTransport(new URL(site.resource), api.bearerAuth(fixed)));
      return c;
    };
    const c = await connect(token);
    try {
      const tools = api.createClient(c);
      expect(await tools.get_order!({ orderId: "o10" })).toEqual({ ok: true, data: { orderId: "o10", status: "paid", caller: "user-fixed" } });
      expect(await tools.get_order!({ orderId: "o11" })).toMatchObject({ ok: true, data: { caller: "user-fixed" } });
      expect(await tools.refund_order!({ orderId: "o10" })).toMatchObject({ ok: false, code: "REJECTED", reason: "INSUFFICIENT_SCOPE" });
    } finally {
      await c.close();
    }
  });

  it("the typed client sends a token from a function and reports 401 and 403 as REJECTED envelopes", async () => {
    const token = await issuer.token(site.resource, { scope: "orders:read" });
    const connect = async (source: () => Promise<string | undefined>) => {
      const c = new Client({ name: "typed", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
      await c.connect(new StreamableHTTPClientTransport(new URL(site.resource), api.bearerAuth(source)));
      return c;
    };
    let current: string | undefined = token;
    const c = await connect(async () => current);
    try {
      const tools = api.createClient(c);
      expect(await tools.get_order!({ orderId: "o9" })).toEqual({ ok: true, data: { orderId: "o9", status: "paid", caller: "user-1" } });
      expect(await tools.refund_order!({ orderId: "o9" })).toEqual({
        ok: false, code: "REJECTED", reason: "INSUFFICIENT_SCOPE", retryable: false, effect: "none", tool: "refund_order", version: 1, attempts: 0,
        message: "The server refused the call: the access token lacks a scope it needs (HTTP 403 insufficient_scope): orders:write.",
      });
      current = await issuer.token(site.resource, { scope: "orders:read", expiresIn: -120 });
      expect(await tools.get_order!({ orderId: "o9" })).toEqual({
        ok: false, code: "REJECTED", reason: "UNAUTHORIZED", retryable: false, effect: "none", tool: "get_order", version: 1, attempts: 0,
        message: "The server refused the call: it needs a valid access token (HTTP 401).",
      });
    } finally {
      await c.close();
    }
  });
});

describe("the MCP Inspector CLI with an Authorization header", () => {
  it("lists and calls a protected server, and is refused without the header", async () => {
    const token = await issuer.token(site.resource, { scope: "orders:read" });
    const header = ["--header", `Authorization: Bearer ${token}`];
    const target = [site.resource, "--transport", "http"];
    const listed = await inspectorCli([...target, ...header, "--method", "tools/list"], dir);
    expect((listed["tools"] as { name: string }[]).map((t) => t.name)).toEqual(["get_order", "whoami"]);
    const called = await inspectorCli([...target, ...header, "--method", "tools/call", "--tool-name", "get_order", "--tool-arg", "orderId=o5"], dir);
    expect(called["structuredContent"]).toEqual({ orderId: "o5", status: "paid", caller: "user-1" });
    await expect(inspectorCli([...target, "--method", "tools/list"], dir)).rejects.toThrow();
  }, 120_000);
});

describe("raw requests of both generations", () => {
  it("a 2026-07-28 and a 2025-era tools/list carry the same scope filter", async () => {
    const token = await issuer.token(site.resource, { scope: "customers:delete" });
    const modern = final(await modernRequest(url(), "tools/list", {}, { headers: { authorization: `Bearer ${token}` } }));
    const legacy = final(await post(url(), { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, { "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${token}` }));
    const names = (m: Record<string, unknown>) => ((m["result"] as { tools: { name: string }[] }).tools).map((t) => t.name);
    expect(names(modern)).toEqual(["delete_customer", "whoami"]);
    expect(names(legacy)).toEqual(["delete_customer", "whoami"]);
  });
});

/**
 * The generated server mounted behind a transport of its own (the SDK's
 * `createMcpHandler`, as an application with its own auth middleware would
 * mount it): the caller arrives as the SDK's pass-through `authInfo`, and no
 * gate checked its scopes. The server refuses out-of-scope calls itself.
 */
describe.each(["legacy", "modern"] as const)("a server behind another transport's auth, %s generation", (era) => {
  async function mounted(scopes: string[]): Promise<{ client: Client; close: () => Promise<void> }> {
    const entry = createMcpHandler(() => api.createServer(handlers), { legacy: "stateless" });
    const authInfo: AuthInfo = { token: "", clientId: "gateway-app", scopes, expiresAt: Math.floor(Date.now() / 1000) + 600, extra: { subject: "user-77" } };
    const fetchThrough = (input: string | URL, init?: RequestInit) => entry.fetch(new Request(input, init), { authInfo });
    const client = new Client({ name: "mounted", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchThrough }));
    return { client, close: () => client.close() };
  }

  it("lists what the caller's scopes allow, refuses an out-of-scope tool as REJECTED INSUFFICIENT_SCOPE, and an unknown one with -32602", async () => {
    const { client, close: closeClient } = await mounted(["orders:read"]);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_order", "whoami"]);
      const before = calls.length;
      const tools = api.createClient(client);
      expect(await tools.refund_order!({ orderId: "o1" })).toEqual({
        ok: false, code: "REJECTED", reason: "INSUFFICIENT_SCOPE", retryable: false, effect: "none", tool: "refund_order", version: 1, attempts: 0,
        message: "Calling refund_order needs the scopes orders:write.",
      });
      expect(calls.length).toBe(before);
      await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
      expect(await tools.get_order!({ orderId: "o2" })).toEqual({ ok: true, data: { orderId: "o2", status: "paid", caller: "user-77" } });
      expect(calls.length).toBe(before + 1);
    } finally {
      await closeClient();
    }
  });

  it("a caller with the scope runs the tool", async () => {
    const { client, close: closeClient } = await mounted(["orders:write"]);
    try {
      expect(await api.createClient(client).refund_order!({ orderId: "o3" })).toEqual({ ok: true, data: { refunded: true } });
    } finally {
      await closeClient();
    }
  });
});
