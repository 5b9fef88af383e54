/**
 * Published API descriptions nobody here wrote, as a new user would import
 * them (issue #38; real-world-specs.ts lists them, test/corpus/README.md says
 * where each comes from). The integration project's global setup imports
 * each with no curation file and compiles it with `toolc generate`, and its
 * shared tsc programs check every project under every strict flag with
 * TypeScript 5.9, 6.0 and 7.0. Here: the figures docs/import.md reports,
 * those checks, and a sample of operations per API called through the
 * generated MCP server against Prism mocking the same description (valid
 * input, invalid input, a 4xx and a 5xx).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../../typecheck/fixtures.js";
import { readFileSync } from "node:fs";
import { importSpec, type Obj } from "./helpers.js";
import { startPrism, startProxy, type Prism, type Proxy } from "./mock.js";
import { startLoopbackApi } from "./project.js";
import { CORPUS, REAL_WORLD } from "./real-world-specs.js";

const built = (name: string) => {
  const spec = typecheckFixture("openapi").realWorld.find((s) => s.name === name);
  if (spec === undefined) throw new Error(`the global setup built no ${name}`);
  return spec;
};

describe.each(REAL_WORLD)("$name", (spec) => {
  it("imports without an error, with the operations, tools and warnings docs/import.md reports, and compiles with toolc generate", () => {
    const imported = built(spec.name);
    expect(imported.errors).toEqual([]);
    expect({ operations: imported.operations, tools: imported.tools, skipped: imported.skipped }).toEqual({
      operations: spec.operations,
      tools: spec.tools,
      skipped: spec.operations - spec.tools,
    });
    expect(imported.warningKinds).toEqual(spec.warnings);
    expect(imported.generate.stderr.split("\n").filter((l) => / error /.test(l))).toEqual([]);
    expect(imported.generate.code).toBe(0);
  });

  it.each(TYPESCRIPTS)("type-checks under every strict flag with TypeScript $version: the output folder, the handlers and their runtime", ({ version }) => {
    if (spec.tools === 0) return;
    expect(tscOutput("consumer", version, `openapi/${spec.name}`)).toBe("");
  });
});

/** One sampled operation per API: arguments that are valid, arguments that are not, and the statuses asked of Prism. */
interface Sample {
  readonly api: string;
  readonly file: string;
  readonly tool: string;
  readonly valid: Record<string, unknown>;
  readonly invalid: Record<string, unknown>;
  /** The argument INVALID_INPUT names. */
  readonly invalidPath: string;
  /** The variables the handlers read (credentials Prism checks are present). */
  readonly env: Record<string, string>;
  /** A 4xx, and the REJECTED reason the agent gets. */
  readonly rejected: { readonly status: number; readonly reason: string };
  /** The error statuses the operation declares: Prism is asked for those (`Prefer: code=`); another is the proxy's, after Prism has checked the request. */
  readonly declares: readonly number[];
}

const TWILIO_ENV = { TWILIO_ACCOUNT_SID_AUTH_TOKEN_USERNAME: "AC00000000000000000000000000000000", TWILIO_ACCOUNT_SID_AUTH_TOKEN_PASSWORD: "twilio-secret" };
// ShipEngine is imported, generated and type-checked above but not called: Prism answers its get_carrier_by_id 500 (its
// own example does not match its schema), and toolc finds Prism's get_warehouse_by_id answer INVALID_OUTPUT: its
// `address` schema has `additionalProperties: false` beside `allOf: [partial_address]` and no properties of its own,
// which in JSON Schema refuses every property (the author means `unevaluatedProperties: false`); the import keeps it.
const SAMPLES: readonly Sample[] = [
  {
    api: "notion",
    file: "notion/notion-openapi.json",
    tool: "get-user",
    valid: { user_id: "d40e767c-d7af-4b18-a86d-55c61f1e39a4" },
    invalid: { user_id: 42 },
    invalidPath: "user_id",
    env: {},
    rejected: { status: 400, reason: "BAD_REQUEST" },
    declares: [400],
  },
  {
    api: "twilio",
    file: "twilio/twilio_api_v2010.json",
    tool: "FetchAccount",
    valid: { Sid: "AC0123456789abcdef0123456789abcdef" },
    invalid: { Sid: "not-an-account-sid" },
    invalidPath: "Sid",
    env: TWILIO_ENV,
    rejected: { status: 404, reason: "NOT_FOUND" },
    declares: [],
  },
  {
    api: "twilio-verify",
    file: "twilio/twilio_verify_v2.json",
    tool: "FetchService",
    valid: { Sid: "VA0123456789abcdef0123456789abcdef" },
    invalid: {},
    invalidPath: "Sid",
    env: TWILIO_ENV,
    rejected: { status: 404, reason: "NOT_FOUND" },
    declares: [],
  },
  {
    api: "rclone",
    file: "rclone/openapi.yaml",
    tool: "coreVersion",
    valid: {},
    invalid: { async: "yes" },
    invalidPath: "async",
    env: {},
    rejected: { status: 400, reason: "HTTP_4XX" },
    declares: [],
  },
  {
    api: "readme-callbacks",
    file: "readme/callbacks.json",
    tool: "post_streams",
    valid: { callbackUrl: "https://example.com/hook" },
    invalid: {},
    invalidPath: "callbackUrl",
    env: {},
    rejected: { status: 409, reason: "CONFLICT" },
    declares: [],
  },
];

type CallResult = { isError?: boolean; structuredContent?: unknown; content: { type: string; text?: string }[] };
interface Failure {
  readonly code: string;
  readonly reason?: string;
  readonly message: string;
  readonly attempts?: number;
  readonly issues?: { path: string }[];
}

const failure = (result: CallResult): Failure => JSON.parse(result.content[0]!.text!) as Failure;

describe.each(SAMPLES)("$api: $tool called through the generated server, against Prism", (sample) => {
  let prism: Prism;
  let proxy: Proxy;
  let client: Client;
  let call: (args: Record<string, unknown>) => Promise<CallResult>;

  beforeAll(async () => {
    const dir = built(sample.api).dir;
    prism = await startPrism(join(CORPUS, sample.file));
    proxy = await startProxy(prism.url);
    const { createServer } = (await import(pathToFileURL(join(dir, "generated/index.ts")).href)) as { createServer(handlers: unknown): { connect(t: unknown): Promise<void> } };
    const { createOpenApiHandlers } = (await import(pathToFileURL(join(dir, "openapi-handlers.ts")).href)) as { createOpenApiHandlers(o: object): unknown };
    const server = createServer(createOpenApiHandlers({ baseUrl: proxy.url, env: sample.env }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: "real-world", version: "1.0.0" });
    await client.connect(clientSide);
    call = async (args) => (await client.callTool({ name: sample.tool, arguments: args })) as CallResult;
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await proxy?.stop();
    await prism?.stop();
  });

  it("valid input: the request matches the description (Prism answers 2xx) and the answer is structured output", async () => {
    proxy.requests.length = 0;
    const result = await call(sample.valid);
    expect({ isError: result.isError ?? false, log: result.isError ? result.content[0]?.text : undefined }).toEqual({ isError: false, log: undefined });
    expect(proxy.requests.map((r) => r.status)).toEqual([expect.toSatisfy((s: number) => s >= 200 && s < 300)]);
    expect(result.structuredContent).toBeTypeOf("object");
  });

  it("invalid input: INVALID_INPUT at the argument, and nothing reaches the API", async () => {
    proxy.requests.length = 0;
    const result = await call(sample.invalid);
    expect(failure(result)).toMatchObject({ code: "INVALID_INPUT", issues: expect.arrayContaining([expect.objectContaining({ path: sample.invalidPath })]) });
    expect(proxy.requests).toEqual([]);
  });

  /** The next request gets `status`: Prism's own answer when the operation declares it, else the proxy's, with a message of the API's. */
  function answerWith(status: number, message: string): void {
    if (sample.declares.includes(status)) proxy.steer({ prefer: `code=${status}` });
    else proxy.steer({ replaceStatus: status, body: { message } });
  }

  it(`a ${sample.rejected.status} is REJECTED ${sample.rejected.reason} with the status and the API's message, sent once`, async () => {
    proxy.requests.length = 0;
    answerWith(sample.rejected.status, "The requested resource was not found");
    const result = await call(sample.valid);
    expect(failure(result)).toMatchObject({ code: "REJECTED", reason: sample.rejected.reason, message: expect.stringContaining(`answered ${sample.rejected.status}`) });
    if (!sample.declares.includes(sample.rejected.status)) expect(failure(result).message).toMatch(/: The requested resource was not found$/);
    expect(proxy.requests.map((r) => r.status)).toEqual([sample.rejected.status]);
  });

  it("a 500 is FAILED, sent once (a retry is only for a transient answer), and the request was one Prism accepts", async () => {
    proxy.requests.length = 0;
    answerWith(500, "Internal error");
    const result = await call(sample.valid);
    expect(failure(result)).toMatchObject({ code: "FAILED" });
    expect(proxy.requests.map((r) => r.status)).toEqual([500]);
    if (!sample.declares.includes(500)) expect(proxy.requests[0]!.upstream).toBeLessThan(300);
  });
});

/** The required properties of each operation's request body, as Notion's description (and its own MCP server) has them. */
function bodyRequired(spec: Obj): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of Object.values(spec.paths as Record<string, Record<string, Obj>>)) {
    for (const op of Object.values(item)) {
      const schema = ((op.requestBody as Obj | undefined)?.content as Record<string, Obj> | undefined)?.["application/json"]?.schema as Obj | undefined;
      if (Array.isArray(schema?.required) && typeof op.operationId === "string") out.set(op.operationId, schema.required as string[]);
    }
  }
  return out;
}

describe("Notion, imported with no curation file", () => {
  it("meets the done-when: required fields required, no write retried without a key, every 2xx structured, the unused scheme said", { timeout: 600_000 }, async () => {
    const spec = JSON.parse(readFileSync(join(CORPUS, "notion/notion-openapi.json"), "utf8")) as Obj;
    const { contracts, result, messages } = await importSpec(join(CORPUS, "notion/notion-openapi.json"));
    const required = bodyRequired(spec);
    expect([...required.keys()].sort()).toEqual(["create-a-comment", "create-a-data-source", "move-page", "patch-block-children", "post-page", "update-page-markdown"]);
    for (const [operation, fields] of required) {
      const input = contracts[operation]!.input as { required?: string[]; properties: Obj };
      const where = Object.hasOwn(input.properties, "body") ? ["body"] : fields;
      expect({ operation, required: where.filter((f) => input.required?.includes(f)) }).toEqual({ operation, required: where });
    }
    for (const tool of result.tools) {
      const contract = contracts[tool.name]!;
      // A write is retried only when repeating it cannot apply it twice.
      if (contract.effect !== "read" && contract.retry !== undefined)
        expect({ tool: tool.name, safe: contract.idempotent === true || typeof contract.idempotencyKey === "string" }).toEqual({ tool: tool.name, safe: true });
      expect({ tool: tool.name, success: tool.binding.success, content: contract.content }).toEqual({ tool: tool.name, success: { kind: "json" }, content: undefined });
    }
    expect(["patch-block-children", "post-page", "create-a-comment", "move-page", "update-page-markdown"].map((t) => contracts[t]!.retry)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(messages).toContainEqual(expect.stringMatching(/securitySchemes\/basicAuth: no operation applies security scheme "basicAuth"/));
  });
});

describe("Notion's generated handlers, against an API on loopback", () => {
  const PAGE = "59833787-2cf9-4fdf-8782-e53db20768a5";
  type Handler = (input: object, ctx: object) => Promise<unknown>;
  let modules: { execute(tool: string, input: unknown, handlers: unknown): Promise<unknown>; createOpenApiHandlers(o: object): Record<string, Handler> };

  beforeAll(async () => {
    const dir = built("notion").dir;
    const index = (await import(pathToFileURL(join(dir, "generated/index.ts")).href)) as Pick<typeof modules, "execute">;
    const handlers = (await import(pathToFileURL(join(dir, "openapi-handlers.ts")).href)) as Pick<typeof modules, "createOpenApiHandlers">;
    modules = { execute: index.execute, createOpenApiHandlers: handlers.createOpenApiHandlers };
  });

  it("a wrong id gives the agent Notion's own message, REJECTED NOT_FOUND, though the description declares only 400", async () => {
    const api = await startLoopbackApi();
    try {
      const message = `Could not find page with ID: ${PAGE}. Make sure the relevant pages and databases are shared with your integration.`;
      api.queue({ status: 404, body: { object: "error", status: 404, code: "object_not_found", message } });
      const result = await modules.execute("retrieve-a-page", { page_id: PAGE }, modules.createOpenApiHandlers({ baseUrl: api.url }));
      expect(result).toMatchObject({ ok: false, code: "REJECTED", reason: "NOT_FOUND", message: `Notion API answered 404: ${message}` });
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it("every one of the 24 handlers returns a 2xx JSON answer as structured data, never a content block", async () => {
    const api = await startLoopbackApi();
    try {
      const answer = { object: "page", id: PAGE, properties: { title: { type: "title" } } };
      api.answer(200, answer);
      const handlers = modules.createOpenApiHandlers({ baseUrl: api.url });
      const attached: unknown[] = [];
      const ctx = { signal: new AbortController().signal, attach: (b: unknown) => attached.push(b), reject: (reason: string) => { throw new Error(reason); } };
      const outputs: Record<string, unknown> = {};
      for (const [tool, handler] of Object.entries(handlers)) outputs[tool] = await handler({}, ctx);
      expect(Object.keys(outputs)).toHaveLength(24);
      expect(Object.entries(outputs).filter(([, out]) => JSON.stringify(out) !== JSON.stringify(answer))).toEqual([]);
      expect(attached).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
