/**
 * Content blocks, `$schema`, `icons` and `title` end to end, on both MCP SDK
 * lines: test/fixtures/content generated for each line into a consumer-like
 * project, its generated contract tests run by vitest, and its generated
 * server driven by a real client of the same line, in memory and over
 * Streamable HTTP.
 */
import { createServer as createNodeServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { expectedTestCount, generate, linkAllModules, runVitest } from "../contract-tests/project.js";
import { ROOT } from "../compiler/helpers.js";
import { clientKits, type LineClient } from "./sdk-lines/clients.js";
import type { SdkLine } from "./sdk-lines/generate.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const IMAGE = { type: "image", data: PNG, mimeType: "image/png" };
const LINK = { type: "resource_link", uri: "file:///charts/latency.png", name: "latency.png", mimeType: "image/png" };
const MIXED = [
  { type: "text", text: "Multiple content types test:" },
  IMAGE,
  { type: "audio", data: WAV, mimeType: "audio/wav" },
  { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' } },
];
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

interface Ctx {
  attach(block: unknown): void;
}
interface Api {
  createServer(handlers: unknown): { connect(transport: never): Promise<void>; close(): Promise<void> };
  createClient(client: unknown): Record<string, (input: unknown) => Promise<unknown>>;
  contracts: Record<string, { icons?: unknown; title?: string }>;
}
interface HttpApi {
  createHttpHandler(handlers: unknown): RequestListener;
}

/** render_chart declares image and resource_link; read_note declares nothing, so any kind goes. */
const handlers = {
  render_chart: (_input: unknown, ctx: Ctx) => {
    ctx.attach(IMAGE);
    ctx.attach(LINK);
    return { points: 12 };
  },
  read_note: (input: { id: string }, ctx: Ctx) => {
    if (input.id === "mixed") for (const block of MIXED) ctx.attach(block);
    if (input.id === "undeclared-field") ctx.attach({ ...IMAGE, internal: "x" });
    if (input.id === "bad-base64") ctx.attach({ type: "image", data: "%%%", mimeType: "image/png" });
    return {};
  },
};

const projects = new Map<SdkLine, string>();

function fixtureTools() {
  return normalize(loadDefinitions(join(ROOT, "test/fixtures/content"), { displayRoot: ROOT })).ir.tools;
}

/** A consumer project on `line`: the fixture's definitions, vitest, toolc's node_modules. */
async function project(line: SdkLine): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `toolc-content-${line}-`));
  cpSync(join(ROOT, "test/fixtures/content"), join(dir, "definitions"), { recursive: true });
  const sdk = line === 1 ? { "@modelcontextprotocol/sdk": "*" } : { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/client": "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `content-${line}`, private: true, type: "module", dependencies: sdk, devDependencies: { vitest: "*" } }));
  linkAllModules(dir);
  await generate(dir);
  return dir;
}

const LINES: SdkLine[] = [1, 2];

beforeAll(async () => {
  for (const line of LINES) projects.set(line, await project(line));
}, 180_000);
afterAll(() => {
  for (const dir of projects.values()) rmSync(dir, { recursive: true, force: true });
});

async function load<T>(line: SdkLine, file: string): Promise<T> {
  return (await import(pathToFileURL(join(projects.get(line)!, "generated", file)).href)) as T;
}

async function inMemory(line: SdkLine): Promise<{ client: LineClient; close(): Promise<void> }> {
  const api = await load<Api>(line, "index.ts");
  const server = api.createServer(handlers);
  const client = await clientKits[line].inMemory(server);
  return { client, close: async () => { await client.close(); await server.close(); } };
}

async function overHttp(line: SdkLine): Promise<{ client: LineClient; close(): Promise<void> }> {
  const { createHttpHandler } = await load<HttpApi>(line, "http.ts");
  const http = createNodeServer(createHttpHandler(handlers));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const client = await clientKits[line].http(url);
  return {
    client,
    close: async () => {
      await client.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe.each(LINES)("SDK %s line", (line) => {
  it("the generated contract tests pass, content-kind cases included", async () => {
    const result = await runVitest(projects.get(line)!);
    expect(result.failed, result.output).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.passed).toBe(result.total);
    // render_chart declares image and resource_link: one test attaches both, three attach an undeclared kind each.
    expect(result.total).toBe(expectedTestCount(fixtureTools(), false));
    expect(expectedTestCount(fixtureTools(), false) - expectedTestCount(fixtureTools().map(({ content: _, ...tool }) => tool), false)).toBe(4);
  }, 120_000);

  it("the generated content-kind tests fail when the runtime stops checking kinds", async () => {
    const dir = mkdtempSync(join(tmpdir(), `toolc-content-mutant-${line}-`));
    try {
      for (const entry of ["definitions", "generated", "test", "package.json"]) cpSync(join(projects.get(line)!, entry), join(dir, entry), { recursive: true });
      linkAllModules(dir);
      const attempt = join(dir, "generated/runtime/attempt.ts");
      const text = readFileSync(attempt, "utf8");
      const from = "checkContent(attached, spec.contract.content)";
      expect(text).toContain(from);
      writeFileSync(attempt, text.replace(from, "checkContent(attached, undefined)"));
      const result = await runVitest(dir);
      expect(result.failed.sort()).toEqual(
        ["text", "audio", "resource"].map((kind) => `render_chart contract content kinds attaching a ${kind} block, a kind the contract does not declare, gives INVALID_OUTPUT and sends no block`).sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  describe.each([["in memory", inMemory], ["Streamable HTTP", overHttp]] as const)("over %s, with a client of the same line", (_name, start) => {
    let session: { client: LineClient; close(): Promise<void> };
    beforeAll(async () => {
      session = await start(line);
    }, 60_000);
    afterAll(async () => session?.close());

    it("serves $schema as written, with $defs and additionalProperties: false, and title and icons", async () => {
      const tools = await session.client.listTools();
      type Listed = Record<string, unknown> & { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> };
      const chart = tools.find((t) => t.name === "render_chart") as unknown as Listed;
      expect(chart.inputSchema["$schema"]).toBe(DIALECT);
      expect(chart.outputSchema["$schema"]).toBe(DIALECT);
      expect(Object.keys(chart.inputSchema["$defs"] as object)).toEqual(["size"]);
      expect(chart.inputSchema["additionalProperties"]).toBe(false);
      expect(chart["title"]).toBe("Render chart");
      expect(chart["icons"]).toEqual([
        { src: "https://example.com/icons/chart.svg", mimeType: "image/svg+xml", sizes: ["any"] },
        { src: "https://example.com/icons/chart-dark-48.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" },
      ]);
      const note = tools.find((t) => t.name === "read_note") as unknown as Listed;
      expect(note.inputSchema).not.toHaveProperty("$schema");
      expect(note).not.toHaveProperty("icons");
    });

    it("sends structuredContent and its text block, then the attached blocks", async () => {
      const result = await session.client.call("render_chart", { metric: "latency" });
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent).toEqual({ points: 12 });
      expect(result.content).toEqual([{ type: "text", text: '{"points":12}' }, IMAGE, LINK]);
    });

    it("sends every kind from a tool that declares none", async () => {
      const result = await session.client.call("read_note", { id: "mixed" });
      expect(result.content).toEqual([{ type: "text", text: "{}" }, ...MIXED]);
    });

    it("fails the call, and sends no block, when a block breaks its shape", async () => {
      for (const id of ["undeclared-field", "bad-base64"]) {
        const result = await session.client.call("read_note", { id });
        expect(result.isError).toBe(true);
        expect(result.content).toHaveLength(1);
        expect(JSON.parse(result.content[0]?.text ?? "null")).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false });
      }
    });

    it("the SDK client's own listTools and callTool, which check structuredContent against the served outputSchema, accept $schema and the blocks", async () => {
      const sdk = session.client.sdkClient as { listTools(): Promise<unknown>; callTool(params: { name: string; arguments: unknown }): Promise<{ content: unknown[]; structuredContent?: unknown }> };
      await sdk.listTools();
      const result = await sdk.callTool({ name: "render_chart", arguments: { metric: "latency" } });
      expect(result.structuredContent).toEqual({ points: 12 });
      expect(result.content).toEqual([{ type: "text", text: '{"points":12}' }, IMAGE, LINK]);
    });

    it("the typed client returns the blocks with the output", async () => {
      const api = await load<Api>(line, "index.ts");
      const tools = api.createClient(session.client.sdkClient);
      expect(await tools["render_chart"]!({ metric: "latency" })).toEqual({ ok: true, data: { points: 12 }, content: [IMAGE, LINK] });
      expect(await tools["read_note"]!({ id: "n1" })).toEqual({ ok: true, data: {} });
    });
  });
});
