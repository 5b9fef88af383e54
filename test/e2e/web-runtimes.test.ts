/**
 * One border on every runtime: the demo's generated tools, and beside them a
 * generated auth project's tools behind its OAuth gate (test/web-runtimes/
 * routes.ts), served on 127.0.0.1 by Node's own `createHttpHandler`
 * (`node:http`) and through `createFetchHandler` by Node
 * (@hono/node-server), Deno (`Deno.serve`, the generated TypeScript with
 * --sloppy-imports), Bun (`Bun.serve`) and workerd (a Worker under
 * `wrangler dev --local` without `nodejs_compat`, on the Node.js 24 wrangler
 * needs). One process per runtime serves both. Each is called with the SDK
 * 2.x client on 2026-07-28 and 2025-11-25, with a real bearer token (signed
 * with jose here, verified there by jose on the runtime's `crypto.subtle`),
 * and with raw requests: every refusal (Host, Origin, method, content type,
 * path, a body that is not JSON, an oversized body and a slow one cut at the
 * cap, each Mcp-Name/Mcp-Method/Mcp-Param failure, the gate's 401s and 403
 * with their challenges, the RFC 9728 metadata route) must be the same
 * status, body and challenge on every runtime as on the Node handler.
 * Deno, Bun and wrangler come pinned from test/web-runtimes (npm run
 * runtimes). The fetch handler on Node runs on the Node.js running the
 * suite and again on Node.js 22, 24 and 26 (test/node-runtimes): only that
 * column, since the Node handler and the other runtimes do not change with
 * the Node line the suite runs on.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authProject, startIssuer, type Issuer } from "./auth/harness.js";
import { GATED_PATH, GATED_RESOURCE } from "../web-runtimes/routes.js";
import { wranglerArgv } from "../web-runtimes/wrangler.js";
import { INSTALLED_MAJORS, nodeBin } from "../helpers/node-runtimes.js";
import { call, envelopeOf, LogBuffer, newClient, stopProcess } from "./helpers.js";
import { envelope } from "./rpc.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const BIN = join(ROOT, "test/web-runtimes/node_modules/.bin");
const SERVE = join(ROOT, "test/web-runtimes/serve.ts");

/** The auth project (a temporary folder) and the issuer whose keys its gate is handed, shared by every runtime. */
let authDir: string;
let issuer: Issuer;

/** How each runtime starts; the Node handler is the reference every other runtime's answers are compared with. */
const RUNTIMES: Record<string, () => Promise<{ argv: string[]; env?: Record<string, string> }>> = {
  "node (createHttpHandler)": async () => ({ argv: [process.execPath, "--import", "tsx", SERVE], env: { TOOLC_RT_ENTRY: "node-http" } }),
  node: async () => ({ argv: [process.execPath, "--import", "tsx", SERVE] }),
  ...Object.fromEntries(INSTALLED_MAJORS.map((major) => [`node ${major}`, async () => ({ argv: [nodeBin(major), "--import", "tsx", SERVE] })])),
  deno: async () => ({ argv: [installed("deno"), "run", "--allow-all", "--sloppy-imports", SERVE] }),
  bun: async () => ({ argv: [installed("bun"), "run", SERVE] }),
  workerd: async () => ({ argv: await wranglerArgv(workerConfig()) }),
};
const REFERENCE = "node (createHttpHandler)";

/** The Worker for the auth project: an entry beside its generated folder (test/web-runtimes/worker.ts does the rest) and a config whose vars hold the key set. */
function workerConfig(): string {
  writeFileSync(
    join(authDir, "worker.ts"),
    `import { gatedWorker } from ${JSON.stringify(join(ROOT, "test/web-runtimes/worker.ts"))};\nimport { createFetchHandler } from "./generated/fetch.ts";\nexport default gatedWorker(createFetchHandler as never);\n`,
  );
  const config = join(authDir, "wrangler.toml");
  // No nodejs_compat: a `node:` import anywhere in what it serves would fail to load.
  writeFileSync(config, `name = "toolc-fetch-handler-gated"\nmain = "worker.ts"\ncompatibility_date = "2026-11-01"\n\n[vars]\nTOOLC_RT_KEYS = '${JSON.stringify(issuer.keySet)}'\n`);
  return config;
}

function installed(name: string): string {
  const bin = join(BIN, name);
  if (!existsSync(bin)) throw new Error(`${name} is not installed at ${bin}: run \`npm run runtimes\` (npm ci in test/web-runtimes)`);
  return bin;
}

interface Served {
  url: URL;
  stop(): Promise<void>;
}

async function start(runtime: string): Promise<Served> {
  const { argv, env = {} } = await RUNTIMES[runtime]!();
  const [command, ...args] = argv;
  // wrangler: no metrics, no prompts; it asks workers.cloudflare.com for `request.cf` and goes on without it.
  const quiet = { CI: "1", WRANGLER_SEND_METRICS: "false" };
  const auth = { TOOLC_RT_AUTH: authDir, TOOLC_RT_KEYS: JSON.stringify(issuer.keySet) };
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, ...quiet, ...auth, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stdout);
  log.attach(child.stderr);
  const stop = (): Promise<void> => stopProcess(child);
  try {
    const [, url] = await log.waitFor(/(?:listening on|Ready on) (http:\/\/[\w.:]+)/, 90_000);
    return { url: new URL("/mcp", url!), stop };
  } catch (error) {
    await stop();
    throw new Error(`${runtime} did not start: ${log.text}`, { cause: error });
  }
}

/** What a client reads of an answer: status, body (JSON when it is JSON), the challenge and Allow; for a slow body, whether it was cut. */
interface Seen {
  status: number;
  body: unknown;
  challenge: string | undefined;
  allow: string | undefined;
  cut?: boolean;
}

interface RawRequest {
  headers?: Record<string, string>;
  body?: string;
  method?: string;
  path?: string;
}

function seenOf(res: import("node:http").IncomingMessage, text: string): Seen {
  const json = (res.headers["content-type"] ?? "").startsWith("application/json");
  const header = (name: string): string | undefined => (typeof res.headers[name] === "string" ? (res.headers[name] as string) : undefined);
  return { status: res.statusCode ?? 0, body: json && text !== "" ? (JSON.parse(text) as unknown) : text, challenge: header("www-authenticate"), allow: header("allow") };
}

/** One raw request over node:http, which sends the Host it is given (fetch would send the URL's). */
function raw(url: URL, { headers = {}, body = "", method = "POST", path = url.pathname }: RawRequest): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { host: url.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve(seenOf(res, Buffer.concat(chunks).toString("utf8"))));
    });
    // A server that refuses an oversized body may close before it is all sent.
    req.on("error", reject);
    req.end(method === "GET" || method === "DELETE" ? undefined : body);
  });
}

const CHUNK = 64 * 1024;
const SLOW_CHUNKS = 256; // 16 MiB, four times the cap

/** A body sent 64 KiB at a time with a pause between, for up to 16 MiB: the answer must come (413) before it is all sent. */
function slowBody(url: URL, headers: Record<string, string>): Promise<Seen> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { host: url.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        req.destroy();
        resolve({ ...seenOf(res, Buffer.concat(chunks).toString("utf8")), cut: written < SLOW_CHUNKS });
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(CHUNK, 0x20);
    const next = (): void => {
      if (answered || req.destroyed) return;
      if (written === SLOW_CHUNKS) return void req.end();
      written++;
      req.write(chunk, () => setTimeout(next, 2));
    };
    req.write("[");
    next();
  });
}

const modern = (name: string, method = "tools/call"): Record<string, string> => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name });
const callBody = (name: string, args: Record<string, unknown>): string => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, _meta: envelope() } });
const getOrder = callBody("get_order", { customerId: "cus_1" });
const withParam = (value: string): Record<string, string> => ({ ...modern("get_order"), "mcp-param-customer-id": value });
const base64 = (text: string): string => `=?base64?${Buffer.from(text).toString("base64")}?=`;

/** The tokens the gated server is sent, minted once (the same bytes go to every runtime). */
const tokens: Record<string, string> = {};
const bearer = (name: string): Record<string, string> => ({ authorization: `Bearer ${tokens[name]}` });
const gated = (request: RawRequest): RawRequest => ({ path: GATED_PATH, ...request });

/** Every refusal, with the status every runtime must give; the last ones are the gated server's. */
const REFUSALS: { name: string; status: number; send(url: URL): Promise<Seen> }[] = [
  { name: "a forged Host (DNS rebinding)", status: 403, send: (url) => raw(url, { headers: { ...withParam("cus_1"), host: `evil.example.com:${url.port}` }, body: getOrder }) },
  { name: "a cross-site Origin", status: 403, send: (url) => raw(url, { headers: { ...withParam("cus_1"), origin: "https://evil.example.com" }, body: getOrder }) },
  { name: "another path", status: 404, send: (url) => raw(url, { headers: withParam("cus_1"), body: getOrder, path: "/other" }) },
  { name: "a GET", status: 405, send: (url) => raw(url, { method: "GET" }) },
  { name: "a DELETE", status: 405, send: (url) => raw(url, { method: "DELETE" }) },
  { name: "a body that is not JSON", status: 400, send: (url) => raw(url, { headers: withParam("cus_1"), body: "{not json" }) },
  { name: "a text/plain body", status: 415, send: (url) => raw(url, { headers: { ...withParam("cus_1"), "content-type": "text/plain" }, body: getOrder }) },
  { name: "a body over 4 MiB", status: 413, send: (url) => raw(url, { headers: modern("get_order"), body: JSON.stringify({ pad: "x".repeat(4 * 1024 * 1024 + 1) }) }) },
  { name: "a slow body that never stops, cut at the cap", status: 413, send: (url) => slowBody(url, modern("get_order")) },
  { name: "a lying Mcp-Name", status: 400, send: (url) => raw(url, { headers: { ...modern("search_orders"), "mcp-param-customer-id": "cus_1" }, body: getOrder }) },
  { name: "a lying Mcp-Method", status: 400, send: (url) => raw(url, { headers: { ...withParam("cus_1"), "mcp-method": "tools/list" }, body: getOrder }) },
  { name: "an Mcp-Param header that disagrees with the body", status: 400, send: (url) => raw(url, { headers: withParam("cus_2"), body: getOrder }) },
  { name: "a missing Mcp-Param header", status: 400, send: (url) => raw(url, { headers: modern("get_order"), body: getOrder }) },
  { name: "a Base64 Mcp-Param header that disagrees", status: 400, send: (url) => raw(url, { headers: withParam(base64("cus_2")), body: getOrder }) },
  { name: "a malformed Base64 Mcp-Param header", status: 400, send: (url) => raw(url, { headers: withParam("=?base64?not base64!?="), body: getOrder }) },
  { name: "gated: no token", status: 401, send: (url) => raw(url, gated({ headers: modern("get_order"), body: callBody("get_order", { orderId: "o1" }) })) },
  { name: "gated: a token that is not a JWT", status: 401, send: (url) => raw(url, gated({ headers: { ...modern("get_order"), authorization: "Bearer not-a-jwt" }, body: callBody("get_order", { orderId: "o1" }) })) },
  { name: "gated: an expired token", status: 401, send: (url) => raw(url, gated({ headers: { ...modern("get_order"), ...bearer("expired") }, body: callBody("get_order", { orderId: "o1" }) })) },
  { name: "gated: a token for another resource", status: 401, send: (url) => raw(url, gated({ headers: { ...modern("get_order"), ...bearer("elsewhere") }, body: callBody("get_order", { orderId: "o1" }) })) },
  { name: "gated: a token signed with an unlisted key", status: 401, send: (url) => raw(url, gated({ headers: { ...modern("get_order"), ...bearer("unlisted") }, body: callBody("get_order", { orderId: "o1" }) })) },
  { name: "gated: a tool outside the token's scopes", status: 403, send: (url) => raw(url, gated({ headers: { ...modern("refund_order"), ...bearer("reader") }, body: callBody("refund_order", { orderId: "o1" }) })) },
  { name: "gated: a POST to the metadata document", status: 405, send: (url) => raw(url, { path: "/.well-known/oauth-protected-resource/gated/mcp", body: "{}" }) },
  { name: "gated: the metadata document (RFC 9728)", status: 200, send: (url) => raw(url, { method: "GET", path: "/.well-known/oauth-protected-resource/gated/mcp" }) },
];

/** Each runtime's answers, by refusal, so that the last test compares them across runtimes. */
const answers = new Map<string, Map<string, Seen>>();

beforeAll(async () => {
  [authDir, issuer] = await Promise.all([authProject(), startIssuer()]);
  tokens["reader"] = await issuer.token(GATED_RESOURCE, { scope: "orders:read", sub: "user-7" });
  tokens["expired"] = await issuer.token(GATED_RESOURCE, { scope: "orders:read", expiresIn: -600 });
  tokens["elsewhere"] = await issuer.token("http://127.0.0.1/mcp", { scope: "orders:read" });
  tokens["unlisted"] = await issuer.token(GATED_RESOURCE, { scope: "orders:read", unlistedKey: true });
}, 180_000);

afterAll(async () => {
  await issuer?.close();
  if (authDir !== undefined) rmSync(authDir, { recursive: true, force: true });
});

describe.each(Object.keys(RUNTIMES))("%s", (runtime) => {
  let served: Served;
  beforeAll(async () => {
    served = await start(runtime);
  }, 120_000);
  afterAll(async () => served?.stop());

  it.each(["modern", "legacy"] as const)("serves the SDK 2.x client on the %s protocol: a valid call, and INVALID_INPUT for bad input", async (era) => {
    const client = newClient(era);
    await client.connect(new StreamableHTTPClientTransport(served.url));
    try {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
      const result = await call(client, "get_order", { customerId: "cus_1" });
      expect(result.structuredContent).toMatchObject({ found: true, customerId: "cus_1" });
      expect(envelopeOf(await call(client, "get_order", { customerId: 42 }))).toMatchObject({ code: "INVALID_INPUT", tool: "get_order" });
    } finally {
      await client.close();
    }
  });

  it.each(["modern", "legacy"] as const)("auth probe on the %s protocol: the gate verifies a real bearer token and the handler sees its caller", async (era) => {
    const client = newClient(era);
    await client.connect(new StreamableHTTPClientTransport(new URL(GATED_PATH, served.url), { requestInit: { headers: bearer("reader") } }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["get_order", "whoami"]);
      expect((await call(client, "whoami", {})).structuredContent).toEqual({ subject: "user-7", clientId: "agent-app", scopes: ["orders:read"] });
      expect((await call(client, "get_order", { orderId: "o1" })).structuredContent).toEqual({ orderId: "o1", status: "paid", caller: "user-7" });
    } finally {
      await client.close();
    }
  });

  it.each(REFUSALS)("answers $name with $status", async ({ name, status, send }) => {
    const seen = await send(served.url);
    expect(seen.status).toBe(status);
    if (status >= 400 && status !== 405 && !name.startsWith("gated:")) expect(seen.body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    if (status === 401 || status === 403) if (name.startsWith("gated:")) expect(seen.challenge).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/gated\/mcp"/);
    if (seen.cut !== undefined) expect(seen.cut).toBe(true);
    answers.set(runtime, (answers.get(runtime) ?? new Map<string, Seen>()).set(name, seen));
  });
});

describe("every runtime", () => {
  it("gives every refusal the same status, body, challenge and Allow as the Node handler", () => {
    const reference = answers.get(REFERENCE);
    expect(reference?.size).toBe(REFUSALS.length);
    for (const runtime of Object.keys(RUNTIMES)) expect(Object.fromEntries(answers.get(runtime) ?? []), runtime).toEqual(Object.fromEntries(reference!));
  });
});

describe("the generated fetch entry under the Workers types", () => {
  it("type-checks with @cloudflare/workers-types and no Node types, under the strict flags", () => {
    const types = join(ROOT, "test/web-runtimes/node_modules/@cloudflare/workers-types");
    if (!existsSync(types)) throw new Error(`${types} is missing: run \`npm run runtimes\``);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts"],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [types],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noPropertyAccessFromIndexSignature: true,
      skipLibCheck: true,
      noEmit: true,
    };
    const program = ts.createProgram([join(ROOT, "generated/fetch.ts")], options);
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file === undefined ? "" : `${d.file.fileName}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}): `;
      return `${at}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(errors).toEqual([]);
    // The whole border is in the program: what it checks is what a Worker gets.
    expect(program.getSourceFiles().map((f) => f.fileName).filter((f) => f.includes("/generated/runtime/"))).toEqual(
      expect.arrayContaining([join(ROOT, "generated/runtime/border.ts"), join(ROOT, "generated/runtime/mcp-headers.ts"), join(ROOT, "generated/runtime/http-guard.ts")]),
    );
  }, 120_000);
});
