/**
 * Rate limits declared, not wired: a generated project whose
 * toolc.config.yaml gives every tool a limit (ping: 3 calls a minute) and
 * whose contract `echo` declares its own (2 a minute). The generated code
 * counts each call once on every entry: the Node handler and the fetch
 * handler at the border (429 with Retry-After, the envelope in the body),
 * a server over a transport of its own and `execute` in the executor (the
 * envelope), each against one counter per tool and caller in the store.
 * A confirmed call (`wipe`) is two requests over HTTP, the question and the
 * answer, and counts once; a call whose input is invalid counts too.
 */
import { createServer as createNodeServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { Server } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, linkAllModules } from "../contract-tests/project.js";
import { connectInMemory, envelopeOf, newClient } from "./helpers.js";
import { envelope, modernHeaders } from "./rpc.js";

const tool = (name: string, own: string, effect = "read"): string => `name: ${name}
version: 1
description: Answers with its number.
effect: ${effect}
${own}input:
  type: object
  properties:
    n: { type: integer }
  required: [n]
  additionalProperties: false
output:
  type: object
  properties:
    n: { type: integer }
  required: [n]
`;

type Handlers = Record<string, (input: { n: number }) => { n: number }>;
type Store = { readonly local?: boolean };
interface Options {
  store?: Store;
  instances?: number;
  caller?: { subject: string; clientId: string; scopes: string[]; claims: object; expiresAt: undefined };
  onTrace?: (event: { reason?: string }) => void;
}
interface Index {
  execute(tool: string, input: unknown, handlers: Handlers, options?: Options): Promise<Record<string, unknown>>;
  createServer(handlers: Handlers, options?: Options): Server;
  contracts: Record<string, { rateLimit?: unknown; errors: Record<string, string> }>;
}
interface Http {
  createHttpHandler(handlers: Handlers, options?: Options): (req: unknown, res: unknown) => Promise<void>;
}
interface Fetch {
  createFetchHandler(handlers: Handlers, options?: Options): (request: Request) => Promise<Response>;
}
interface Stores {
  memoryStore(): Store;
}

let dir: string;
let index: Index;
let http: Http;
let fetchModule: Fetch;
let stores: Stores;
let runs = 0;
const handlers: Handlers = {
  ping: (input) => (runs++, { n: input.n }),
  echo: (input) => (runs++, { n: input.n }),
};
/** With the confirmed tool served too (a server serves the tools it has handlers for). */
const withWipe: Handlers = { ...handlers, wipe: (input) => (runs++, { n: input.n }) };

const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(dir, "generated", file)).href)) as T;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolc-rate-"));
  mkdirSync(join(dir, "definitions"));
  writeFileSync(join(dir, "definitions", "ping.yaml"), tool("ping", ""));
  writeFileSync(join(dir, "definitions", "echo.yaml"), tool("echo", "rateLimit: { calls: 2, windowSeconds: 60, per: client }\n"));
  writeFileSync(join(dir, "definitions", "wipe.yaml"), tool("wipe", "confirm: true\nrateLimit: { calls: 2, windowSeconds: 60 }\n", "destructive"));
  writeFileSync(
    join(dir, "toolc.config.yaml"),
    "definitions: definitions\nout: generated\nmcp: { sdk: 2 }\nproviders: false\ndocs: { out: catalog }\nrateLimit: { calls: 3, windowSeconds: 60 }\n",
  );
  const dependencies = { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/client": "*", "@modelcontextprotocol/node": "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "rate-fixture", private: true, type: "module", dependencies }));
  linkAllModules(dir);
  await generate(dir);
  [index, http, fetchModule, stores] = await Promise.all([load<Index>("index.ts"), load<Http>("http.ts"), load<Fetch>("fetch.ts"), load<Stores>("runtime/store.ts")]);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const LIMITED = { ok: false, code: "REJECTED", reason: "RATE_LIMITED", retryable: true, effect: "none", attempts: 0 };

/** tools/call as a 2026-07-28 POST, through `send`; its status, Retry-After and JSON-RPC result. */
async function rawCall(send: (request: Request) => Promise<Response>, name: string, n: number, args: unknown = { n }) {
  const response = await send(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", accept: "application/json, text/event-stream", ...modernHeaders("tools/call", name) },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: n,
        method: "tools/call",
        params: { name, arguments: args, _meta: envelope() },
      }),
    }),
  );
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
}

describe("a rate limit declared in toolc.config.yaml and in a contract", () => {
  it("is compiled into each contract: the contract's own replaces the config's, and RATE_LIMITED joins the declared reasons", () => {
    expect(index.contracts["ping"]?.rateLimit).toEqual({ calls: 3, windowSeconds: 60, per: "subject" });
    expect(index.contracts["echo"]?.rateLimit).toEqual({ calls: 2, windowSeconds: 60, per: "client" });
    expect(Object.keys(index.contracts["ping"]?.errors ?? {})).toContain("RATE_LIMITED");
  });

  it("is shown on each tool's catalog page", () => {
    expect(readFileSync(join(dir, "catalog", "tools", "ping.md"), "utf8")).toMatch(/Rate limit.*3 calls per 60 s per caller \(the token's subject\)/);
    expect(readFileSync(join(dir, "catalog", "tools", "echo.md"), "utf8")).toMatch(/Rate limit.*2 calls per 60 s per OAuth client/);
  });

  it("the Node handler, called with the MCP SDK client: the call over the limit is 429 whose body is the envelope, and each call is counted once", async () => {
    const traces: string[] = [];
    // The store given is the one every count would use: a call counted at the border and again by the server would be refused at its second call.
    const handler = http.createHttpHandler(handlers, { store: stores.memoryStore(), onTrace: (event) => event.reason && traces.push(event.reason) });
    const server: HttpServer = createNodeServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
      const client = newClient("modern");
      await client.connect(new StreamableHTTPClientTransport(url));
      runs = 0;
      for (let n = 0; n < 3; n++) expect(((await client.callTool({ name: "ping", arguments: { n } })) as CallToolResult).structuredContent).toEqual({ n });
      const refused = await client.callTool({ name: "ping", arguments: { n: 3 } }).then(
        () => undefined,
        (error: unknown) => error as { data?: { status?: number; text?: string } },
      );
      expect(refused?.data?.status).toBe(429);
      const body = JSON.parse(refused?.data?.text ?? "{}") as { result: CallToolResult };
      expect(envelopeOf(body.result)).toMatchObject({ ...LIMITED, tool: "ping" });
      expect(runs).toBe(3);
      // echo counts on its own: two of its own calls pass, the third is refused.
      for (let n = 0; n < 2; n++) expect(((await client.callTool({ name: "echo", arguments: { n } })) as CallToolResult).structuredContent).toEqual({ n });
      await expect(client.callTool({ name: "echo", arguments: { n: 2 } })).rejects.toMatchObject({ data: { status: 429 } });
      expect(traces).toEqual(["RATE_LIMITED", "RATE_LIMITED"]);
      await client.close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the fetch handler: 429 with Retry-After in seconds, the envelope in the body", async () => {
    const handler = fetchModule.createFetchHandler(handlers, { store: stores.memoryStore() });
    const replies = [];
    for (let n = 0; n < 4; n++) replies.push(await rawCall(handler, "ping", n));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const last = replies[3]!;
    expect(Number(last.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(last.retryAfter)).toBeLessThanOrEqual(60);
    expect(envelopeOf((JSON.parse(last.text) as { result: CallToolResult }).result)).toMatchObject({ ...LIMITED, tool: "ping", message: `Too many calls: try again in ${last.retryAfter} s. Nothing was done.` });
  });

  it("a server over a transport of its own (here in memory, as over stdio): the envelope, and the handler does not run", async () => {
    const client = await connectInMemory(index.createServer(handlers, { store: stores.memoryStore() }));
    runs = 0;
    for (let n = 0; n < 3; n++) expect(((await client.callTool({ name: "ping", arguments: { n } })) as CallToolResult).isError).toBeFalsy();
    expect(envelopeOf((await client.callTool({ name: "ping", arguments: { n: 3 } })) as CallToolResult)).toMatchObject({ ...LIMITED, tool: "ping" });
    expect(runs).toBe(3);
    await client.close();
  });

  it("execute: counted per caller in the store given, so two entries sharing a store share the limit", async () => {
    const store = stores.memoryStore();
    const caller = (subject: string) => ({ subject, clientId: "app", scopes: [], claims: {}, expiresAt: undefined });
    const ann = { store, caller: caller("ann") };
    const results = [];
    for (let n = 0; n < 4; n++) results.push(await index.execute("ping", { n }, handlers, ann));
    expect(results.map((r) => r["ok"])).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ ...LIMITED, tool: "ping" });
    // Another subject has a counter of its own.
    expect(await index.execute("ping", { n: 9 }, handlers, { store, caller: caller("bob") })).toMatchObject({ ok: true });
    // echo is counted per client: ann and bob share app's two calls.
    expect(await index.execute("echo", { n: 1 }, handlers, ann)).toMatchObject({ ok: true });
    expect(await index.execute("echo", { n: 2 }, handlers, { store, caller: caller("bob") })).toMatchObject({ ok: true });
    expect(await index.execute("echo", { n: 3 }, handlers, ann)).toMatchObject({ ...LIMITED, tool: "echo" });
    // A server over the same store counts against the same counter: ann's ping is already over.
    const client = await connectInMemory(index.createServer(handlers, { store }));
    expect((await client.callTool({ name: "ping", arguments: { n: 1 } })).isError).toBeFalsy(); // anonymous: a counter of its own
    await client.close();
  });

  it("a confirmed call over HTTP, asked and answered through the MCP SDK client, counts once: two of them run, the third is refused before the user is asked", async () => {
    const handler = http.createHttpHandler(withWipe, { store: stores.memoryStore() });
    const server: HttpServer = createNodeServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const asked: string[] = [];
    const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { confirm: true } };
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
      runs = 0;
      for (let n = 0; n < 2; n++) expect(((await client.callTool({ name: "wipe", arguments: { n } })) as CallToolResult).structuredContent).toEqual({ n });
      expect([runs, asked.length]).toEqual([2, 2]);
      await expect(client.callTool({ name: "wipe", arguments: { n: 2 } })).rejects.toMatchObject({ data: { status: 429 } });
      expect([runs, asked.length]).toEqual([2, 2]);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a call with invalid input counts against the limit, at the border as in the executor: it is counted before it is validated", async () => {
    const handler = fetchModule.createFetchHandler(handlers, { store: stores.memoryStore() });
    const invalid = { status: 200, text: expect.stringContaining('"code":"INVALID_INPUT"') as unknown };
    const replies = [];
    for (const [n, args] of [{ n: "one" }, {}, { n: 2, extra: true }, { n: 3 }].entries()) replies.push(await rawCall(handler, "ping", n, args));
    expect(replies.slice(0, 3)).toMatchObject([invalid, invalid, invalid]);
    expect(replies[3]?.status).toBe(429);
    const store = stores.memoryStore();
    const results = [];
    for (const input of [{ n: "one" }, {}, { n: 2, extra: true }, { n: 3 }]) results.push(await index.execute("ping", input, handlers, { store }));
    expect(results.map((r) => [r["code"], r["reason"]])).toEqual([
      ["INVALID_INPUT", undefined],
      ["INVALID_INPUT", undefined],
      ["INVALID_INPUT", undefined],
      ["REJECTED", "RATE_LIMITED"],
    ]);
  });

  it("more than one instance without a shared store is a start-up error on every entry", () => {
    for (const start of [() => index.createServer(handlers, { instances: 2 }), () => http.createHttpHandler(handlers, { instances: 2 }), () => fetchModule.createFetchHandler(handlers, { instances: 2 })])
      expect(start).toThrow(/a rate limit on 2 instances needs a shared `store`/);
  });
});
