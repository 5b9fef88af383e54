/**
 * No access token, and no Authorization value, appears anywhere a server
 * writes: the protected fixture server runs as its own process, logging
 * every trace event, every error the SDK reports and everything its
 * handlers saw to stderr and stdout; it is called with good and bad tokens,
 * handlers that succeed, reject and throw; then every byte it logged and
 * every answer it gave (bodies, WWW-Authenticate challenges, typed-client
 * envelopes) is searched for each token and each of its parts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { LogBuffer } from "./helpers.js";
import { authProject, load, startIssuer, type Issuer } from "./auth/harness.js";

const SERVER = `import { createServer } from "node:http";
import { createHttpHandler } from "./generated/http.js";
const [port, jwksUri] = process.argv.slice(2);
const seen = (tool, input, ctx) => console.log("handler", tool, JSON.stringify({ input, ctx: { ...ctx, auth: ctx.auth }, keys: Object.keys(ctx) }));
const handlers = {
  whoami: (input, ctx) => (seen("whoami", input, ctx), { subject: ctx.auth.subject, clientId: ctx.auth.clientId, scopes: [...ctx.auth.scopes] }),
  get_order: (input, ctx) => { seen("get_order", input, ctx); if (input.orderId === "boom") throw new Error("database down"); return { orderId: input.orderId, status: "paid" }; },
  refund_order: (input, ctx) => (seen("refund_order", input, ctx), { refunded: true }),
  delete_customer: (input, ctx) => { seen("delete_customer", input, ctx); return ctx.reject("HAS_OPEN_ORDERS"); },
};
const resource = "http://127.0.0.1:" + port + "/mcp";
const handler = createHttpHandler(handlers, {
  auth: { resource, jwksUri },
  onTrace: (event) => console.error("trace", JSON.stringify(event, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v))),
});
createServer((req, res) => handler(req, res)).listen(Number(port), "127.0.0.1", () => console.error("listening"));
process.on("warning", (w) => console.error("warning", w.stack));
`;

interface IndexApi {
  createClient(client: Client): Record<string, (input: unknown) => Promise<Record<string, unknown>>>;
  bearerAuth(token: () => Promise<string>): Record<string, unknown>;
}

let dir: string;
let issuer: Issuer;
let proc: ChildProcess;
const log = new LogBuffer();
let resource: string;

beforeAll(async () => {
  dir = await authProject();
  issuer = await startIssuer();
  writeFileSync(join(dir, "server.mjs"), SERVER);
  const port = 20000 + Math.floor(Math.random() * 20000);
  resource = `http://127.0.0.1:${port}/mcp`;
  // tsx, for the generated TypeScript the script imports.
  proc = spawn(process.execPath, ["--import", "tsx", "server.mjs", String(port), issuer.jwksUri], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  log.attach(proc.stdout);
  log.attach(proc.stderr);
  await log.waitFor(/listening/);
}, 120_000);

afterAll(async () => {
  proc?.kill();
  await issuer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("no token or Authorization value reaches a trace, a log, a handler or an answer", async () => {
  const good = await issuer.token(resource, { scope: "orders:read customers:delete" });
  const tokens = [
    good,
    await issuer.token(resource, { scope: "orders:read", expiresIn: -300 }),
    await issuer.token(resource, { scope: "orders:read", aud: "https://other.example.com/mcp" }),
    await issuer.token(resource, { scope: "orders:read", unlistedKey: true }),
    issuer.unsigned(resource, { scope: "orders:read" }),
  ];
  const answers: string[] = [];
  const raw = async (token: string, body: unknown) => {
    const response = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`);
  };
  const call = (name: string, args: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
  for (const token of tokens) {
    await raw(token, call("get_order", { orderId: "o1" }));
    await raw(token, call("refund_order", { orderId: "o1" }));
  }
  await raw(good, call("get_order", { orderId: "boom" }));
  await raw(good, call("get_order", { orderId: 42 }));
  await raw(good, call("nope", {}));
  await raw(`${good}x`, call("get_order", { orderId: "o1" }));

  const api = await load<IndexApi>(dir, "index.ts");
  // The third client's token expires once it has connected, so its calls come back UNAUTHORIZED.
  for (const [era, expire] of [["legacy", false], ["modern", false], ["modern", true]] as const) {
    const client = new Client({ name: "leaks", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
    let current = good;
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(resource), api.bearerAuth(async () => current)));
      if (expire) current = tokens[1]!;
      const tools = api.createClient(client);
      for (const [tool, input] of [["whoami", {}], ["get_order", { orderId: "boom" }], ["refund_order", { orderId: "o2" }], ["delete_customer", { customerId: "c1" }]] as const) {
        answers.push(JSON.stringify(await tools[tool]!(input)));
      }
    } catch (error) {
      answers.push(String(error), JSON.stringify(error, Object.getOwnPropertyNames(error)));
    } finally {
      await client.close();
    }
  }
  // The last call's trace (a confirmed tool the client cannot confirm, refused before its handler): every earlier line is in the log once it is.
  await log.waitFor(/trace \{"tool":"delete_customer".*"protocolEra":"modern"/);

  const written = `${log.text}\n${answers.join("\n")}`;
  // Handlers ran, traces were written, refusals were answered: the search below looks at real output.
  expect(log.text).toMatch(/handler whoami .*"subject":"user-1"/);
  expect(log.text).toMatch(/trace .*"code":"FAILED".*database down/);
  expect(answers.some((a) => a.startsWith("401 ") && a.includes("www-authenticate"))).toBe(true);
  expect(answers.some((a) => a.startsWith("403 ") && a.includes("insufficient_scope"))).toBe(true);
  expect(answers.some((a) => a.includes('"reason":"UNAUTHORIZED"'))).toBe(true);
  for (const token of tokens) {
    const [header, payload, signature] = token.split(".");
    expect(written).not.toContain(token);
    expect(written).not.toContain(`Bearer ${token.slice(0, 20)}`);
    for (const part of [header, payload, signature]) if (part !== undefined && part.length > 16) expect(written).not.toContain(part);
  }
  expect(written.toLowerCase()).not.toMatch(/authorization"?\s*[:=]\s*"?bearer/);
}, 120_000);
