/**
 * Keep what the description says (issue #38): a body's own `required` list
 * holds whether or not the body is required, a JSON answer without a schema
 * is structured output, and an operation whose only request body toolc
 * cannot send is skipped with one located warning rather than served as a
 * tool that cannot work.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../generator/pipeline/run.js";
import { importSpec, OK_OBJECT, openapi30 } from "./helpers.js";

const COMMENT = { type: "object", properties: { parent: { type: "object", properties: { page_id: { type: "string" } } }, rich_text: { type: "array", items: { type: "string" } } }, required: ["rich_text"] };

describe("what the description says is kept", () => {
  it("a body's required properties stay required when the body itself is not marked required (Notion's create-a-comment)", async () => {
    const spec = openapi30({ "/comments": { post: { operationId: "create-a-comment", requestBody: { content: { "application/json": { schema: COMMENT } } }, responses: { 200: OK_OBJECT } } } });
    const { contracts } = await importSpec(spec);
    expect(contracts["create-a-comment"]).toMatchObject({ input: { properties: { rich_text: { type: "array" } }, required: ["rich_text"] } });
  });

  it("a body kept whole (not flattened) is required when it has required properties of its own", async () => {
    const labels = { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: { type: "string" } };
    const spec = openapi30({ "/labels": { post: { operationId: "create-label", requestBody: { content: { "application/json": { schema: labels } } }, responses: { 200: OK_OBJECT } } } });
    const { contracts } = await importSpec(spec);
    expect(contracts["create-label"]).toMatchObject({ input: { properties: { body: { required: ["name"] } }, required: ["body"] } });
  });

  it("a 2xx JSON answer without a schema is structured output: any JSON value, no content block", async () => {
    const spec = openapi30({ "/users/me": { get: { operationId: "get-self", responses: { 200: { description: "ok", content: { "application/json": {} } } } } } });
    const { contracts, result, dir } = await importSpec(spec);
    expect(contracts["get-self"]!.output).toEqual({});
    expect(contracts["get-self"]).not.toHaveProperty("content");
    expect(result.tools[0]!.binding.success).toEqual({ kind: "json" });
    expect(result.conversions.list).toContainEqual(expect.objectContaining({ kind: "JSON answer without a schema" }));
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("an operation whose only request body cannot be sent is skipped with one located warning; the others are written", async () => {
    const spec = openapi30({
      "/file_uploads/{id}/send": {
        post: {
          operationId: "upload-file",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: { "image/png": { schema: { type: "string", format: "binary" } } } },
          responses: { 200: OK_OBJECT },
        },
      },
      "/file_uploads": { get: { operationId: "list-uploads", responses: { 200: OK_OBJECT } } },
    });
    const { contracts, messages, result } = await importSpec(spec);
    expect(Object.keys(contracts)).toEqual(["list-uploads"]);
    expect(result.skipped).toEqual(["upload-file"]);
    expect(messages).toEqual([
      'warning /paths/~1file_uploads~1{id}~1send/post/requestBody: skipped: its request body is "image/png", which the handlers cannot send (toolc sends JSON, application/x-www-form-urlencoded, multipart/form-data, text/* and application/octet-stream bodies); write this tool\'s contract and handler by hand',
    ]);
  });
});

describe("credentials as declared, and said", () => {
  const schemes = { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" }, apiKey: { type: "apiKey", in: "header", name: "X-Key" } } };

  it("every operation opting out of a declared scheme (Notion's security: []) is a warning at the scheme; the handlers list no variable nothing sends", async () => {
    const spec = openapi30(
      { "/users": { get: { operationId: "get-users", security: [], responses: { 200: OK_OBJECT } } }, "/pages": { get: { operationId: "get-pages", security: [{ apiKey: [] }], responses: { 200: OK_OBJECT } } } },
      schemes,
      { security: [{ bearerAuth: [] }] },
    );
    const { messages, dir, result } = await importSpec(spec);
    expect(messages).toEqual([
      expect.stringMatching(/^warning \/components\/securitySchemes\/bearerAuth: no operation applies security scheme "bearerAuth" \(each sets `security: \[\]` or names another\), so the handlers never send its credentials; if the API needs them, set `security: \[\[bearerAuth\]\]` in the curation$/),
    ]);
    const handlers = readFileSync(join(dir, "openapi-handlers.ts"), "utf8");
    expect(handlers).toMatch(/SHOP_API_KEY: security scheme "apiKey"/);
    expect(handlers).not.toMatch(/BEARER_AUTH/);
    expect(result.tools.map((t) => t.binding.security)).toEqual([[], [["apiKey"]]]);
  });

  it("the curation's security applies the scheme: no warning, and its variable is listed", async () => {
    const spec = openapi30({ "/users": { get: { operationId: "get-users", security: [], responses: { 200: OK_OBJECT } } } }, schemes);
    const { messages, dir } = await importSpec(spec, "security: [[bearerAuth]]\n");
    expect(messages.filter((m) => /bearerAuth/.test(m))).toEqual([]);
    expect(readFileSync(join(dir, "openapi-handlers.ts"), "utf8")).toMatch(/SHOP_BEARER_AUTH_TOKEN: security scheme "bearerAuth"/);
  });
});
