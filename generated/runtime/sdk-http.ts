// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port's HTTP half, SDK 2.x line: the SDK's own serving entry,
 * `createMcpHandler`, which answers protocol 2026-07-28 per request (no
 * session, no `initialize`, `server/discover`, the `_meta` envelope, the
 * SEP-2243 standard headers checked against the body) and, with
 * `legacy: "stateless"`, 2025-era clients on the same endpoint, each
 * request from a fresh server out of the same factory. The SDK's Node
 * adapter, `toNodeHandler` from `@modelcontextprotocol/node`, turns Node's
 * request into a web `Request` (aborted when the client goes away) and
 * streams the `Response` back with backpressure. The entry itself checks no
 * Host, Origin or token: toolc's checks (http.ts) run before it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  toNodeHandler,
  type NodeIncomingMessageLike,
} from "@modelcontextprotocol/node";
import { createMcpHandler, type Server } from "@modelcontextprotocol/server";
import type { HttpEntryOptions } from "./sdk-port.js";

/**
 * The port's HTTP entry: each POST that passed toolc's checks, its body
 * already parsed (undefined when it is not JSON, which the SDK then reads
 * and answers itself), is served by `createMcpHandler` with a fresh server
 * from `createServer`.
 */
export function createHttpEntry(
  createServer: () => Server,
  _options: HttpEntryOptions,
): (
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
) => Promise<void> {
  const serve = toNodeHandler(
    createMcpHandler(() => createServer(), { legacy: "stateless" }),
  );
  // Node's own request: the adapter's structural type spells its optional fields without `| undefined`,
  // which exactOptionalPropertyTypes tells apart from Node's declarations.
  return (req, res, parsedBody) =>
    serve(req as NodeIncomingMessageLike, res, parsedBody);
}
