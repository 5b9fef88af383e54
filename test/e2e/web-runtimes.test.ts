/**
 * The generated `createFetchHandler` on real runtimes: the demo's tools
 * served on 127.0.0.1 by Node (through @hono/node-server), Deno
 * (`Deno.serve`, running the generated TypeScript with --sloppy-imports) and
 * Bun (`Bun.serve`), from test/web-runtimes/serve.ts, and workerd (the
 * same tools as a Worker, test/web-runtimes/worker.ts, under `wrangler dev
 * --local` without `nodejs_compat`, on the Node.js 24 wrangler needs). Each is called with
 * the SDK 2.x client on 2026-07-28 and 2025-11-25, and with raw requests;
 * every refusal (a forged Host, a lying Mcp-Name, a disagreeing
 * Mcp-Param header, an oversized body, and the OAuth gate's 401 with its
 * challenge) must be the same status, body and challenge on every runtime.
 * Deno, Bun and wrangler come pinned from test/web-runtimes (npm run
 * runtimes). The auth gate runs on workerd as on the others, but the Worker
 * is bundled from a fixed entry, so the generated auth project (a temporary
 * folder) is served on Node, Deno and Bun only.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authProject } from "./auth/harness.js";
import { nodeBin } from "../helpers/node-runtimes.js";
import { call, envelopeOf, LogBuffer, newClient, stopProcess } from "./helpers.js";
import { envelope } from "./rpc.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const BIN = join(ROOT, "test/web-runtimes/node_modules/.bin");
const SERVE = join(ROOT, "test/web-runtimes/serve.ts");

/** How each runtime starts serve.ts: Deno needs the one flag that maps `./x.js` imports to the `.ts` files beside them. */
const RUNTIMES: Record<string, () => Promise<string[]>> = {
  node: async () => [process.execPath, "--import", "tsx", SERVE],
  deno: async () => [installed("deno"), "run", "--allow-all", "--sloppy-imports", SERVE],
  bun: async () => [installed("bun"), "run", SERVE],
  workerd: async () => [
    nodeBin(24),
    join(ROOT, "test/web-runtimes/node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--local",
    "--config",
    join(ROOT, "test/web-runtimes/wrangler.toml"),
    "--ip",
    "127.0.0.1",
    "--port",
    String(await freePort()),
    "--inspector-port",
    String(await freePort()),
    "--show-interactive-dev-session=false",
  ],
};
/** The runtimes that serve the generated auth project (see the module comment). */
const WITH_AUTH = new Set(["node", "deno", "bun"]);

/** A port nothing listens on now, for wrangler, which takes no port 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
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

async function start(runtime: string, env: Record<string, string> = {}): Promise<Served> {
  const [command, ...args] = await RUNTIMES[runtime]!();
  // wrangler: no metrics, no prompts; it asks workers.cloudflare.com for `request.cf` and goes on without it.
  const quiet = { CI: "1", WRANGLER_SEND_METRICS: "false" };
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, ...quiet, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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

/** What a client reads of an answer: status, body (JSON when it is JSON), and the challenge. */
interface Seen {
  status: number;
  body: unknown;
  challenge: string | undefined;
}

/** One raw request over node:http, which sends the Host it is given (fetch would send the URL's). */
function raw(url: URL, headers: Record<string, string>, body: string, method = "POST", path = url.pathname): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { host: url.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const json = (res.headers["content-type"] ?? "").startsWith("application/json");
        const challenge = res.headers["www-authenticate"];
        resolve({ status: res.statusCode ?? 0, body: json && text !== "" ? (JSON.parse(text) as unknown) : text, challenge: typeof challenge === "string" ? challenge : undefined });
      });
    });
    // A server that refuses an oversized body may close before it is all sent.
    req.on("error", reject);
    req.end(method === "GET" ? undefined : body);
  });
}

const modern = (name: string): Record<string, string> => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name });
const getOrder = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_order", arguments: { customerId: "cus_1" }, _meta: envelope() } });

/** The refusals, each with the status every runtime must give. */
const REFUSALS: { name: string; status: number; send(url: URL): Promise<Seen> }[] = [
  { name: "a forged Host (DNS rebinding)", status: 403, send: (url) => raw(url, { host: `evil.example.com:${url.port}`, ...modern("get_order"), "mcp-param-customer-id": "cus_1" }, getOrder) },
  { name: "a lying Mcp-Name", status: 400, send: (url) => raw(url, { ...modern("search_orders"), "mcp-param-customer-id": "cus_1" }, getOrder) },
  { name: "an Mcp-Param header that disagrees with the body", status: 400, send: (url) => raw(url, { ...modern("get_order"), "mcp-param-customer-id": "cus_2" }, getOrder) },
  { name: "a body over 4 MiB", status: 413, send: (url) => raw(url, modern("get_order"), JSON.stringify({ pad: "x".repeat(4 * 1024 * 1024 + 1) })) },
  { name: "a GET", status: 405, send: (url) => raw(url, {}, "", "GET") },
];

/** Each runtime's answers, by refusal, so that the last test compares them across runtimes. */
const answers = new Map<string, Map<string, Seen>>();

describe.each(Object.keys(RUNTIMES))("createFetchHandler on %s", (runtime) => {
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

  it.each(REFUSALS)("refuses $name with $status", async ({ name, status, send }) => {
    const seen = await send(served.url);
    expect(seen.status).toBe(status);
    if (status !== 405) expect(seen.body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    answers.set(runtime, (answers.get(runtime) ?? new Map<string, Seen>()).set(name, seen));
  });

  describe.runIf(WITH_AUTH.has(runtime))("with auth: on", () => {
    let dir: string;
    let gated: Served;
    beforeAll(async () => {
      dir = await authProject();
      gated = await start(runtime, { TOOLC_RT_AUTH: dir });
    }, 180_000);
    afterAll(async () => {
      await gated?.stop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    it("answers a call without a token with 401 and its challenge, and serves the metadata document", async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } });
      const refused = await raw(gated.url, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }, body);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/mcp"/);
      answers.set(runtime, (answers.get(runtime) ?? new Map<string, Seen>()).set("no token", refused));
      const metadata = await raw(gated.url, {}, "", "GET", "/.well-known/oauth-protected-resource/mcp");
      expect(metadata.status).toBe(200);
      expect(metadata.body).toMatchObject({ resource: "http://127.0.0.1/mcp", authorization_servers: ["https://auth.example.com/"] });
    });
  });
});

describe("every runtime", () => {
  it("gives every refusal the same status, body and challenge as Node", () => {
    const node = answers.get("node");
    expect(node?.size).toBe(REFUSALS.length + 1);
    for (const runtime of Object.keys(RUNTIMES)) {
      const expected = Object.fromEntries([...node!].filter(([name]) => WITH_AUTH.has(runtime) || name !== "no token"));
      expect(Object.fromEntries(answers.get(runtime) ?? []), runtime).toEqual(expected);
    }
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
