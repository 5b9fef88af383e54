// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The Node adapter over toolc's border (border.ts): Node's request becomes
 * a web-standard `Request` (its body streamed, aborted when the client goes
 * away), the border answers it, and the `Response` is streamed back with
 * backpressure. Every check lives in the border; the one thing only Node
 * knows, the socket's local address, is handed to it with the request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createBorder,
  type BorderOptions,
  type Connection,
  type RequestGate,
} from "./border.js";
import type { ContractMap } from "./contract.js";
import type { Server } from "./sdk.js";

export type { GateAnswer, RequestGate } from "./border.js";

/** The Node handler's options: the border's (the local address comes from the socket). */
export type HttpHandlerOptions = BorderOptions;

/** A Node request with what a framework's middleware may have put on it. */
type FrameworkRequest = IncomingMessage & { body?: unknown; auth?: object };

/** Node's request body as a web stream, read only as fast as the border reads it; cancelling it destroys the request. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<
    Uint8Array | string
  >;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done === true) controller.close();
      else
        controller.enqueue(
          typeof next.value === "string"
            ? encoder.encode(next.value)
            : next.value,
        );
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/** Node's request as a web `Request`: the same method, path and headers; the body only when no parser has read it. */
function webRequest(req: FrameworkRequest, signal: AbortSignal): Request {
  const method = (req.method ?? "GET").toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value))
      for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://localhost");
  } catch {
    url = new URL("http://localhost/");
  }
  const withBody =
    method !== "GET" && method !== "HEAD" && req.body === undefined;
  return new Request(url, {
    method,
    headers,
    signal,
    ...(withBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes the border's answer to Node's response, streaming its body and waiting on `drain`. */
async function send(
  res: ServerResponse,
  response: Response,
  aborted: AbortSignal,
): Promise<void> {
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done || aborted.aborted) break;
      if (!res.write(next.value))
        await new Promise<void>((resolve) => {
          res.once("drain", resolve);
          aborted.addEventListener("abort", () => resolve(), { once: true });
        });
    }
  } catch {
    // The stream failed midway: what was written stays, and the response ends.
  } finally {
    if (aborted.aborted) void reader.cancel().catch(() => {});
    res.end();
  }
}

/**
 * A Node `http` request listener for MCP over Streamable HTTP. Use it with
 * `http.createServer(handler)` or mount it in any framework that passes Node's
 * request and response objects. It never rejects. toolc's checks come first
 * (the border, border.ts): a refused request gets its status and no server,
 * transport or handler is created for it. `contracts` are the served ones,
 * for their `x-mcp-header` declarations; `gate` checks the caller.
 */
export function createToolHttpHandler(
  createServer: () => Server,
  options: HttpHandlerOptions = {},
  contracts: ContractMap = {},
  gate?: RequestGate,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const border = createBorder(createServer, options, contracts, gate);
  return async (req: FrameworkRequest, res) => {
    const abort = new AbortController();
    let finished = false;
    res.on("close", () => {
      if (!finished) abort.abort();
    });
    try {
      const connection: Connection = {
        localAddress: req.socket.localAddress,
        // A body parser mounted earlier (express.json(), say) has already drained the stream.
        parsedBody: req.body,
        authInfo: req.auth,
      };
      const response = await border(webRequest(req, abort.signal), connection);
      await send(res, response, abort.signal);
    } catch {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32603, message: "Internal server error." },
            id: null,
          }),
        );
      } else res.end();
    } finally {
      finished = true;
    }
  };
}
