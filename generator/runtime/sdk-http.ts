// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP SDK port's HTTP half, SDK 1.x line: one stateless Streamable HTTP
 * exchange on a web-standard `Request` and `Response`, for the 2025
 * revisions (SDK 1.x does not serve 2026-07-28), through the SDK's
 * `WebStandardStreamableHTTPServerTransport`. Nothing here needs Node: the
 * border (border.ts) serves it on Node, Deno, Bun and workerd alike.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { canReceiveNotifications } from "./http-stream.js";
import { serverLogLevel } from "./notify.js";
import type { HttpEntry, HttpEntryOptions } from "./sdk-port.js";

/** The type is inferred from the import itself, so it agrees with it in ESM and CommonJS projects alike. */
function importTransport() {
  return import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js");
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

/** `response` with `done` called once its body has been read to the end or cancelled (at once when it has none). */
function whenFinished(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read().catch((error: unknown) => {
        done();
        throw error;
      });
      if (next.done) {
        controller.close();
        done();
      } else controller.enqueue(next.value);
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Serves one POST with a fresh transport on `server`; both are closed when
 * the response has been sent. With `stream`, the response is an SSE stream
 * carrying the request's notifications and then its result; otherwise one
 * JSON body.
 */
async function serveStateless(
  server: Server,
  request: Request,
  parsedBody: unknown,
  authInfo: object | undefined,
  stream: boolean,
): Promise<Response> {
  const { WebStandardStreamableHTTPServerTransport: Transport } =
    await loadTransport();
  // No sessionIdGenerator: stateless mode. (Leaving it out rather than setting it to
  // undefined keeps this compiling under exactOptionalPropertyTypes.)
  const transport = new Transport({ enableJsonResponse: !stream });
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  };
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, {
      parsedBody,
      ...(authInfo === undefined ? {} : { authInfo: authInfo as AuthInfo }),
    });
    return whenFinished(response, close);
  } catch (error) {
    close();
    throw error;
  }
}

/** Whether the client says it can read an SSE response (the spec has it list both types; some list only JSON). */
function acceptsEventStream(request: Request): boolean {
  const accept = request.headers.get("accept");
  return accept !== null && accept.toLowerCase().includes("text/event-stream");
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
): HttpEntry {
  const defaultLevel = serverLogLevel(options.logLevel);
  return async (request, { parsedBody, authInfo }) => {
    const stream =
      acceptsEventStream(request) &&
      canReceiveNotifications(parsedBody, defaultLevel, undefined);
    return serveStateless(
      createServer(),
      request,
      parsedBody,
      authInfo,
      stream,
    );
  };
}
