/**
 * The MCP SDK port's HTTP half, SDK 2.x line: one stateless Streamable HTTP
 * exchange. SDK 2.x's transport speaks web-standard `Request` and
 * `Response`, so Node's request is handed over as a `Request` (its body as
 * a stream, which the transport reads with its own size limit) and the
 * `Response` is written back, streamed, so an SSE response flows as sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { WebStandardStreamableHTTPServerTransport as Transport, type Server } from "@modelcontextprotocol/server";

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The web `Request` for Node's request; its body is only read when no parser read it before. */
function webRequest(req: IncomingMessage, parsedBody: unknown): Request {
  // A fixed origin: the Host header is the caller's to choose and may not parse as one; it is still passed on among the headers.
  const url = new URL(req.url ?? "/", "http://localhost");
  const init: RequestInit & { duplex?: "half" } = { method: req.method ?? "POST", headers: headersOf(req) };
  if (parsedBody === undefined && req.method === "POST") {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    // Required by Node's fetch for a streamed request body.
    init.duplex = "half";
  }
  return new Request(url, init);
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body !== null) {
    // A reader rather than for-await: the DOM lib's ReadableStream type is not async-iterable.
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        await reader.cancel();
        break;
      }
      res.write(value);
    }
  }
  res.end();
}

/**
 * Serves one POST with a fresh transport on `server`; both are closed when
 * the response ends. With `stream`, the response is an SSE stream carrying the request's
 * notifications and then its result; otherwise one JSON body.
 */
export async function serveStateless(server: Server, req: IncomingMessage, res: ServerResponse, parsedBody: unknown, stream: boolean): Promise<void> {
  // No sessionIdGenerator: stateless mode.
  const transport = new Transport({ enableJsonResponse: !stream });
  res.on("close", () => {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  });
  await server.connect(transport);
  const response = await transport.handleRequest(webRequest(req, parsedBody), parsedBody === undefined ? {} : { parsedBody });
  await writeResponse(response, res);
}
