/**
 * The MCP Inspector CLI, an independent client, against the demo server over
 * stdio (the Inspector spawns it) and over Streamable HTTP (we spawn it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { contracts } from "../../generated/index.js";
import { demoServer, envelopeOf, inspect, inspectorStdioTarget, spawnHttp, type HttpProcess } from "./helpers.js";

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
