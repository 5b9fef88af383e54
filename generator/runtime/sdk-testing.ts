// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port for the contract-test helper, SDK 1.x line: a client and
 * an in-memory transport. Kept apart from sdk.ts so that a server never loads
 * the client; runtime/sdk2/ holds the 2.x port under the same name.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
