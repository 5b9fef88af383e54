/**
 * Streamable HTTP in stateless mode: every POST gets a fresh Server and a
 * fresh transport, both closed when the response ends. No session state lives
 * between requests, so any instance behind a load balancer can answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "./sdk.js";
import { serveStateless } from "./sdk-http.js";

export interface HttpHandlerOptions {
  /** The endpoint path; defaults to "/mcp". Other paths get 404. */
  path?: string;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function pathOf(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? "/", "http://localhost").pathname;
  } catch {
    return "";
  }
}

async function serve(createServer: () => Server, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A body parser mounted earlier (express.json(), say) has already drained the stream.
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  await serveStateless(createServer(), req, res, parsed);
}

/**
 * A Node `http` request listener for MCP over Streamable HTTP. Use it with
 * `http.createServer(handler)` or mount it in any framework that passes Node's
 * request and response objects. It never rejects.
 */
export function createToolHttpHandler(
  createServer: () => Server,
  options: HttpHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const path = options.path ?? "/mcp";
  return async (req, res) => {
    try {
      if (pathOf(req) !== path) return sendJsonRpcError(res, 404, -32000, "Not found.");
      // Stateless mode has no session to stream to (GET) or end (DELETE).
      if (req.method !== "POST") return sendJsonRpcError(res, 405, -32000, "Method not allowed.", { allow: "POST" });
      await serve(createServer, req, res);
    } catch {
      sendJsonRpcError(res, 500, -32603, "Internal server error.");
    }
  };
}
