/**
 * Outputs whose schema root is not an object (MCP 2026-07-28, SEP-2106), end
 * to end: test/fixtures/outputs (an array, a string and a union output)
 * generated for each SDK line into a consumer-like project, its generated
 * contract tests run by vitest, and its generated server driven by 2025-era
 * clients of the same line (in memory, over stdio, over Streamable HTTP), by
 * the same raw requests to both lines (whose answers must be the same bytes),
 * and, on SDK 2.x, by a 2026-07-28 client through the SDK's `createMcpHandler`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { legacyOutputSchema } from "../../generator/runtime/legacy-output.js";
import { expectedTestCount, generate, linkAllModules, runVitest } from "../contract-tests/project.js";
import { ROOT } from "../compiler/helpers.js";
import { clientKits, type LineClient, type RawResult } from "./sdk-lines/clients.js";
import type { SdkLine } from "./sdk-lines/generate.js";
import { AMBIGUOUS, LEAKED, LEAKY_TEAM, OVERLONG, outputHandlers, USERS } from "./sdk-lines/handlers.js";
import { LogBuffer, spawnHttp, type HttpProcess } from "./helpers.js";

const FIXTURE = join(ROOT, "test/fixtures/outputs");
const lineServer = fileURLToPath(new URL("./sdk-lines/server.ts", import.meta.url));
const LINES: SdkLine[] = [1, 2];

type Schema = Record<string, unknown>;
interface Api {
  contracts: Record<string, { name: string; outputSchema: Schema }>;
  createServer(handlers: unknown): { connect(transport: never): Promise<void>; close(): Promise<void> };
  createClient(client: unknown): Record<string, (input: unknown) => Promise<unknown>>;
  TransientError: new (message: string) => Error;
}

/** Each call the tests make, and the value the fixture's handler returns for it. */
const CALLS: readonly { tool: string; input: Record<string, unknown>; value: unknown }[] = [
  { tool: "list_users", input: { team: "core" }, value: USERS },
  { tool: "list_users", input: { team: "empty" }, value: [] },
  { tool: "summarize", input: { text: "toolc compiles contracts. It serves them." }, value: "toolc compiles contracts." },
  { tool: "find_user", input: { email: USERS[0].email }, value: USERS[0] },
  { tool: "find_user", input: { email: AMBIGUOUS }, value: ["usr_1", "usr_3"] },
  { tool: "find_user", input: { email: "nobody@example.com" }, value: null },
];

const projects = new Map<SdkLine, string>();

/** A consumer project on `line`: the fixture's definitions, vitest, toolc's node_modules. */
async function project(line: SdkLine): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `toolc-outputs-${line}-`));
  cpSync(FIXTURE, join(dir, "definitions"), { recursive: true });
  const sdk = line === 1 ? { "@modelcontextprotocol/sdk": "*" } : { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/client": "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `outputs-${line}`, private: true, type: "module", dependencies: sdk, devDependencies: { vitest: "*" } }));
  linkAllModules(dir);
  await generate(dir);
  return dir;
}

beforeAll(async () => {
  for (const line of LINES) projects.set(line, await project(line));
}, 180_000);
afterAll(() => {
  for (const dir of projects.values()) rmSync(dir, { recursive: true, force: true });
});

const load = async (line: SdkLine): Promise<Api> => (await import(pathToFileURL(join(projects.get(line)!, "generated/index.ts")).href)) as Api;
const serverEnv = (line: SdkLine, extra: Record<string, string> = {}): Record<string, string> => ({
  TOOLC_E2E_OUT: join(projects.get(line)!, "generated"),
  TOOLC_E2E_SDK: String(line),
  TOOLC_E2E_HANDLERS: "outputs",
  ...extra,
});

interface Session {
  client: LineClient;
  close(): Promise<void>;
}

async function inMemory(line: SdkLine): Promise<Session> {
  const api = await load(line);
  const server = api.createServer(outputHandlers(api, () => {}));
  const client = await clientKits[line].inMemory(server);
  return { client, close: async () => { await client.close(); await server.close(); } };
}

async function stdio(line: SdkLine): Promise<Session> {
  const log = new LogBuffer();
  const client = await clientKits[line].stdio({ script: lineServer, cwd: ROOT, env: serverEnv(line), onStderr: (s) => log.attach(s) });
  return { client, close: () => client.close() };
}

async function http(line: SdkLine): Promise<Session> {
  const server = await spawnHttp(lineServer, ["--http"], serverEnv(line));
  try {
    const client = await clientKits[line].http(server.url);
    return { client, close: async () => { await client.close(); await server.stop(); } };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

function fixtureTools() {
  return normalize(loadDefinitions(FIXTURE, { displayRoot: ROOT })).ir.tools;
}

/** The JSON-RPC messages of a response body, JSON or an event stream. */
function messagesOf(body: string): Record<string, unknown>[] {
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) return [JSON.parse(trimmed) as Record<string, unknown>];
  return trimmed.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

describe.each(LINES)("SDK %s line", (line) => {
  it("the generated contract tests pass, the bad outputs of non-object roots included", async () => {
    const result = await runVitest(projects.get(line)!);
    expect(result.failed, result.output).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.total).toBe(expectedTestCount(fixtureTools(), false));
    expect(result.passed).toBe(result.total);
  }, 120_000);

  describe.each([["in memory", inMemory], ["stdio (spawned)", stdio], ["Streamable HTTP (spawned)", http]] as const)("over %s, with a 2025-era client of the same line", (_name, start) => {
    let s: Session;
    let api: Api;
    beforeAll(async () => {
      api = await load(line);
      s = await start(line);
    }, 60_000);
    afterAll(async () => s?.close());

    it("lists each output schema wrapped as { result }, with its $refs moved under it", async () => {
      const tools = await s.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["find_user", "list_users", "summarize"]);
      for (const tool of tools) expect(tool.outputSchema, tool.name).toStrictEqual(legacyOutputSchema(api.contracts[tool.name]!.outputSchema));
      const served = new Map(tools.map((t) => [t.name, t.outputSchema as Schema]));
      expect(served.get("summarize")).toStrictEqual({ type: "object", properties: { result: { type: "string", minLength: 1, maxLength: 280, description: "The summary." } }, required: ["result"] });
      expect(served.get("list_users")).toMatchObject({ type: "object", properties: { result: { type: "array", items: { $ref: "#/properties/result/$defs/User" } } }, required: ["result"] });
    });

    it.each(CALLS)("sends $tool's value as { result }, and the value's own JSON as text: $input", async ({ tool, input, value }) => {
      const result = await s.client.call(tool, input);
      expect(result.isError).not.toBe(true);
      // As JSON: in memory the objects are the server's own copies, which have no prototype.
      expect(JSON.stringify(result.structuredContent)).toBe(JSON.stringify({ result: value }));
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify(value) }]);
    });

    it("the typed client returns each value itself", async () => {
      const typed = api.createClient(s.client.sdkClient);
      for (const { tool, input, value } of CALLS) expect(await typed[tool]!(input), tool).toEqual({ ok: true, data: value });
    });

    it("the SDK client's own listTools and callTool, which check structuredContent against the listed schema, accept the wrapped pair", async () => {
      const sdk = s.client.sdkClient as { listTools(): Promise<unknown>; callTool(params: { name: string; arguments: unknown }): Promise<{ structuredContent?: unknown }> };
      await sdk.listTools();
      for (const { tool, input, value } of CALLS) expect(JSON.stringify((await sdk.callTool({ name: tool, arguments: input })).structuredContent)).toBe(JSON.stringify({ result: value }));
    });

    it("fails a value that breaks the schema, and sends none of it", async () => {
      for (const [tool, input] of [["list_users", { team: LEAKY_TEAM }], ["summarize", { text: OVERLONG }]] as const) {
        const result: RawResult = await s.client.call(tool, input);
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(JSON.parse(result.content[0]?.text ?? "null")).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false });
        expect(JSON.stringify(result)).not.toContain(LEAKED);
        expect(JSON.stringify(result)).not.toContain("x".repeat(281));
      }
    });
  });
});

describe("the same raw 2025-era requests to both lines' HTTP servers", () => {
  const servers = new Map<SdkLine, HttpProcess>();
  beforeAll(async () => {
    for (const line of LINES) servers.set(line, await spawnHttp(lineServer, ["--http"], serverEnv(line, { TOOLC_E2E_LOG_LEVEL: "off" })));
  }, 60_000);
  afterAll(async () => {
    for (const server of servers.values()) await server.stop();
  });

  /** The result of one raw POST, as the bytes of its JSON (JSON.parse keeps the wire's key order). */
  async function answer(line: SdkLine, body: unknown): Promise<string> {
    const response = await fetch(servers.get(line)!.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify(body),
    });
    const [message] = messagesOf(await response.text());
    return JSON.stringify(message?.["result"]);
  }

  const requests = [
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    ...CALLS.map(({ tool, input }, i) => ({ jsonrpc: "2.0", id: i + 2, method: "tools/call", params: { name: tool, arguments: input } })),
    { jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "summarize", arguments: { text: OVERLONG } } },
  ];

  it.each(requests)("get the same bytes back from SDK 1.x and SDK 2.x: $method $params", async (request) => {
    const [one, two] = [await answer(1, request), await answer(2, request)];
    expect(one).not.toBe(undefined);
    expect(one).toBe(two);
  });

  it("which are the wrapped form, on SDK 1.x as on SDK 2.x", async () => {
    const summarize = requests[3]!;
    expect(await answer(1, summarize)).toBe('{"content":[{"type":"text","text":"\\"toolc compiles contracts.\\""}],"structuredContent":{"result":"toolc compiles contracts."}}');
    const list = JSON.parse(await answer(1, requests[0])) as { tools: { name: string; outputSchema: Schema }[] };
    const api = await load(1);
    expect(JSON.stringify(list.tools.map((t) => t.outputSchema))).toBe(JSON.stringify(list.tools.map((t) => legacyOutputSchema(api.contracts[t.name]!.outputSchema))));
  });
});

describe("SDK 2 line, through createMcpHandler", () => {
  let api: Api;
  let handler: ReturnType<typeof createMcpHandler>;
  /** Every response body the client read, by the request's method. */
  const bodies: { method: string; body: Promise<string> }[] = [];

  async function connect(mode: "legacy" | { pin: "2026-07-28" }): Promise<Client> {
    const client = new Client({ name: "toolc-output-roots", version: "1.0.0" }, { versionNegotiation: { mode } });
    const transport = new StreamableHTTPClientTransport(new URL("http://test.local/mcp"), {
      fetch: async (url, init) => {
        const response = await handler.fetch(new Request(url, init));
        const method = typeof init?.body === "string" ? String((JSON.parse(init.body) as { method?: unknown }).method) : "";
        bodies.push({ method, body: response.clone().text() });
        return response;
      },
    });
    await client.connect(transport);
    return client;
  }

  /** The wire result of the last `method` request. */
  async function lastWireResult(method: string): Promise<Record<string, unknown>> {
    const last = bodies.filter((b) => b.method === method).at(-1);
    const message = messagesOf(await last!.body).find((m) => "result" in m);
    return message!["result"] as Record<string, unknown>;
  }

  beforeAll(async () => {
    api = await load(2);
    handler = createMcpHandler(() => api.createServer(outputHandlers(api, () => {})) as never);
  });
  afterAll(async () => handler?.close());

  describe("with a 2026-07-28 client", () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect({ pin: "2026-07-28" });
    });
    afterAll(async () => client?.close());

    it("negotiates 2026-07-28", () => {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    });

    it("lists each output schema as compiled, byte for byte", async () => {
      const { tools } = await client.request({ method: "tools/list", params: {} });
      for (const tool of tools) expect(tool.outputSchema, tool.name).toStrictEqual(api.contracts[tool.name]!.outputSchema);
      const wire = JSON.stringify(await lastWireResult("tools/list"));
      for (const contract of Object.values(api.contracts)) expect(wire).toContain(`"outputSchema":${JSON.stringify(contract.outputSchema)}`);
    });

    it.each(CALLS)("sends $tool's value itself as structuredContent, and its JSON as text: $input", async ({ tool, input, value }) => {
      const result = (await client.request({ method: "tools/call", params: { name: tool, arguments: input } })) as RawResult;
      expect(result.structuredContent).toStrictEqual(value);
      const wire = await lastWireResult("tools/call");
      expect(wire["structuredContent"]).toStrictEqual(value);
      expect(wire["content"]).toEqual([{ type: "text", text: JSON.stringify(value) }]);
    });

    it("the typed client returns each value itself", async () => {
      const typed = api.createClient(client);
      for (const { tool, input, value } of CALLS) expect(await typed[tool]!(input), tool).toEqual({ ok: true, data: value });
    });

    it("the SDK client's own callTool, which checks structuredContent against the listed schema, accepts the values", async () => {
      await client.listTools();
      for (const { tool, input, value } of CALLS) expect((await client.callTool({ name: tool, arguments: input })).structuredContent).toStrictEqual(value);
    });

    it("fails a value that breaks the schema, and sends none of it", async () => {
      const typed = api.createClient(client);
      expect(await typed["list_users"]!({ team: LEAKY_TEAM })).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false });
      const wire = await lastWireResult("tools/call");
      expect(wire["isError"]).toBe(true);
      expect(wire).not.toHaveProperty("structuredContent");
      expect(JSON.stringify(wire)).not.toContain(LEAKED);
    });
  });

  describe("with a 2025-era client on the same endpoint", () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect("legacy");
    });
    afterAll(async () => client?.close());

    it("lists the wrapped schemas and sends the wrapped values, which the typed client unwraps", async () => {
      expect(client.getProtocolEra()).toBe("legacy");
      const { tools } = await client.request({ method: "tools/list", params: {} });
      for (const tool of tools) expect(tool.outputSchema, tool.name).toStrictEqual(legacyOutputSchema(api.contracts[tool.name]!.outputSchema));
      const typed = api.createClient(client);
      for (const { tool, input, value } of CALLS) {
        expect(await typed[tool]!(input), tool).toEqual({ ok: true, data: value });
        expect((await lastWireResult("tools/call"))["structuredContent"]).toStrictEqual({ result: value });
      }
    });
  });
});

describe("the provider exports, for outputs that are not objects", () => {
  type Run = (call: unknown, handlers: unknown) => Promise<Record<string, unknown>>;
  interface Providers {
    openai: { run: Run };
    anthropic: { run: Run };
    gemini: { run: Run };
    aiSdk: { tools(handlers: unknown): Record<string, { execute(input: unknown, options: object): Promise<unknown> }> };
  }
  let providers: Providers;
  let handlers: unknown;
  beforeAll(async () => {
    providers = (await import(pathToFileURL(join(projects.get(1)!, "generated/providers.ts")).href)) as Providers;
    handlers = outputHandlers(await load(1), () => {});
  });

  it.each(CALLS)("answer $tool with the value itself: $input", async ({ tool, input, value }) => {
    const args = JSON.stringify(input);
    expect(await providers.openai.run({ id: "call_1", type: "function", function: { name: tool, arguments: args } }, handlers)).toEqual({ role: "tool", tool_call_id: "call_1", content: JSON.stringify(value) });
    expect(await providers.openai.run({ type: "function_call", call_id: "call_2", name: tool, arguments: args }, handlers)).toEqual({ type: "function_call_output", call_id: "call_2", output: JSON.stringify(value) });
    expect(await providers.anthropic.run({ id: "toolu_1", name: tool, input }, handlers)).toEqual({ type: "tool_result", tool_use_id: "toolu_1", content: JSON.stringify(value) });
    expect(await providers.gemini.run({ id: "g1", name: tool, args: input }, handlers)).toEqual({ id: "g1", name: tool, response: { output: value } });
    expect(await providers.aiSdk.tools(handlers)[tool]!.execute(input, {})).toEqual(value);
  });

  it("answer a value that breaks the schema with the INVALID_OUTPUT envelope", async () => {
    const input = { team: LEAKY_TEAM };
    const anthropicReply = await providers.anthropic.run({ id: "toolu_2", name: "list_users", input }, handlers);
    expect(anthropicReply["is_error"]).toBe(true);
    expect(JSON.parse(String(anthropicReply["content"]))).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(await providers.gemini.run({ name: "list_users", args: input }, handlers)).toMatchObject({ response: { error: { code: "INVALID_OUTPUT" } } });
    expect(await providers.aiSdk.tools(handlers)["list_users"]!.execute(input, {})).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(JSON.stringify(anthropicReply)).not.toContain(LEAKED);
  });
});

describe("the generated tests can fail", () => {
  it("when the SDK 1.x server stops wrapping, or the executor stops checking outputs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-outputs-mutant-"));
    try {
      for (const entry of ["definitions", "generated", "test", "package.json"]) cpSync(join(projects.get(1)!, entry), join(dir, entry), { recursive: true });
      linkAllModules(dir);
      const mutate = (file: string, from: string, to: string): void => {
        const path = join(dir, "generated/runtime", file);
        const text = readFileSync(path, "utf8");
        expect(text, file).toContain(from);
        writeFileSync(path, text.replace(from, to));
      };
      mutate("sdk.ts", "outputSchema: legacyOutputSchema(tool.outputSchema)", "outputSchema: tool.outputSchema");
      mutate("attempt.ts", "if (!validateOutput(plain.value))", "if (!validateOutput(plain.value) && typeof plain.value === \"object\" && !Array.isArray(plain.value))");
      const result = await runVitest(dir);
      const failed = new Set(result.failed);
      for (const tool of ["find_user", "list_users", "summarize"]) expect(failed, tool).toContain(`${tool} contract tools/list serves exactly the compiled schemas, annotations and _meta over MCP`);
      for (const tool of ["find_user", "list_users", "summarize"]) expect(failed, tool).toContain(`${tool} contract handler output that breaks the output schema (root): wrong type (number): gives INVALID_OUTPUT, and the output never reaches the caller`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
