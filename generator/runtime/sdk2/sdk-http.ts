// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port's HTTP half, SDK 2.x line: the SDK's own serving entry,
 * `createMcpHandler`, on a web-standard `Request` and `Response`. It
 * answers protocol 2026-07-28 per request (no session, no `initialize`,
 * `server/discover`, the `_meta` envelope, the SEP-2243 standard headers
 * checked against the body) and, with `legacy: "stateless"`, 2025-era
 * clients on the same endpoint, each request from a fresh server out of the
 * same factory. The entry itself checks no Host, Origin or token: toolc's
 * border (border.ts) runs before it, on every runtime.
 */
import {
  createMcpHandler,
  type AuthInfo,
  type Server,
} from "@modelcontextprotocol/server";
import type { HttpEntry, HttpEntryOptions } from "./sdk-port.js";

/**
 * The port's HTTP entry: each POST that passed toolc's checks, its body
 * already parsed (undefined when it is not JSON, which the SDK then reads
 * and answers itself), is served by `createMcpHandler` with a fresh server
 * from `createServer`.
 */
export function createHttpEntry(
  createServer: () => Server,
  _options: HttpEntryOptions,
): HttpEntry {
  const handler = createMcpHandler(() => createServer(), {
    legacy: "stateless",
  });
  return (request, { parsedBody, authInfo }) =>
    handler.fetch(request, {
      ...(parsedBody === undefined ? {} : { parsedBody }),
      ...(authInfo === undefined ? {} : { authInfo: authInfo as AuthInfo }),
    });
}
