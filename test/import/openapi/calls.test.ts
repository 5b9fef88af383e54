/**
 * What an agent gets from calls through imported handlers (issue #38): an
 * imported project, compiled with `toolc generate`, whose generated
 * `execute` runs the import's handlers against an HTTP API on loopback that
 * records every request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSpec, OK_OBJECT, openapi30, scratchProject } from "./helpers.js";
import { generateAndLoad, startLoopbackApi, type GeneratedProject, type LoopbackApi } from "./project.js";

const BODY = { content: { "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } } } };
const ID = { name: "id", in: "path", required: true, schema: { type: "string" } };
const KEY = { name: "Idempotency-Key", in: "header", schema: { type: "string" } };
const SPEC = openapi30({
  "/notes": {
    post: { operationId: "createNote", parameters: [KEY], requestBody: BODY, responses: { 201: OK_OBJECT } },
    patch: { operationId: "appendNotes", requestBody: BODY, responses: { 200: OK_OBJECT } },
  },
  // Notion's retrieve-a-page-property and delete-a-block declare JSON answers without a schema.
  "/pages/{id}": {
    get: { operationId: "getPage", parameters: [ID], responses: { 200: { description: "ok", content: { "application/json": {} } } } },
    delete: { operationId: "deletePage", parameters: [ID], responses: { 200: { description: "ok", content: { "application/json": {} } } } },
  },
});

let project: GeneratedProject;
let api: LoopbackApi;

beforeAll(async () => {
  const dir = scratchProject("calls");
  const imported = await importSpec(SPEC, undefined, {}, dir);
  expect(imported.messages).toEqual([]);
  project = await generateAndLoad(dir);
  api = await startLoopbackApi();
});

afterAll(async () => {
  await api?.close();
});

describe("retries that cannot duplicate", () => {
  it("a PATCH without an idempotency key is sent once: a 503 fails the call, saying it may have applied", async () => {
    api.requests.length = 0;
    api.answer(200, { id: "n-1" });
    api.queue({ status: 503, body: { message: "busy" } });
    const result = await project.execute("appendNotes", { text: "once" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toMatchObject({ ok: false, code: "FAILED", attempts: 1, message: expect.stringMatching(/not safe to retry/) });
    expect(api.requests.map((r) => r.method)).toEqual(["PATCH"]);
  });

  it("a POST with an idempotency key is retried after a 503, every attempt with the same key", async () => {
    api.requests.length = 0;
    api.answer(201, { id: "n-2" });
    api.queue({ status: 503, body: {}, headers: { "retry-after": "0" } });
    const result = await project.execute("createNote", { "Idempotency-Key": "k-42", text: "hello" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toEqual({ ok: true, data: { id: "n-2" } });
    expect(api.requests.map((r) => [r.method, r.headers["idempotency-key"], r.body])).toEqual([
      ["POST", "k-42", '{"text":"hello"}'],
      ["POST", "k-42", '{"text":"hello"}'],
    ]);
  });

  it("the key is required: a call without one is INVALID_INPUT and sends nothing", async () => {
    api.requests.length = 0;
    const result = await project.execute("createNote", { text: "hello" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(api.requests).toEqual([]);
  });
});

describe("answers without a schema", () => {
  it("a JSON answer comes back as structured data, whatever its shape", async () => {
    const handlers = project.createOpenApiHandlers({ baseUrl: api.url });
    api.answer(200, { object: "page", id: "p-1", properties: { title: ["Hello"] } });
    expect(await project.execute("getPage", { id: "p-1" }, handlers)).toEqual({ ok: true, data: { object: "page", id: "p-1", properties: { title: ["Hello"] } } });
    api.answer(200, ["a", 1]);
    expect(await project.execute("getPage", { id: "p-1" }, handlers)).toEqual({ ok: true, data: ["a", 1] });
  });

  it("an empty 2xx body is {}, not INVALID_OUTPUT", async () => {
    api.queue({ status: 200, body: undefined });
    expect(await project.execute("deletePage", { id: "p-1" }, project.createOpenApiHandlers({ baseUrl: api.url }))).toEqual({ ok: true, data: {} });
  });
});

describe("errors an agent can act on", () => {
  it("an undeclared 404 is REJECTED NOT_FOUND with the API's own message", async () => {
    api.queue({ status: 404, body: { object: "error", code: "object_not_found", message: "Could not find page with ID: p-9." } });
    const result = await project.execute("getPage", { id: "p-9" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "NOT_FOUND", message: "Shop API answered 404: Could not find page with ID: p-9." });
  });

  it.each([
    { status: 409, reason: "CONFLICT" },
    { status: 422, reason: "UNPROCESSABLE_CONTENT" },
    { status: 400, reason: "HTTP_4XX" },
    { status: 403, reason: "HTTP_4XX" },
  ])("an undeclared $status is REJECTED $reason, its status and message shortened", async ({ status, reason }) => {
    api.queue({ status, body: { message: `body.parent should be defined, instead was \`undefined\`. ${"x".repeat(400)}` } });
    const result = await project.execute("getPage", { id: "p-1" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toMatchObject({ ok: false, code: "REJECTED", reason, message: expect.stringMatching(new RegExp(`^Shop API answered ${status}: body\\.parent should be defined`)) });
    expect((result as { message: string }).message.length).toBeLessThan(300);
  });

  it("a 429 on a write that is not retried is REJECTED RATE_LIMITED with Retry-After, sent once", async () => {
    api.requests.length = 0;
    api.queue({ status: 429, body: { message: "rate limited" }, headers: { "retry-after": "7" } });
    const result = await project.execute("appendNotes", { text: "x" }, project.createOpenApiHandlers({ baseUrl: api.url }));
    expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "RATE_LIMITED", effect: "none", message: "Shop API answered 429: rate limited; retry after 7 s" });
    expect(api.requests).toHaveLength(1);
  });
});
