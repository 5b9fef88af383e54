// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port for the contract-test helper, SDK 2.x line: a client and
 * an in-memory transport. Kept apart from sdk.ts so that a server never loads
 * the client; runtime/sdk-testing.ts is the 1.x port under the same name.
 */
export { Client, InMemoryTransport } from "@modelcontextprotocol/client";
export type { Transport } from "@modelcontextprotocol/client";
