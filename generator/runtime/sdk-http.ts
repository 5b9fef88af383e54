// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port's HTTP half, SDK 1.x line: one stateless Streamable HTTP
 * exchange on Node's request and response, for the 2025 revisions (SDK 1.x
 * does not serve 2026-07-28). Kept apart from sdk.ts because it needs
 * Node's types; only the generated `http.ts` loads it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { canReceiveNotifications } from "./http-stream.js";
import { serverLogLevel } from "./notify.js";
import type { HttpEntryOptions } from "./sdk-port.js";

/** The type is inferred from the import itself, so it agrees with it in ESM and CommonJS projects alike. */
function importTransport() {
  return import("@modelcontextprotocol/sdk/server/streamableHttp.js");
}
let transportModule: ReturnType<typeof importTransport> | undefined;

/**
 * The SDK's HTTP transport, loaded on the first request: importing it costs
 * tens of milliseconds, and every server built from the generated index
 * would pay that at start-up, stdio servers included.
 */
function loadTransport(): ReturnType<typeof importTransport> {
  return (transportModule ??= importTransport());
}

/**
 * Serves one POST with a fresh transport on `server`; both are closed when
 * the response ends. With `stream`, the response is an SSE stream carrying the request's
 * notifications and then its result; otherwise one JSON body.
 */
async function serveStateless(
  server: Server,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  stream: boolean,
): Promise<void> {
  const { StreamableHTTPServerTransport: Transport } = await loadTransport();
  // No sessionIdGenerator: stateless mode. (Leaving it out rather than setting it to
  // undefined keeps this compiling under exactOptionalPropertyTypes.)
  const transport = new Transport({ enableJsonResponse: !stream });
  res.on("close", () => {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsedBody);
}

/** Whether the client says it can read an SSE response (the spec has it list both types; some list only JSON). */
function acceptsEventStream(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return (
    typeof accept === "string" &&
    accept.toLowerCase().includes("text/event-stream")
  );
}

/**
 * The port's HTTP entry: each POST that passed toolc's checks, its body
 * already parsed (undefined when it is not JSON), is served by a fresh
 * server from `createServer`. A tools/call that can receive notifications
 * (see canReceiveNotifications) from a client that reads SSE gets a
 * stream; everything else keeps its single JSON response.
 */
export function createHttpEntry(
  createServer: () => Server,
  options: HttpEntryOptions,
): (
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
) => Promise<void> {
  const defaultLevel = serverLogLevel(options.logLevel);
  return async (req, res, parsedBody) => {
    const stream =
      acceptsEventStream(req) &&
      canReceiveNotifications(parsedBody, defaultLevel, undefined);
    await serveStateless(createServer(), req, res, parsedBody, stream);
  };
}
