/**
 * The generated handlers against hostile input and a hostile API (issue #33
 * M3, M4, L4), through the real pipeline: `toolc import openapi`, `toolc
 * generate`, the generated `execute` and the import's handlers module,
 * calling APIs that are HTTP servers on loopback started here.
 *
 * - a path parameter of `..`, `.` or nothing would re-target the request
 *   (`DELETE /api/v1/users/..` is `DELETE /api/v1/`, with the API key);
 * - a header parameter with CR or LF was sent to fetch, which threw, and the
 *   call was RETRYABLE and retried;
 * - a redirect to another origin took the API key with it; a query API key
 *   came back in a returned URL; an API error quoting the key reached the
 *   caller.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importSpec, openapi30, scratchProject } from "./helpers.js";
import { generateAndLoad, type Envelope, type GeneratedProject, type Handler } from "./project.js";

const KEY = "sk_live_4f7a9c1e22b8";
const QUERY_KEY = "qk live/7+3=10";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

interface Api {
  readonly url: string;
  readonly seen: Seen[];
  /** The answer per path; default 200 `{}`. */
  readonly routes: Map<string, { status: number; headers?: Record<string, string>; body?: string }>;
  close(): Promise<void>;
}

async function startApi(): Promise<Api> {
  const seen: Seen[] = [];
  const routes: Api["routes"] = new Map();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      const route = routes.get(new URL(req.url!, "http://x").pathname) ?? { status: 200, body: "{}" };
      res.writeHead(route.status, { "content-type": "application/json", ...route.headers }).end(route.body ?? "");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    routes,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const USER_ID = { name: "userId", in: "path", required: true, schema: { type: "string" } };
const TRACE = { name: "X-Trace", in: "header", schema: { type: "string" } };
const OBJECT_OUT = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const SPEC = openapi30(
  {
    "/api/v1/users/{userId}": {
      delete: { operationId: "deleteUser", parameters: [USER_ID, TRACE], responses: { 204: { description: "gone" }, 404: { description: "no such user" } } },
      get: { operationId: "getUser", parameters: [USER_ID, TRACE], responses: { 200: OBJECT_OUT, 404: { description: "no such user" } } },
    },
    "/api/v1/reports": { get: { operationId: "listReports", security: [{ query: [] }], responses: { 200: OBJECT_OUT } } },
  },
  { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" }, query: { type: "apiKey", in: "query", name: "api_key" } } },
  { security: [{ key: [] }] },
);

let project: GeneratedProject;
let api: Api;
let elsewhere: Api;
let handlers: Record<string, Handler>;

beforeAll(async () => {
  const dir = scratchProject("hostile-handlers", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
  const imported = await importSpec(SPEC, "env: SHOP\n", {}, dir);
  expect(imported.result.problems.filter((p) => p.severity === "error")).toEqual([]);
  project = await generateAndLoad(dir);
  api = await startApi();
  elsewhere = await startApi();
  handlers = project.createOpenApiHandlers({ baseUrl: `${api.url}`, env: { SHOP_KEY: KEY, SHOP_QUERY: QUERY_KEY } });
});
afterAll(async () => {
  await api?.close();
  await elsewhere?.close();
});
beforeEach(() => {
  api.seen.length = 0;
  elsewhere.seen.length = 0;
  api.routes.clear();
});

describe("a path parameter cannot re-target the request (M3)", () => {
  it.each(["..", ".", ""])("userId %j is INVALID_INPUT at userId, and no request is sent", async (userId) => {
    const result = await project.execute("deleteUser", { userId }, handlers);
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [expect.objectContaining({ path: "userId" })] });
    expect(api.seen).toEqual([]);
  });

  it("values that merely contain dots, slashes or encoded dots still name one segment", async () => {
    for (const userId of ["...", "a..", "../x", "%2e%2e", ".hidden"]) {
      expect(await project.execute("deleteUser", { userId }, handlers)).toMatchObject({ ok: true });
    }
    expect(api.seen.map((s) => s.url)).toEqual([
      "/api/v1/users/...",
      "/api/v1/users/a..",
      "/api/v1/users/..%2Fx",
      "/api/v1/users/%252e%252e",
      "/api/v1/users/.hidden",
    ]);
  });
});

describe("a header parameter with a line break is invalid input (L4)", () => {
  it.each(["a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\u0000"])("X-Trace %j is INVALID_INPUT at X-Trace, sent nowhere, never retried", async (trace) => {
    const result = (await project.execute("getUser", { userId: "u1", "X-Trace": trace }, handlers)) as Envelope & { issues?: { path: string }[] };
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [expect.objectContaining({ path: '["X-Trace"]' })] });
    expect(api.seen).toEqual([]);
  });
});

describe("credentials go only to the configured server, and never come back (M4)", () => {
  it("a redirect to another origin is not followed: the other origin gets nothing, and the call FAILED", async () => {
    api.routes.set("/api/v1/users/u1", { status: 302, headers: { location: `${elsewhere.url}/steal` } });
    const result = await project.execute("getUser", { userId: "u1" }, handlers);
    expect(result).toMatchObject({ ok: false, code: "FAILED" });
    expect(elsewhere.seen).toEqual([]);
    expect(api.seen.map((s) => s.url)).toEqual(["/api/v1/users/u1"]);
  });

  it("a redirect within the server's origin is followed, with the key", async () => {
    api.routes.set("/api/v1/users/u1", { status: 307, headers: { location: "/api/v1/users/u2" } });
    api.routes.set("/api/v1/users/u2", { status: 200, body: '{"id":"u2"}' });
    expect(await project.execute("getUser", { userId: "u1" }, handlers)).toEqual({ ok: true, data: { id: "u2" } });
    expect(api.seen.map((s) => [s.url, s.headers["x-api-key"]])).toEqual([
      ["/api/v1/users/u1", KEY],
      ["/api/v1/users/u2", KEY],
    ]);
  });

  it("a query API key the API echoes in a URL is scrubbed from the output", async () => {
    api.routes.set("/api/v1/reports", { status: 200, body: JSON.stringify({ self: `${api.url}/api/v1/reports?api_key=${encodeURIComponent(QUERY_KEY)}`, raw: QUERY_KEY, [QUERY_KEY]: 1 }) });
    const result = await project.execute("listReports", {}, handlers);
    expect(api.seen[0]!.url).toBe(`/api/v1/reports?api_key=${new URLSearchParams({ k: QUERY_KEY }).toString().slice(2)}`);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain("live");
    expect(result).toEqual({ ok: true, data: { self: `${api.url}/api/v1/reports?api_key=[REDACTED]`, raw: "[REDACTED]", "[REDACTED]": 1 } });
  });

  it("an API error quoting the key reaches the caller without it", async () => {
    api.routes.set("/api/v1/users/u1", { status: 404, body: JSON.stringify({ message: `no user for key ${KEY}` }) });
    const result = await project.execute("getUser", { userId: "u1" }, handlers);
    expect(result).toMatchObject({ ok: false, code: "REJECTED", message: expect.stringContaining("no user for key [REDACTED]") });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});
