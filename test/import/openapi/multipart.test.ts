/**
 * multipart/form-data request bodies (issue #38): a file part is an input
 * property of base64 text that says so (`contentEncoding`,
 * `contentMediaType`), and the generated handler sends it as a real
 * multipart body. An echo server on loopback hands the raw request back, and
 * the test reads it with the web-standard multipart parser (`Response.formData`)
 * to check the bytes that arrived.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../compiler/helpers.js";
import { importSpec, openapi30, scratchProject, type Obj } from "./helpers.js";
import { generateAndLoad, type GeneratedProject } from "./project.js";

const ECHO = { description: "the request as received", content: { "application/json": {} } };
const SPEC = openapi30({
  "/avatars": {
    post: {
      operationId: "uploadAvatar",
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["userId", "picture"],
              properties: {
                userId: { type: "integer" },
                caption: { type: "string" },
                tags: { type: "array", items: { type: "string" } },
                meta: { type: "object", properties: { width: { type: "integer" } } },
                picture: { type: "string", format: "binary", description: "The picture." },
                extras: { type: "array", items: { type: "string", format: "binary" } },
              },
            },
            encoding: { picture: { contentType: "image/png, image/jpeg" } },
          },
        },
      },
      responses: { 200: ECHO },
    },
  },
});
const SWAGGER2 = {
  swagger: "2.0",
  info: { title: "Files", version: "1" },
  host: "files.example",
  consumes: ["multipart/form-data", "application/x-www-form-urlencoded"],
  paths: {
    "/files": {
      post: {
        operationId: "putFile",
        parameters: [
          { name: "name", in: "formData", type: "string", required: true },
          { name: "file", in: "formData", type: "file", required: true },
        ],
        responses: { 200: { description: "ok" } },
      },
    },
  },
};

/** Every byte value, so a decoding that goes through text (UTF-8, latin-1) would change some. */
const BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

interface Echo {
  readonly url: string;
  readonly requests: { contentType: string; body: Buffer }[];
  close(): Promise<void>;
}

async function startEcho(): Promise<Echo> {
  const requests: Echo["requests"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: chunks.reduce((n, c) => n + c.length, 0) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The recorded request's parts, read by the web-standard parser. */
async function partsOf(request: Echo["requests"][number]): Promise<FormData> {
  return new Response(new Uint8Array(request.body), { headers: { "content-type": request.contentType } }).formData();
}

let project: GeneratedProject;
let contracts: Record<string, Obj>;
let echo: Echo;

beforeAll(async () => {
  const dir = scratchProject("multipart");
  const imported = await importSpec(SPEC, undefined, {}, dir);
  expect(imported.messages).toEqual([]);
  contracts = imported.contracts;
  project = await generateAndLoad(dir);
  echo = await startEcho();
}, 120_000);

afterAll(async () => {
  await echo?.close();
});

describe("multipart/form-data bodies", () => {
  it("a file part is a base64 input property that says its encoding and media type", () => {
    const input = contracts.uploadAvatar!.input as { properties: Record<string, Obj>; required: string[] };
    expect(input.properties.picture).toEqual({
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "image/png",
      pattern: "^[A-Za-z0-9+/]*={0,2}$",
      description: "The picture. The file's bytes, base64-encoded (image/png).",
    });
    expect(input.properties.extras).toMatchObject({ type: "array", items: { contentEncoding: "base64", contentMediaType: "application/octet-stream" } });
    expect(input.required).toEqual(["userId", "picture"]);
  });

  it("the handler sends a multipart body whose parts hold the file's bytes and the fields", async () => {
    echo.requests.length = 0;
    const input = {
      userId: 7,
      caption: "über",
      tags: ["a", "b"],
      meta: { width: 3 },
      picture: base64(BYTES),
      extras: [base64(BYTES.subarray(0, 3)), base64(BYTES.subarray(250))],
    };
    const result = await project.execute("uploadAvatar", input, project.createOpenApiHandlers({ baseUrl: echo.url }));
    expect(result).toMatchObject({ ok: true });
    expect(echo.requests).toHaveLength(1);
    expect(echo.requests[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await partsOf(echo.requests[0]!);
    const picture = parts.get("picture") as File;
    expect({ name: picture.name, type: picture.type, bytes: new Uint8Array(await picture.arrayBuffer()) }).toEqual({ name: "picture", type: "image/png", bytes: BYTES });
    const extras = parts.getAll("extras") as File[];
    expect(await Promise.all(extras.map(async (f) => [...new Uint8Array(await f.arrayBuffer())]))).toEqual([[0, 1, 2], [250, 251, 252, 253, 254, 255]]);
    expect([parts.get("userId"), parts.get("caption"), parts.getAll("tags")]).toEqual(["7", "über", ["a", "b"]]);
    const meta = parts.get("meta") as File;
    expect({ type: meta.type, text: await meta.text() }).toEqual({ type: "application/json", text: '{"width":3}' });
  });

  it("a file that is not base64 is INVALID_INPUT at its argument, and nothing is sent", async () => {
    echo.requests.length = 0;
    const result = await project.execute("uploadAvatar", { userId: 1, picture: "not base64!" }, project.createOpenApiHandlers({ baseUrl: echo.url }));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [expect.objectContaining({ path: "picture" })] });
    expect(echo.requests).toEqual([]);
  });

  it("Swagger 2.0's formData with a `type: file` parameter is a multipart body with a file part", async () => {
    const { contracts: swagger, result, messages } = await importSpec(SWAGGER2);
    expect(messages).toEqual([]);
    expect(result.tools[0]!.binding.body).toEqual({ encoding: "multipart", mediaType: "multipart/form-data", keys: ["name", "file"], files: { file: "application/octet-stream" } });
    expect((swagger.putFile!.input as { properties: Record<string, Obj> }).properties.file).toMatchObject({ contentEncoding: "base64" });
  });
});

describe("ReadMe's file-uploads example", () => {
  it("its multipart operations are tools; the image/png body is skipped with one located warning, and no tool has an empty input", async () => {
    const { result, contracts: readme, messages } = await importSpec(join(ROOT, "test/corpus/openapi/readme/file-uploads.json"));
    expect(result.tools.map((t) => t.name).sort()).toEqual(["post_anything_multipart-formdata", "put_anything_multipart-formdata"]);
    for (const tool of result.tools) expect(Object.keys((readme[tool.name]!.input as { properties: Obj }).properties)).not.toEqual([]);
    expect((readme["put_anything_multipart-formdata"]!.input as { properties: Record<string, Obj> }).properties.filename).toMatchObject({
      type: "array",
      items: { contentEncoding: "base64", contentMediaType: "application/octet-stream" },
    });
    const warnings = messages.filter((m) => m.startsWith("warning"));
    expect(warnings).toEqual([expect.stringMatching(/^warning \/paths\/~1anything~1image-png\/post\/requestBody: skipped: its request body is "image\/png"/)]);
  });
});
