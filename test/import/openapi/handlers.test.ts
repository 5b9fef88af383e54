/**
 * The generated handlers as a project uses them (docs/import.md, "Using the
 * handlers"): the contract's `timeoutMs` aborts the handler's request, and a
 * project replaces one generated handler with its own, which is typed from
 * the same contract (checked with tsc under every strict flag) and runs
 * while the other tools still call the API. The API is an HTTP server on
 * loopback.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICTEST, TYPESCRIPTS } from "../../helpers/typescripts.js";
import { importSpec, OK_OBJECT, openapi30, scratchProject } from "./helpers.js";
import { generateAndLoad, startLoopbackApi, type GeneratedProject, type Handler, type LoopbackApi } from "./project.js";

const ID = { name: "id", in: "path", required: true, schema: { type: "string" } };
const SPEC = openapi30({
  "/orders": { get: { operationId: "listOrders", responses: { 200: { description: "ok", content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } } } } },
  "/orders/{id}": { get: { operationId: "getOrder", parameters: [ID], responses: { 200: OK_OBJECT } } },
  "/reports/{id}": { get: { operationId: "getReport", parameters: [ID], responses: { 200: OK_OBJECT } } },
});
const TIMEOUT_MS = 400;
const CURATION = `operations:\n  getReport: { timeoutMs: ${TIMEOUT_MS}, retry: { attempts: 2, backoffMs: 10 } }\n`;

/** The project's own handlers module, written as docs/import.md shows it. */
const USER_HANDLERS = `import type { Handlers } from "./generated/index.js";
import { createOpenApiHandlers } from "./openapi-handlers.js";

export function userHandlers(baseUrl: string): Handlers {
  return {
    ...createOpenApiHandlers({ baseUrl }),
    // A hand-written handler wins; it is typed from the same contract.
    getOrder: async (input) => ({ id: \`own-\${input.id}\` }),
  };
}

// The contract's output has \`id\` as a string: a handler that answers a number does not compile.
// @ts-expect-error
export const wrongOutput: Handlers["getOrder"] = async () => ({ id: 1 });
`;

let dir: string;
let project: GeneratedProject;
let api: LoopbackApi;

beforeAll(async () => {
  dir = scratchProject("handlers", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
  const imported = await importSpec(SPEC, CURATION, {}, dir);
  expect(imported.result.problems).toEqual([]);
  project = await generateAndLoad(dir);
  api = await startLoopbackApi();
});

afterAll(async () => {
  await api?.close();
});

describe("the generated handlers", () => {
  it("the contract's timeoutMs aborts the handler's request, so the retry policy can run its next attempt", async () => {
    api.requests.length = 0;
    const handlers = project.createOpenApiHandlers({ baseUrl: api.url });
    const result = await project.execute("getReport", { id: "hang" }, handlers);
    // Had the first request gone on, the executor would not start a second beside it and would say it was still running.
    expect(result).toMatchObject({ ok: false, code: "RETRYABLE", message: `The tool timed out after ${TIMEOUT_MS} ms.`, attempts: 2 });
    await api.abandoned(2);
    expect(api.requests.map((r) => [r.url, r.abandoned])).toEqual([["/reports/hang", true], ["/reports/hang", true]]);
  });

  it("a project replaces one with its own: it type-checks under every strict flag with TypeScript 7.0", () => {
    writeFileSync(join(dir, "user-handlers.ts"), USER_HANDLERS);
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023"], types: ["node"], noEmit: true, skipLibCheck: true, ...STRICTEST };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["user-handlers.ts"] }, null, 2));
    const { bin, args } = TYPESCRIPTS.find((ts) => ts.version === "7.0")!;
    const run = spawnSync(process.execPath, [bin, ...args, "-p", dir], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("and the replacement runs, without a request, while the other tools still call the API", async () => {
    writeFileSync(join(dir, "user-handlers.ts"), USER_HANDLERS);
    const { userHandlers } = (await import(pathToFileURL(join(dir, "user-handlers.ts")).href)) as { userHandlers(baseUrl: string): Record<string, Handler> };
    api.requests.length = 0;
    expect(await project.execute("getOrder", { id: "7" }, userHandlers(api.url))).toEqual({ ok: true, data: { id: "own-7" } });
    expect(api.requests).toEqual([]);
    api.answer(200, ["o-1", "o-2"]);
    expect(await project.execute("listOrders", {}, userHandlers(api.url))).toEqual({ ok: true, data: ["o-1", "o-2"] });
    expect(api.requests.map((r) => r.url)).toEqual(["/orders"]);
  });
});
