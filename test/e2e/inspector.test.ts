/**
 * The MCP Inspector CLI (2.x, on Node.js 24), an independent client, against
 * the demo server over stdio (the Inspector spawns it) and over Streamable
 * HTTP (we spawn it), and against the SDK 2.x conformance fixture server in
 * each of the Inspector's protocol eras.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { contracts } from "../../generated/index.js";
import { inspectorCli, inspectorConfig } from "../helpers/inspector.js";
import { contracts as fixtureContracts } from "../mcp-conformance/generated/index.js";
import { COMMITTED_TREE, serveTree, type RunningServer } from "../mcp-conformance/server.js";
import { demoServer, envelopeOf, inspect, inspectorStdioTarget, root, spawnHttp, type HttpProcess } from "./helpers.js";

const toolCall = (name: string, ...args: string[]): string[] => ["--method", "tools/call", "--tool-name", name, ...args.flatMap((a) => ["--tool-arg", a])];

function checkListing(listing: Record<string, unknown>): void {
  const tools = listing.tools as Tool[];
  expect(tools.map((t) => t.name)).toEqual(Object.keys(contracts));
  for (const tool of tools) {
    const contract = contracts[tool.name as keyof typeof contracts];
    expect(tool).toMatchObject({ title: contract.title, description: contract.description });
    expect(tool.inputSchema).toEqual(contract.inputSchema);
    expect(tool.outputSchema).toEqual(contract.outputSchema);
    expect(tool.annotations).toEqual(contract.annotations);
  }
}

describe.each([
  ["stdio", async () => ({ target: inspectorStdioTarget, stop: async () => {} })],
  ["Streamable HTTP", async () => {
    const proc: HttpProcess = await spawnHttp(demoServer, ["--http", "--port", "0"]);
    return { target: [proc.url.href, "--transport", "http"], stop: () => proc.stop() };
  }],
] as const)("the Inspector CLI over %s", (_name, start) => {
  let target: readonly string[];
  let stop: () => Promise<void> = async () => {};
  beforeAll(async () => { ({ target, stop } = await start()); });
  afterAll(async () => { await stop(); });

  it("lists the four tools with their schemas and annotations", async () => {
    checkListing(await inspect([...target], ["--method", "tools/list"]));
  });

  it("calls a tool, and the Inspector accepts the structured output", async () => {
    const result = (await inspect([...target], toolCall("get_order", "customerId=cus_1", "includeHistory=true"))) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ found: true, customerId: "cus_1" });
  });

  // The Inspector JSON-parses each --tool-arg value, so customerId=42 really sends the number 42.
  it("gets the envelope back for a wrongly typed argument", async () => {
    const failure = envelopeOf((await inspect([...target], toolCall("get_order", "customerId=42"))) as CallToolResult);
    expect(failure).toMatchObject({ code: "INVALID_INPUT", retryable: false, attempts: 0, issues: [{ path: "customerId" }] });
  });

  it("gets the envelope back for an extra argument, at its own path", async () => {
    const failure = envelopeOf((await inspect([...target], toolCall("get_order", "customerId=cus_1", "includeDeleted=true"))) as CallToolResult);
    expect(failure).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "includeDeleted", message: "is not an allowed property" }] });
  });

  it("gets a rejection with its reason", async () => {
    const failure = envelopeOf((await inspect([...target], toolCall("get_order", "customerId=cus_blocked"))) as CallToolResult);
    expect(failure).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED", tool: "get_order", version: 1 });
  });
});

/**
 * The Inspector's protocol eras (its `protocolEra`): `legacy` initializes as
 * 2025-era clients do; `modern` speaks 2026-07-28 only, through
 * server/discover, with no fallback. The same endpoint serves both.
 */
describe.each([["legacy"], ["modern"]] as const)("the Inspector CLI in the %s era, against the SDK 2.x conformance fixture server over Streamable HTTP", (era) => {
  let server: RunningServer;
  let dir: string;
  let target: string[];
  beforeAll(async () => {
    server = await serveTree(COMMITTED_TREE, "toolc-conformance-sdk2");
    dir = mkdtempSync(join(tmpdir(), "toolc-inspector-"));
    target = inspectorConfig(dir, "fixtures", { url: server.url.href }, era);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the fixture tools with their schemas", async () => {
    const tools = (await inspectorCli([...target, "--method", "tools/list"], root)).tools as Tool[];
    expect(tools.map((t) => t.name)).toEqual(Object.keys(fixtureContracts));
    for (const tool of tools) expect(tool.inputSchema).toEqual(fixtureContracts[tool.name as keyof typeof fixtureContracts].inputSchema);
  });

  it("calls a tool, and gets a handler's failure as isError with the envelope", async () => {
    const text = (await inspectorCli([...target, ...toolCall("test_simple_text")], root)) as CallToolResult;
    expect(text.content).toContainEqual({ type: "text", text: "This is a simple text response for testing." });
    expect(envelopeOf((await inspectorCli([...target, ...toolCall("test_error_handling")], root)) as CallToolResult)).toMatchObject({ code: "FAILED", tool: "test_error_handling" });
  });

  // In the modern era the handler refuses (400, -32020) a call whose Mcp-Param-Region header is missing or differs
  // from `region`, so this result also shows that the Inspector mirrored the argument as the contract declares.
  it("calls a tool with an x-mcp-header input", async () => {
    const result = (await inspectorCli([...target, ...toolCall("test_mcp_param_header", "region=eu-west1")], root)) as CallToolResult;
    expect(result.structuredContent).toEqual({ region: "eu-west1" });
  });
});
