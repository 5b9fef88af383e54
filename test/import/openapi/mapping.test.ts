/** Table-driven tests of the OpenAPI → contract mapping: names, effect, input, output, errors, schema conversions. */
import { describe, expect, it } from "vitest";
import { compile } from "../../../generator/pipeline/run.js";
import { HEADER_VALUE_PATTERN, PATH_SEGMENT_PATTERN } from "../../../generator/import/openapi/input.js";
import { importSpec, OK_OBJECT, openapi30, type Obj } from "./helpers.js";

const get = (op: Obj = {}) => ({ get: { operationId: "getThing", responses: { 200: OK_OBJECT }, ...op } });

async function onlyContract(spec: Obj, curation?: string): Promise<{ contract: Obj; messages: string[] }> {
  const { contracts, messages } = await importSpec(spec, curation);
  const values = Object.values(contracts);
  expect(values).toHaveLength(1);
  return { contract: values[0]!, messages };
}

describe("names", () => {
  it.each([
    { operationId: "repos/get-content", expected: "repos_get-content" },
    { operationId: "admin.apps.approve", expected: "admin_apps_approve" },
    { operationId: undefined, expected: "get_things_id" },
    { operationId: "then", expected: "then_tool" },
    { operationId: "__proto__", expected: "proto" },
    { operationId: "a".repeat(80), expected: /^a{55}_[0-9a-f]{8}$/ },
    // Gemini's function names start with a letter or `_`.
    { operationId: "2fa-status", expected: "get_2fa-status" },
    { operationId: "-9lives", expected: "get_9lives" },
  ])("$operationId → $expected", async ({ operationId, expected }) => {
    const spec = openapi30({ "/things/{id}": { get: { ...(operationId === undefined ? {} : { operationId }), parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { 200: OK_OBJECT } } } });
    const { contract } = await onlyContract(spec);
    if (typeof expected === "string") expect(contract.name).toBe(expected);
    else expect(contract.name).toMatch(expected);
    expect(contract.name).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
  });

  it("renames a reserved name with a warning and a note in the contract", async () => {
    const { dir, messages } = await importSpec(openapi30({ "/a": { get: { operationId: "then", responses: { 200: OK_OBJECT } } } }));
    expect(messages.join("\n")).toMatch(/renamed from "then".*then_tool/);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(`${dir}/definitions/then_tool.yaml`, "utf8")).toMatch(/# toolc import: renamed from "then"/);
  });

  it("keeps two operations apart that would get the same name, also in case", async () => {
    const spec = openapi30({ "/a": { get: { operationId: "List", responses: { 200: OK_OBJECT } }, post: { operationId: "list", responses: { 200: OK_OBJECT } } } });
    const { contracts } = await importSpec(spec);
    expect(Object.keys(contracts).sort()).toEqual(["List", "list_2"]);
  });
});

describe("effect from the method", () => {
  it.each([
    { method: "get", effect: "read", idempotent: undefined, retry: { attempts: 3 } },
    { method: "head", effect: "read", idempotent: undefined, retry: { attempts: 3 } },
    { method: "put", effect: "write", idempotent: true, retry: { attempts: 3 } },
    // PATCH may append (RFC 5789 §2): not retried without an idempotency key (writes.test.ts).
    { method: "patch", effect: "write", idempotent: undefined, retry: undefined },
    { method: "post", effect: "write", idempotent: undefined, retry: undefined },
    { method: "delete", effect: "destructive", idempotent: true, retry: { attempts: 3 } },
  ])("$method → $effect", async ({ method, effect, idempotent, retry }) => {
    const { contract } = await onlyContract(openapi30({ "/a": { [method]: { operationId: "op", responses: { 200: OK_OBJECT } } } }));
    expect({ effect: contract.effect, idempotent: contract.idempotent, retry: contract.retry, openWorld: contract.openWorld }).toEqual({ effect, idempotent, retry, openWorld: true });
  });

  it("the operation's x-toolc-effect and the curation win over the method, the curation last", async () => {
    const spec = openapi30({ "/a": { post: { operationId: "search", "x-toolc-effect": "read", responses: { 200: OK_OBJECT } }, delete: { operationId: "purge", responses: { 200: OK_OBJECT } } } });
    const { contracts } = await importSpec(spec, "operations:\n  purge: { effect: write, idempotent: true }\n");
    expect(contracts.search).toMatchObject({ effect: "read" });
    expect(contracts.purge).toMatchObject({ effect: "write", idempotent: true, retry: { attempts: 3 } });
  });
});

describe("input", () => {
  it("a path parameter with a pattern of its own keeps it and gets the segment pattern beside it, and a header array's items get the header pattern; all of it compiles", async () => {
    const spec = openapi30({
      "/files/{name}": {
        get: {
          operationId: "getFile",
          parameters: [
            { name: "name", in: "path", required: true, schema: { type: ["string", "null"], pattern: "^[a-z.]+$" } },
            { name: "X-Tags", in: "header", schema: { type: "array", items: { type: "string" } } },
          ],
          responses: { 200: OK_OBJECT },
        },
      },
    });
    const { contracts, dir } = await importSpec(spec);
    const properties = (contracts.getFile!.input as Obj).properties as Obj;
    expect(properties.name).toEqual({ type: ["string", "null"], pattern: "^[a-z.]+$", allOf: [{ type: ["string", "null"], pattern: PATH_SEGMENT_PATTERN }] });
    expect(properties["X-Tags"]).toEqual({ type: "array", items: { type: "string", pattern: HEADER_VALUE_PATTERN } });
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("takes path, query, header and cookie parameters and the JSON body's properties, without collisions", async () => {
    const spec = openapi30({
      "/orders/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        post: {
          operationId: "updateOrder",
          parameters: [
            { name: "id", in: "query", schema: { type: "integer" } },
            { name: "X-Request-Id", in: "header", schema: { type: "string" }, description: "Trace id" },
            { name: "Accept", in: "header", schema: { type: "string" } },
            { name: "session", in: "cookie", schema: { type: "string" } },
            { name: "filter[name]", in: "query", schema: { type: "string" } },
          ],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { note: { type: "string" }, qty: { type: "integer", format: "int32" } }, required: ["qty"] } } } },
          responses: { 200: OK_OBJECT },
        },
      },
    });
    const { contract } = await onlyContract(spec);
    const input = contract.input as Obj;
    expect(Object.keys(input.properties as Obj)).toEqual(["id", "query_id", "X-Request-Id", "session", "filter_name", "note", "qty"]);
    expect(input.required).toEqual(["id", "qty"]);
    // A header value holds no line break and a path segment is never empty, `.` or `..` (issue #33 L4, M3).
    expect((input.properties as Obj)["X-Request-Id"]).toEqual({ type: "string", description: "Trace id", pattern: HEADER_VALUE_PATTERN });
    expect((input.properties as Obj).id).toEqual({ type: "string", pattern: PATH_SEGMENT_PATTERN });
    expect((input.properties as Obj).qty).toEqual({ type: "integer", minimum: -2147483648, maximum: 2147483647 });
  });

  it.each([
    { name: "a body whose names clash with a parameter", body: { type: "object", properties: { id: { type: "string" } } } },
    { name: "an array body", body: { type: "array", items: { type: "string" } } },
    { name: "a map body", body: { type: "object", additionalProperties: { type: "string" } } },
  ])("nests $name as `body`", async ({ body }) => {
    const spec = openapi30({ "/a/{id}": { put: { operationId: "op", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], requestBody: { content: { "application/json": { schema: body } } }, responses: { 200: OK_OBJECT } } } });
    const { contract } = await onlyContract(spec);
    expect(Object.keys((contract.input as Obj).properties as Obj)).toEqual(["id", "body"]);
  });

  it("marks secrets: a security scheme's parameter, secret-looking names, format password", async () => {
    const spec = openapi30(
      { "/a": { post: { operationId: "op", security: [{ key: [] }], parameters: [{ name: "X-Key", in: "header", schema: { type: "string" } }, { name: "page_size", in: "query", schema: { type: "integer" } }], requestBody: { content: { "application/json": { schema: { type: "object", properties: { client_secret: { type: "string" }, pin: { type: "string", format: "password" }, token_type: { type: "string" } } } } } }, responses: { 200: OK_OBJECT } } } },
      { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
    );
    const { contract } = await onlyContract(spec);
    const sensitive = Object.entries((contract.input as Obj).properties as Record<string, Obj>).filter(([, s]) => s["x-sensitive"] === true).map(([k]) => k);
    expect(sensitive).toEqual(["X-Key", "client_secret", "pin"]);
  });
});

describe("output and errors", () => {
  const THING = { type: "object", properties: { id: { type: "string" } } };
  const OPEN_THING = { type: "object", properties: { id: { type: "string" } }, additionalProperties: true };
  it.each([
    { name: "an object", schema: THING, output: OPEN_THING },
    { name: "an array, as it is", schema: { type: "array", items: { type: "string" } }, output: { type: "array", items: { type: "string" } } },
    { name: "a string, as it is", schema: { type: "string" }, output: { type: "string" } },
    { name: "a nullable object, as it is", schema: { ...THING, nullable: true }, output: { ...OPEN_THING, type: ["object", "null"] } },
    { name: "a $ref to an array, as it is", schema: { $ref: "#/components/schemas/Things" }, output: { $ref: "#/$defs/Things", $defs: { Things: { type: "array", items: { $ref: "#/$defs/Thing" } }, Thing: OPEN_THING } } },
    { name: "any value (OpenAPI 3.1's `true`)", schema: true, output: {}, version: "3.1.0" },
  ])("the 2xx JSON answer: $name, compiled", async ({ schema, output, version }) => {
    const spec = openapi30({ "/a": get({ responses: { 200: { description: "ok", content: { "application/json": { schema } } } } }) }, { schemas: { Thing: THING, Things: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } }, version === undefined ? {} : { openapi: version });
    const { contracts, dir, result } = await importSpec(spec);
    expect(contracts.getThing!.output).toEqual(output);
    // The handler hands the answer on as it is: its binding says JSON, and nothing wraps it.
    expect(result.tools[0]!.binding.success).toEqual({ kind: "json" });
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("an answer schema of `false` accepts nothing: the operation is skipped with an error", async () => {
    const spec = openapi30({ "/a": get({ responses: { 200: { description: "ok", content: { "application/json": { schema: false } } } } }) }, {}, { openapi: "3.1.0" });
    const { contracts, messages } = await importSpec(spec);
    expect(contracts).toEqual({});
    expect(messages).toContainEqual(expect.stringMatching(/^error \/paths\/~1a\/get\/responses\/200.*schema is `false`, which accepts no answer/));
  });

  it("a group whose members answer an object and an array has the union of both as its output, compiled", async () => {
    const list = { description: "ok", content: { "application/json": { schema: { type: "array", items: THING } } } };
    const spec = openapi30({ "/things": { get: { operationId: "listThings", responses: { 200: list } } }, "/things/{id}": { get: { operationId: "getThing", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { 200: OK_OBJECT } } } });
    const { contracts, dir } = await importSpec(spec, "groups:\n  things:\n    description: List things or get one.\n    operations: [listThings, getThing]\n");
    const output = contracts.things!.output as Obj;
    expect(output).not.toHaveProperty("type");
    expect((output.anyOf as Obj[]).map((b) => b.type)).toEqual(["array", "object"]);
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("a non-JSON answer comes back as a content block; no content is {}", async () => {
    const spec = openapi30({ "/a": { get: { operationId: "csv", responses: { 200: { description: "ok", content: { "text/csv": { schema: { type: "string" } } } } } }, delete: { operationId: "remove", responses: { 204: { description: "gone" } } } } });
    const { contracts } = await importSpec(spec);
    expect(contracts.csv).toMatchObject({ content: ["text"], output: { properties: { contentType: { type: "string" } }, required: ["contentType"] } });
    expect(contracts.remove!.output).toEqual({ type: "object", properties: {}, additionalProperties: false });
  });

  it("declares each 4xx with a status code and a 4XX range, the undeclared ones too; 429 only where the tool is not retried", async () => {
    const responses = { 200: OK_OBJECT, 404: { description: "No such thing" }, 409: { description: "" }, 418: { description: "teapot" }, 429: { description: "slow down" }, "4XX": { description: "other" } };
    const { contract } = await onlyContract(openapi30({ "/a": get({ responses }) }));
    expect(contract.errors).toEqual({
      NOT_FOUND: { description: "No such thing" }, CONFLICT: { description: "HTTP 409" }, HTTP_418: { description: "teapot" }, HTTP_4XX: { description: "other" },
      UNPROCESSABLE_CONTENT: { description: expect.stringMatching(/^The API answered 422/) },
    });
    const { contract: post } = await onlyContract(openapi30({ "/a": { post: { operationId: "create", responses: { 201: OK_OBJECT } } } }));
    expect(Object.keys(post.errors as object).sort()).toEqual(["CONFLICT", "HTTP_4XX", "NOT_FOUND", "RATE_LIMITED", "UNPROCESSABLE_CONTENT"]);
  });
});

describe("schema conversions, each reported", () => {
  const component = (schema: Obj) => openapi30({ "/a": get({ responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } }) }, { schemas: { Thing: schema } });

  it.each([
    { name: "nullable with a type", schema: { type: "object", properties: { a: { type: "string", nullable: true } } }, property: { type: ["string", "null"] }, kind: "nullable" },
    { name: "nullable without a type", schema: { type: "object", properties: { a: { nullable: true, allOf: [{ type: "string" }], description: "d" } } }, property: { description: "d", anyOf: [{ allOf: [{ type: "string" }] }, { type: "null" }] }, kind: "nullable without type" },
    { name: "example", schema: { type: "object", properties: { a: { type: "string", example: "x" } } }, property: { type: "string", examples: ["x"] }, kind: "example" },
    { name: "int64", schema: { type: "object", properties: { a: { type: "integer", format: "int64" } } }, property: { type: "integer" }, kind: "format int64" },
    { name: "a keyword of another type", schema: { type: "object", properties: { a: { type: "integer", pattern: "^\\d+$" } } }, property: { type: "integer" }, kind: "inapplicable keyword" },
    { name: "an implied object type", schema: { type: "object", properties: { a: { properties: { b: { type: "string" } } } } }, property: { type: "object", properties: { b: { type: "string" } }, additionalProperties: true }, kind: "implied type" },
  ])("$name", async ({ schema, property, kind }) => {
    const { contract, messages } = await importSpec(component(schema)).then(({ contracts, messages, result }) => ({ contract: Object.values(contracts)[0]!, messages, result }));
    expect(((contract.output as Obj).properties as Obj).a).toEqual(property);
    expect(messages).toEqual([]);
    const { result } = await importSpec(component(schema));
    expect(result.conversions.list.map((c) => c.kind)).toContain(kind);
  });

  it("readOnly properties leave the input, writeOnly ones the output", async () => {
    const thing = { type: "object", properties: { id: { type: "string", readOnly: true }, secret: { type: "string", writeOnly: true }, name: { type: "string" } }, required: ["id", "name"] };
    const spec = openapi30({ "/a": { post: { operationId: "create", requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } }, responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } } } }, { schemas: { Thing: thing } });
    const { contract } = await onlyContract(spec);
    expect(Object.keys((contract.input as Obj).properties as Obj)).toEqual(["secret", "name"]);
    expect((contract.input as Obj).required).toEqual(["name"]);
    expect(Object.keys((contract.output as Obj).properties as Obj)).toEqual(["id", "name"]);
  });

  it.each([
    { name: "discriminator", schema: { type: "object", oneOf: [{ type: "object" }], discriminator: { propertyName: "kind" } }, severity: "warning", pointer: "/components/schemas/Thing/discriminator" },
    { name: "an unknown format", schema: { type: "object", properties: { a: { type: "string", format: "color" } } }, severity: "warning", pointer: "/components/schemas/Thing/properties/a/format" },
    { name: "a keyword outside the subset", schema: { type: "object", not: { required: ["a"] } }, severity: "error", pointer: "/components/schemas/Thing/not" },
  ])("$name is reported at its pointer in the description", async ({ schema, severity, pointer }) => {
    const { result } = await importSpec(component(schema));
    expect(result.problems.filter((p) => p.pointer === pointer).map((p) => p.severity)).toEqual([severity]);
  });

  it("a component used by many operations is converted and reported once", async () => {
    const spec = openapi30(
      Object.fromEntries(["a", "b", "c"].map((p) => [`/${p}`, { get: { operationId: p, responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } } }])),
      { schemas: { Thing: { type: "object", properties: { c: { type: "string", format: "color" }, self: { $ref: "#/components/schemas/Thing" } } } } },
    );
    const { result, contracts } = await importSpec(spec);
    expect(result.problems.filter((p) => p.pointer.endsWith("/format"))).toHaveLength(1);
    // Written once too: three contracts use it, so it is in the types file they refer to (shared-types.test.ts).
    expect(((contracts.a!.output as Obj).properties as Obj).self).toEqual({ $ref: "types/shop.yaml#/Thing" });
  });
});

describe("Swagger 2.0", () => {
  it("reads body, formData, collectionFormat, host and securityDefinitions", async () => {
    const spec = {
      swagger: "2.0", info: { title: "Chat", version: "1" }, host: "chat.example", basePath: "/api", schemes: ["https"],
      securityDefinitions: { app: { type: "oauth2", flow: "application", tokenUrl: "https://chat.example/token", scopes: {} } }, security: [{ app: [] }],
      paths: {
        "/post": { post: { operationId: "chat.post", consumes: ["application/x-www-form-urlencoded"], parameters: [{ name: "channel", in: "formData", type: "string", required: true }, { name: "tags", in: "query", type: "array", items: { type: "string" }, collectionFormat: "multi" }], responses: { 200: { description: "ok", schema: { type: "object", properties: { ok: { type: "boolean" } } } } } } },
        "/put": { put: { operationId: "chat.put", parameters: [{ name: "body", in: "body", schema: { $ref: "#/definitions/Msg" } }], responses: { 200: { description: "ok", schema: { $ref: "#/definitions/Msg" } } } } },
      },
      definitions: { Msg: { type: "object", properties: { text: { type: "string" } } } },
    };
    const { contracts, dir } = await importSpec(spec);
    expect(Object.keys(contracts).sort()).toEqual(["chat_post", "chat_put"]);
    expect((contracts.chat_post!.input as Obj).properties).toEqual({ tags: { type: "array", items: { type: "string" } }, channel: { type: "string" } });
    expect(Object.keys((contracts.chat_put!.input as Obj).properties as Obj)).toEqual(["text"]);
    const { readFileSync } = await import("node:fs");
    const handlers = readFileSync(`${dir}/openapi-handlers.ts`, "utf8");
    expect(handlers).toContain('server: "https://chat.example/api"');
    expect(handlers).toContain('clientId: "CHAT_APP_CLIENT_ID"');
    expect(handlers).toMatch(/encoding: "form",\s+mediaType: "application\/x-www-form-urlencoded"/);
  });
});

describe("where the description comes from", () => {
  it("reads it from an http URL, YAML included, with a $ref to a second document resolved", async () => {
    const { createServer } = await import("node:http");
    const files: Record<string, string> = {
      "/api.yaml": "openapi: 3.1.0\ninfo: { title: Remote API, version: '1' }\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: 'schemas.yaml#/Thing' }\n",
      "/schemas.yaml": "Thing:\n  type: object\n  properties:\n    name: { type: [string, 'null'] }\n",
    };
    const server = createServer((req, res) => {
      const body = files[req.url ?? ""];
      res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/yaml" });
      res.end(body ?? "");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as { port: number };
      const { contracts, messages } = await importSpec(`http://127.0.0.1:${port}/api.yaml`);
      expect(messages).toEqual([]);
      expect(contracts.getA!.output).toEqual({ type: "object", properties: { name: { type: ["string", "null"] } }, additionalProperties: true });
    } finally {
      server.close();
    }
  });

  it("an unreadable description is one error and nothing is written", async () => {
    const { result, contracts } = await importSpec("/nonexistent/api.yaml");
    expect(result.aborted).toBe(true);
    expect(result.problems).toEqual([expect.objectContaining({ severity: "error", message: expect.stringMatching(/^cannot read the API description/) })]);
    expect(contracts).toEqual({});
  });
});
