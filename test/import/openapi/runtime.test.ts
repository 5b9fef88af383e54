/**
 * The runtime the OpenAPI handlers call (generator/openapi-runtime/), against
 * a loopback HTTP server: request building per parameter style, bodies,
 * credentials per security scheme, and the mapping of answers onto toolc's
 * envelope (TransientError with Retry-After, declared rejections, failures).
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { format } from "prettier";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpApi, retryAfterMs, type HttpApiDescription, type HttpCallContext, type HttpOperation } from "../../../generator/openapi-runtime/openapi-http.js";
import { TransientError } from "../../../generator/runtime/errors.js";
import { executeTool } from "../../../generator/runtime/executor.js";
import { FORMAT_OPTIONS } from "../../../generator/format/prettier.js";
import { contractsFromYaml, toolYaml } from "../../runtime/yaml-contracts.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let answer: { status: number; headers?: Record<string, string>; body: string } = { status: 200, body: "{}" };
const hanging: import("node:http").ServerResponse[] = [];
let onHang: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url?.startsWith("/things/hang")) {
        hanging.push(res);
        onHang?.();
        return;
      }
      if (req.url === "/token") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ access_token: "tok_from_grant", expires_in: 3600 }));
      }
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const res of hanging) res.destroy();
  return new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: "{}" };
});

class Rejected extends Error {
  constructor(readonly reason: string, message?: string) {
    super(message);
  }
}

function context(): HttpCallContext<string> & { attached: unknown[] } {
  const attached: unknown[] = [];
  return {
    signal: new AbortController().signal,
    reject: (reason: string, message?: string): never => {
      throw new Rejected(reason, message);
    },
    attach: (block) => void attached.push(block),
    attached,
  };
}

const API: HttpApiDescription = {
  title: "Test API",
  serverEnv: "TEST_BASE_URL",
  securitySchemes: {
    key: { type: "apiKey", in: "header", name: "X-Api-Key", env: "TEST_KEY" },
    query: { type: "apiKey", in: "query", name: "api_key", env: "TEST_QUERY_KEY" },
    bearer: { type: "bearer", env: "TEST_TOKEN" },
    basic: { type: "basic", env: { username: "TEST_USER", password: "TEST_PASSWORD" } },
    oauth: { type: "oauth2", env: { token: "TEST_OAUTH_TOKEN", clientId: "TEST_CLIENT_ID", clientSecret: "TEST_CLIENT_SECRET", tokenUrl: "TEST_TOKEN_URL" } },
  },
};

function op(extra: Partial<HttpOperation<string>> = {}): HttpOperation<string> {
  return { method: "GET", path: "/things/{id}", parameters: [{ key: "id", name: "id", in: "path", style: "simple", explode: false }], success: { kind: "json" }, errors: { "404": "NOT_FOUND" }, security: [], ...extra };
}

async function call(operation: HttpOperation<string>, input: object, env: Record<string, string> = {}): Promise<unknown> {
  const api = createHttpApi(API, { env: { TEST_BASE_URL: base, ...env } }, { TransientError });
  return api.call(operation, input, context());
}

describe("requests", () => {
  it.each([
    { name: "path values are encoded", params: [], input: { id: "a/b c" }, url: "/things/a%2Fb%20c" },
    { name: "query arrays explode by default (form)", params: [{ key: "tag", name: "tag", in: "query" as const, style: "form", explode: true }], input: { id: "1", tag: ["x", "y z"] }, url: "/things/1?tag=x&tag=y+z" },
    { name: "query arrays joined when not exploded", params: [{ key: "tag", name: "tag", in: "query" as const, style: "pipeDelimited", explode: false }], input: { id: "1", tag: ["x", "y"] }, url: "/things/1?tag=x%7Cy" },
    { name: "deepObject", params: [{ key: "filter", name: "filter", in: "query" as const, style: "deepObject", explode: true }], input: { id: "1", filter: { a: 1, b: "c" } }, url: "/things/1?filter%5Ba%5D=1&filter%5Bb%5D=c" },
    { name: "a fixed value and a renamed property", params: [{ name: "v", in: "query" as const, style: "form", explode: true, value: 3 }, { key: "query_id", name: "id", in: "query" as const, style: "form", explode: true }], input: { id: "1", query_id: 7 }, url: "/things/1?v=3&id=7" },
    { name: "absent optional values are left out", params: [{ key: "page", name: "page", in: "query" as const, style: "form", explode: true }], input: { id: "1" }, url: "/things/1" },
  ])("$name", async ({ params, input, url }) => {
    await call(op({ parameters: [...op().parameters, ...params] }), input);
    expect(seen[0]!.url).toBe(url);
  });

  it("sends headers, cookies and a flattened JSON body", async () => {
    const operation = op({
      method: "POST",
      parameters: [...op().parameters, { key: "trace", name: "X-Trace", in: "header", style: "simple", explode: false }, { key: "sid", name: "sid", in: "cookie", style: "form", explode: true }],
      body: { encoding: "json", mediaType: "application/json", keys: ["note", "qty"] },
    });
    await call(operation, { id: "1", trace: "t-1", sid: "s 1", note: "hi", qty: 2 });
    expect(seen[0]).toMatchObject({ method: "POST", body: JSON.stringify({ note: "hi", qty: 2 }) });
    expect(seen[0]!.headers).toMatchObject({ "x-trace": "t-1", cookie: "sid=s%201", "content-type": "application/json", accept: "application/json" });
  });

  it("sends a form body and a nested JSON body", async () => {
    await call(op({ method: "POST", body: { encoding: "form", mediaType: "application/x-www-form-urlencoded", keys: ["channel", "tags"] } }), { id: "1", channel: "C1", tags: ["a", "b"] });
    expect(seen[0]!.body).toBe("channel=C1&tags=a&tags=b");
    await call(op({ method: "PUT", body: { encoding: "json", mediaType: "application/json", key: "body" } }), { id: "1", body: [1, 2] });
    expect(seen[1]!.body).toBe("[1,2]");
  });
});

describe("credentials from the environment, per security scheme", () => {
  const schemes: { scheme: string; env: Record<string, string>; header: [string, string] }[] = [
    { scheme: "key", env: { TEST_KEY: "k1" }, header: ["x-api-key", "k1"] },
    { scheme: "bearer", env: { TEST_TOKEN: "t1" }, header: ["authorization", "Bearer t1"] },
    { scheme: "basic", env: { TEST_USER: "u", TEST_PASSWORD: "p:w" }, header: ["authorization", `Basic ${btoa("u:p:w")}`] },
    { scheme: "oauth", env: { TEST_OAUTH_TOKEN: "given" }, header: ["authorization", "Bearer given"] },
  ];
  it.each(schemes)("$scheme", async ({ scheme, env, header }) => {
    await call(op({ security: [[scheme]] }), { id: "1" }, env);
    expect(seen[0]!.headers[header[0]]).toBe(header[1]);
  });

  it("an API key in the query", async () => {
    await call(op({ security: [["query"]] }), { id: "1" }, { TEST_QUERY_KEY: "q1" });
    expect(seen[0]!.url).toBe("/things/1?api_key=q1");
  });

  it("OAuth client credentials: one token request, cached for the next call", async () => {
    const api = createHttpApi(API, { env: { TEST_BASE_URL: base, TEST_CLIENT_ID: "id", TEST_CLIENT_SECRET: "sec", TEST_TOKEN_URL: `${base}/token` } }, { TransientError });
    await api.call(op({ security: [["oauth"]] }), { id: "1" }, context());
    await api.call(op({ security: [["oauth"]] }), { id: "2" }, context());
    expect(seen.map((s) => s.url)).toEqual(["/token", "/things/1", "/things/2"]);
    expect(seen[0]!.body).toBe("grant_type=client_credentials");
    expect(seen[0]!.headers.authorization).toBe(`Basic ${btoa("id:sec")}`);
    expect(seen[2]!.headers.authorization).toBe("Bearer tok_from_grant");
  });

  it("the first alternative whose credentials are all set; none when none is complete", async () => {
    await call(op({ security: [["bearer"], ["key"]] }), { id: "1" }, { TEST_KEY: "k" });
    expect(seen[0]!.headers).toMatchObject({ "x-api-key": "k" });
    await call(op({ security: [["bearer"]] }), { id: "1" });
    expect(seen[1]!.headers.authorization).toBeUndefined();
  });

  it("an empty variable is unset: a blank key does not pick its scheme, a blank server URL does not hide the default", async () => {
    // An MCP Bundle's host passes "" for each setting the user left blank (docs/surfaces.md).
    await call(op({ security: [["key"], ["bearer"]] }), { id: "1" }, { TEST_KEY: "", TEST_TOKEN: "t" });
    expect(seen[0]!.headers).toMatchObject({ authorization: "Bearer t" });
    expect(seen[0]!.headers["x-api-key"]).toBeUndefined();
    const api = createHttpApi({ ...API, server: base }, { env: { TEST_BASE_URL: "" } }, { TransientError });
    await api.call(op(), { id: "2" }, context());
    expect(seen[1]!.url).toBe("/things/2");
  });
});

describe("answers", () => {
  const transient: { status: number; headers: Record<string, string>; retryAfterMs: number | undefined }[] = [
    { status: 429, headers: { "retry-after": "2" }, retryAfterMs: 2000 },
    { status: 503, headers: {}, retryAfterMs: undefined },
  ];
  it.each(transient)("$status is a TransientError with Retry-After as its delay", async ({ status, headers, retryAfterMs: delay }) => {
    answer = { status, headers, body: "{}" };
    const error = await call(op(), { id: "1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientError);
    expect((error as TransientError).retryAfterMs).toBe(delay);
  });

  it.each([
    { header: "5", ms: 5000 },
    { header: new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), ms: 10_000 },
    { header: "soon", ms: undefined },
  ])("Retry-After $header", ({ header, ms }) => {
    expect(retryAfterMs(header, Date.UTC(2030, 0, 1, 0, 0, 0))).toBe(ms);
  });

  it("a declared 4xx is ctx.reject with its reason and the API's message; another status is an error", async () => {
    answer = { status: 404, body: JSON.stringify({ message: "No such thing" }) };
    const rejected = await call(op(), { id: "1" }).catch((e: unknown) => e);
    expect(rejected).toMatchObject({ reason: "NOT_FOUND", message: "Test API answered 404: No such thing" });
    answer = { status: 403, body: "" };
    const failed = await call(op(), { id: "1" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(TransientError);
    expect(failed).not.toBeInstanceOf(Rejected);
  });

  it.each([
    { name: "JSON", success: { kind: "json" as const }, body: '{"a":1}', output: { a: 1 } },
    { name: "a JSON array, as it is", success: { kind: "json" as const }, body: "[1]", output: [1] },
    { name: "a JSON string, as it is", success: { kind: "json" as const }, body: '"ok"', output: "ok" },
    { name: "a JSON null, as it is", success: { kind: "json" as const }, body: "null", output: null },
    // No value, which no output schema accepts; the text itself would pass a string output.
    { name: "not JSON: no value", success: { kind: "json" as const }, body: "<html>", output: undefined },
    { name: "empty", success: { kind: "empty" as const }, body: "", output: {} },
  ])("2xx, $name", async ({ success, body, output }) => {
    answer = { status: 200, body };
    expect(await call(op({ success }), { id: "1" })).toEqual(output);
  });

  it.each([
    { name: "an array answer is the output as it is", output: "{ type: array, items: { type: integer } }", body: "[1,2]", result: { ok: true, data: [1, 2] } },
    { name: "a string answer is the output as it is", output: "{ type: string }", body: '"ok"', result: { ok: true, data: "ok" } },
    { name: "an answer that is not JSON is INVALID_OUTPUT for a string output too", output: "{ type: string }", body: "<html>", result: { ok: false, code: "INVALID_OUTPUT" } },
  ])("through the executor: $name", async ({ output, body, result }) => {
    const contract = contractsFromYaml({ "t.yaml": toolYaml("t", `effect: read\ninput: { type: object, properties: { id: { type: string } }, required: [id] }\noutput: ${output}\n`) }).t!;
    answer = { status: 200, body };
    const api = createHttpApi(API, { env: { TEST_BASE_URL: base } }, { TransientError });
    expect(await executeTool(contract, { id: "1" }, (input: object, ctx: HttpCallContext<string>) => api.call(op(), input, ctx))).toMatchObject(result);
  });

  it("a non-JSON answer is attached as a content block", async () => {
    answer = { status: 200, headers: { "content-type": "text/csv" }, body: "a,b" };
    const ctx = context();
    const api = createHttpApi(API, { env: { TEST_BASE_URL: base } }, { TransientError });
    expect(await api.call(op({ success: { kind: "content", block: "text" } }), { id: "1" }, ctx)).toEqual({ contentType: "text/csv" });
    expect(ctx.attached).toEqual([{ type: "text", text: "a,b" }]);
  });

  it("no server configured is an error naming the variable", async () => {
    const api = createHttpApi(API, { env: {} }, { TransientError });
    await expect(api.call(op(), { id: "1" }, context())).rejects.toThrow(/set TEST_BASE_URL/);
  });

  it("the caller's abort (or the contract's timeout, through the same signal) ends the request, and is not transient", async () => {
    const controller = new AbortController();
    onHang = () => controller.abort();
    const api = createHttpApi(API, { env: { TEST_BASE_URL: base } }, { TransientError });
    const ctx = { ...context(), signal: controller.signal };
    const error = await api.call(op(), { id: "hang" }, ctx).catch((e: unknown) => e);
    onHang = undefined;
    expect(seen.map((s) => s.url)).toEqual(["/things/hang"]);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(error).not.toBeInstanceOf(TransientError);
  });

  it("an unreachable server is transient", async () => {
    const api = createHttpApi(API, { baseUrl: "http://127.0.0.1:1" }, { TransientError });
    await expect(api.call(op(), { id: "1" }, context())).rejects.toBeInstanceOf(TransientError);
  });
});

it("the runtime source is in toolc's fixed layout, so the import copies it as it is", async () => {
  const source = readFileSync(new URL("../../../generator/openapi-runtime/openapi-http.ts", import.meta.url), "utf8");
  expect(await format(source, { ...FORMAT_OPTIONS, parser: "typescript" })).toBe(source);
});

describe("what the runtime refuses and scrubs itself (issue #33 M3, M4, L4)", () => {
  it.each([
    { name: "an array path value that is `..`", input: { id: [".."] } },
    { name: "an empty array path value", input: { id: [] } },
    { name: "a path value that is `.`", input: { id: "." } },
  ])("$name: an error before any request", async ({ input }) => {
    await expect(call(op(), input)).rejects.toThrow(/path parameter id would be the segment .*no request was sent/);
    expect(seen).toEqual([]);
  });

  it("a header value with a line break, in an array too: an error before any request, not a TransientError", async () => {
    const operation = op({ parameters: [...op().parameters, { key: "trace", name: "X-Trace", in: "header", style: "simple", explode: false }] });
    for (const trace of ["a\r\nb", ["a", "b\nc"]]) {
      const error = await call(operation, { id: "1", trace }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(TransientError);
      expect((error as Error).message).toMatch(/header parameter X-Trace holds a line break/);
    }
    expect(seen).toEqual([]);
  });

  it("a query API key is scrubbed from a resource's URI and a text block", async () => {
    const ctx = context();
    const api = createHttpApi(API, { env: { TEST_BASE_URL: base, TEST_QUERY_KEY: "q key/1" } }, { TransientError });
    answer = { status: 200, headers: { "content-type": "application/pdf" }, body: "%PDF" };
    await api.call(op({ security: [["query"]], success: { kind: "content", block: "resource" } }), { id: "1" }, ctx);
    answer = { status: 200, headers: { "content-type": "text/plain" }, body: "your key is q key/1" };
    await api.call(op({ security: [["query"]], success: { kind: "content", block: "text" } }), { id: "1" }, ctx);
    expect(seen[0]!.url).toBe("/things/1?api_key=q+key%2F1");
    expect(ctx.attached).toEqual([
      { type: "resource", resource: { uri: `${base}/things/1?api_key=[REDACTED]`, mimeType: "application/pdf", blob: btoa("%PDF") } },
      { type: "text", text: "your key is [REDACTED]" },
    ]);
  });

  it("a bearer token quoted in an undeclared error's message is scrubbed", async () => {
    answer = { status: 500, body: JSON.stringify({ error: "bad token tok_secret_123" }) };
    await expect(call(op({ security: [["bearer"]] }), { id: "1" }, { TEST_TOKEN: "tok_secret_123" })).rejects.toThrow("Test API answered 500: bad token [REDACTED]");
  });
});
