/**
 * Streamable HTTP in stateless mode: every POST gets a fresh Server and a
 * fresh transport, both closed when the response ends. No session state lives
 * between requests, so any instance behind a load balancer can answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { REQUEST_LOG_LEVEL_KEY, type Server } from "./sdk.js";
import { serveStateless } from "./sdk-http.js";
import { canReceiveNotifications } from "./http-stream.js";
import { serverLogLevel, type LogLevelSetting } from "./notify.js";

// The Host and Origin checks (DNS rebinding) are a module of their own.
import { refusal } from "./http-guard.js";

export interface HttpHandlerOptions {
  /** The endpoint path; defaults to "/mcp". Other paths get 404. */
  path?: string;
  /**
   * Origins a browser page may call from, exactly as the `Origin` header
   * spells them (`https://app.example.com`, `http://localhost:5173`). A
   * request whose `Origin` is present and not allowed gets 403 and runs
   * nothing. Unset: an origin on the request's own host is allowed, and on a
   * loopback connection so is any localhost origin; on any other connection
   * without `allowedHosts`, no origin is (see http-guard.ts).
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` header values to answer (`mcp.example.com`, `mcp.example.com:8443`;
   * a name without a port allows any port). Unset: on a loopback connection
   * only `localhost`, `127.0.0.1` and `[::1]`, which is what stops DNS
   * rebinding; on any other connection every host.
   */
  allowedHosts?: readonly string[];
  /**
   * The server's `logLevel` (ServerOptions; default `"info"`). The generated
   * `createHttpHandler` passes it on: unless it is `"off"`, any tools/call
   * may log, so each one whose client accepts `text/event-stream` gets an
   * SSE response.
   */
  logLevel?: LogLevelSetting;
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

/** The request body limit both SDK lines' transports apply. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type BodyRead = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Whether the client says it can read an SSE response (the spec has it list both types; some list only JSON). */
function acceptsEventStream(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === "string" && accept.toLowerCase().includes("text/event-stream");
}

/** Only a JSON POST is read here; anything else is left to the transport, which answers it as the spec says (415, say). */
function isJsonPost(req: IncomingMessage): boolean {
  const type = req.headers["content-type"];
  return req.method === "POST" && typeof type === "string" && type.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** Reads and parses the body, refusing one over the limit (413) or one that is not JSON (a JSON-RPC parse error). */
async function readJsonBody(req: IncomingMessage): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, code: -32000, message: "Request body too large." };
    chunks.push(buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { ok: false, status: 400, code: -32700, message: "Parse error: Invalid JSON." };
  }
}

/**
 * One POST: JSON in, and JSON or an event stream out. A tools/call that can
 * receive notifications (see canReceiveNotifications) from a client that
 * reads SSE gets a stream; everything else keeps its single JSON response.
 */
async function serve(createServer: () => Server, req: IncomingMessage, res: ServerResponse, options: HttpHandlerOptions): Promise<void> {
  // A body parser mounted earlier (express.json(), say) has already drained the stream.
  let parsed = (req as IncomingMessage & { body?: unknown }).body;
  let stream = false;
  if (acceptsEventStream(req)) {
    if (parsed === undefined && isJsonPost(req)) {
      const read = await readJsonBody(req);
      if (!read.ok) return sendJsonRpcError(res, read.status, read.code, read.message);
      parsed = read.value;
    }
    stream = canReceiveNotifications(parsed, serverLogLevel(options.logLevel), REQUEST_LOG_LEVEL_KEY);
  }
  await serveStateless(createServer(), req, res, parsed, stream);
}

/**
 * A Node `http` request listener for MCP over Streamable HTTP. Use it with
 * `http.createServer(handler)` or mount it in any framework that passes Node's
 * request and response objects. It never rejects. Host and Origin are checked
 * first (see HttpHandlerOptions): a refused request gets 403 and no server,
 * transport or handler is created for it.
 */
export function createToolHttpHandler(
  createServer: () => Server,
  options: HttpHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const path = options.path ?? "/mcp";
  return async (req, res) => {
    try {
      const refused = refusal(req, options);
      if (refused !== undefined) return sendJsonRpcError(res, 403, -32000, refused);
      if (pathOf(req) !== path) return sendJsonRpcError(res, 404, -32000, "Not found.");
      // Stateless mode has no session to stream to (GET) or end (DELETE).
      if (req.method !== "POST") return sendJsonRpcError(res, 405, -32000, "Method not allowed.", { allow: "POST" });
      await serve(createServer, req, res, options);
    } catch {
      sendJsonRpcError(res, 500, -32603, "Internal server error.");
    }
  };
}
