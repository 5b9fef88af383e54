/**
 * Calls a consumer project's built server the way an MCP host does: the
 * SDK's real `Client` over stdio, the server a child process on the
 * Node.js given.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { readlinkSync, realpathSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransport2 } from "@modelcontextprotocol/client/stdio";

/** Where the runtime puts the failure envelope of a failed call (FAILURE_META_KEY). */
const FAILURE_META_KEY = "toolc/failure";

interface Failure {
  code: string;
  issues?: { path: string }[];
}

interface CallResult {
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** The calls made here, which both SDK lines' clients offer alike. */
interface AnyClient {
  connect(transport: never): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * An SDK 1.x server speaks the 2025 revisions only; a 2.x one is called twice,
 * by a client that negotiates MCP 2026-07-28 (no initialize, per-request
 * envelope) and by one that opens with the 2025 initialize.
 */
export async function exerciseServer(cwd: string, serve: readonly string[], sdk: 1 | 2, node: string): Promise<void> {
  if (sdk === 1) return exerciseOnce(cwd, serve, 1, node, "legacy");
  await exerciseOnce(cwd, serve, 2, node, "modern");
  await exerciseOnce(cwd, serve, 2, node, "legacy");
}

async function exerciseOnce(cwd: string, serve: readonly string[], sdk: 1 | 2, node: string, era: "modern" | "legacy"): Promise<void> {
  const options = { command: node, args: [...serve], cwd, stderr: "pipe" as const };
  const transport = sdk === 1 ? new StdioClientTransport(options) : new StdioClientTransport2(options);
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const info = { name: "consumer-matrix", version: "1.0.0" };
  const client2 = sdk === 2 ? new Client2(info, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {}) : undefined;
  const client: AnyClient = client2 === undefined ? (new Client(info) as unknown as AnyClient) : (client2 as unknown as AnyClient);
  try {
    await client.connect(transport as never);
    if (client2 !== undefined) equal(client2.getProtocolEra(), era, `the ${era} client negotiated another generation`);
    // Linux names a process's executable at /proc/<pid>/exe: the server runs on the Node.js asked for.
    equal(readlinkSync(`/proc/${transport.pid}/exe`), realpathSync(node), "the server runs on another Node.js");
    const { tools } = await client.listTools();
    deepStrictEqual(tools.map((t) => t.name), ["lookup_item"]);

    const valid = await client.callTool({ name: "lookup_item", arguments: { id: "item_1" } });
    equal(valid.isError ?? false, false, `valid call failed: ${JSON.stringify(valid)}`);
    deepStrictEqual(valid.structuredContent, { id: "item_1", name: "Item item_1", qty: 1, attempt: 1 });

    const invalid = await client.callTool({ name: "lookup_item", arguments: { id: "item_1", qty: 0 } });
    equal(invalid.isError, true, `invalid call succeeded: ${JSON.stringify(invalid)}`);
    const failure = invalid._meta?.[FAILURE_META_KEY] as Failure | undefined;
    equal(failure?.code, "INVALID_INPUT", `invalid call: ${JSON.stringify(invalid)}`);
    deepStrictEqual(failure.issues?.map((i) => i.path), ["qty"]);

    const retried = await client.callTool({ name: "lookup_item", arguments: { id: "item_flaky", qty: 2 } });
    equal(retried.isError ?? false, false, `transient failure was not retried: ${JSON.stringify(retried)}`);
    deepStrictEqual(retried.structuredContent, { id: "item_flaky", name: "Item item_flaky", qty: 2, attempt: 2 });
  } catch (error) {
    ok(false, `${era} client on ${node}: ${error instanceof Error ? error.message : String(error)}\nserver stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
}
