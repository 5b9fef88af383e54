/**
 * `toolc import openapi` at scale: a synthetic OpenAPI 3.0 description of
 * 1,000 operations (250 resources × list, get, update, delete, each with
 * path and query parameters, a JSON body, nullable and allOf components and
 * a 404), and the pinned GitHub REST API description (1,223 operations).
 * Each import is a cold `toolc` process writing into an empty project. Side
 * by side: the parser alone (swagger-parser's bundle and validate, what any
 * importer built on it pays), in a process of its own; and on GitHub's
 * description, openapi-mcp-generator (a cold process writing its MCP server
 * project), installed in bench/peers/openapi-mcp-generator/ by the bench on
 * its first run: it must not share the root's install (it wants zod 3).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ROOT, tempProject, toolc } from "./lib/project.js";

type Obj = Record<string, unknown>;

function resource(i: number): { paths: Obj; schemas: Obj } {
  const name = `Item${i}`;
  const ref = { $ref: `#/components/schemas/${name}` };
  const notFound = { description: "No such item", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const ok = (schema: Obj) => ({ description: "ok", content: { "application/json": { schema } } });
  return {
    schemas: {
      [name]: {
        allOf: [{ $ref: "#/components/schemas/Base" }],
        type: "object",
        properties: {
          id: { type: "string", readOnly: true },
          title: { type: "string", maxLength: 200, example: "A title" },
          note: { type: "string", nullable: true },
          count: { type: "integer", format: "int32" },
          tags: { type: "array", items: { type: "string" } },
          owner: { nullable: true, allOf: [{ $ref: "#/components/schemas/User" }] },
        },
        required: ["id", "title"],
      },
    },
    paths: {
      [`/items${i}`]: {
        get: {
          operationId: `list${name}s`,
          tags: [`group${i % 10}`],
          parameters: [
            { name: "page", in: "query", schema: { type: "integer" } },
            { name: "per_page", in: "query", schema: { type: "integer", maximum: 100 } },
          ],
          responses: { 200: ok({ type: "array", items: ref }) },
        },
      },
      [`/items${i}/{id}`]: {
        get: { operationId: `get${name}`, parameters: [id], responses: { 200: ok(ref), 404: notFound } },
        put: {
          operationId: `update${name}`,
          parameters: [id],
          requestBody: { required: true, content: { "application/json": { schema: ref } } },
          responses: { 200: ok(ref), 404: notFound, 422: { description: "Invalid" } },
        },
        delete: {
          operationId: `delete${name}`,
          parameters: [id, { name: "X-Request-Id", in: "header", schema: { type: "string" } }],
          responses: { 204: { description: "Deleted" }, 404: notFound },
        },
      },
    },
  };
}

/** The synthetic description: 4 operations per resource. */
export function syntheticDescription(operations: number): Obj {
  const parts = Array.from({ length: Math.ceil(operations / 4) }, (_, i) => resource(i));
  return {
    openapi: "3.0.3",
    info: { title: "Synthetic API", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    security: [{ key: [] }],
    paths: Object.assign({}, ...parts.map((p) => p.paths)),
    components: {
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } },
      schemas: {
        Base: { type: "object", properties: { created_at: { type: "string", format: "date-time" } } },
        User: { type: "object", properties: { login: { type: "string" }, email: { type: "string", format: "email", nullable: true } }, required: ["login"] },
        Error: { type: "object", properties: { message: { type: "string" } } },
        ...Object.assign({}, ...parts.map((p) => p.schemas)),
      },
    },
  };
}

const PARSER_ONLY = `import SwaggerParser from "@apidevtools/swagger-parser";
const api = await SwaggerParser.bundle(process.argv[2]);
await SwaggerParser.validate(structuredClone(api)).catch(() => {});
`;

export interface ImportBench {
  readonly label: string;
  readonly operations: number;
  readonly importMs: number;
  readonly parserMs: number;
  /** openapi-mcp-generator on the same description, in the same run (GitHub's only). */
  readonly peerMs?: number;
}

const PEER = join(ROOT, "bench/peers/openapi-mcp-generator");
export const PEER_VERSION = (JSON.parse(readFileSync(join(PEER, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies[
  "openapi-mcp-generator"
]!;

/** The peer's CLI, installed from its lock file on the first run (never by CI: the bench is not in CI). */
function peerCli(): string {
  const cli = join(PEER, "node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js");
  if (!existsSync(cli)) execFileSync("npm", ["ci", "--prefix", PEER, "--no-audit", "--no-fund", "--ignore-scripts"], { stdio: "inherit" });
  return cli;
}

/** openapi-mcp-generator writing its server project for `spec` into an empty folder, as a cold process; ms, median of `runs`. */
function timePeer(spec: string, runs: number): number {
  const cli = peerCli();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = tempProject("openapi-mcp-generator");
    const t0 = performance.now();
    execFileSync(process.execPath, [cli, "--input", spec, "--output", join(dir, "server")], { cwd: dir, stdio: "pipe" });
    times.push(performance.now() - t0);
  }
  return median(times);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeImport(spec: string, runs: number): { importMs: number; parserMs: number } {
  const imports: number[] = [];
  const parsers: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = tempProject("openapi-import");
    imports.push(toolc(dir, ["import", "openapi", spec]));
    writeFileSync(join(dir, "parse.mjs"), PARSER_ONLY);
    const t0 = performance.now();
    execFileSync(process.execPath, [join(dir, "parse.mjs"), spec], { cwd: dir, stdio: "pipe" });
    parsers.push(performance.now() - t0);
  }
  return { importMs: median(imports), parserMs: median(parsers) };
}

export function benchOpenApiImport(runs: number, withGithub: boolean): ImportBench[] {
  const dir = tempProject("openapi-specs");
  const synthetic = join(dir, "synthetic.json");
  writeFileSync(synthetic, JSON.stringify(syntheticDescription(1000)));
  const results: ImportBench[] = [{ label: "synthetic OpenAPI 3.0", operations: 1000, ...timeImport(synthetic, runs) }];
  if (withGithub) {
    const github = join(dir, "github.json");
    writeFileSync(github, gunzipSync(readFileSync(join(ROOT, "test/import/openapi/fixtures/github/api.github.com.json.gz"))));
    results.push({ label: "GitHub REST API (pinned fixture)", operations: 1223, ...timeImport(github, runs), peerMs: timePeer(github, runs) });
  }
  return results;
}
