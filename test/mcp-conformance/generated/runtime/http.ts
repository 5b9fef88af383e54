// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Streamable HTTP, stateless: every POST gets a fresh Server, and no session
 * state lives between requests, so any instance behind a load balancer can
 * answer. toolc's own checks run first, in one place (`preflight`), and
 * refuse a request before the SDK sees it; the SDK port (sdk-http.ts) then
 * serves what passed: on SDK 2.x its `createMcpHandler`, which answers
 * 2026-07-28 and 2025-era requests on the same endpoint.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ContractMap } from "./contract.js";
import {
  HEADER_MISMATCH,
  headerDeclarations,
  paramHeaderMismatch,
} from "./mcp-headers.js";
import { MODERN_VERSION_META_KEY, type Server } from "./sdk.js";
import { createHttpEntry } from "./sdk-http.js";
import type { LogLevelSetting } from "./notify.js";

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
   * The server's `logLevel` (ServerOptions; default `"off"`). The generated
   * `createHttpHandler` passes it on. On SDK 1.x it decides which 2025-era
   * tools/call gets an SSE response: unless it is `"off"`, any call may log.
   */
  logLevel?: LogLevelSetting;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
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

type BodyRead =
  | { ok: true; value: unknown }
  | { ok: false; status: number; code: number; message: string };

/** Only a JSON POST is read here; anything else is left to the transport, which answers it as the spec says (415, say). */
function isJsonPost(req: IncomingMessage): boolean {
  const type = req.headers["content-type"];
  return (
    req.method === "POST" &&
    typeof type === "string" &&
    type.split(";")[0]?.trim().toLowerCase() === "application/json"
  );
}

/** Reads and parses the body, refusing one over the limit (413) or one that is not JSON (a JSON-RPC parse error). */
async function readJsonBody(req: IncomingMessage): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer =
      typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES)
      return {
        ok: false,
        status: 413,
        code: -32000,
        message: "Request body too large.",
      };
    chunks.push(buffer);
  }
  try {
    return {
      ok: true,
      value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
    };
  } catch {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: "Parse error: Invalid JSON.",
    };
  }
}

/**
 * A check of the caller that runs here, before the SDK: toolc's OAuth
 * resource server (runtime/auth.ts, emitted with `auth:` in the config)
 * implements it. `answer` serves what the gate serves itself (its metadata
 * document); `authenticate` runs before the body is read, and what it
 * returns is put on the request as `req.auth`, which the SDK passes to the
 * handlers; `authorize` sees the parsed body.
 */
export interface RequestGate {
  answer(req: IncomingMessage): GateAnswer | undefined;
  authenticate(
    req: IncomingMessage,
  ): Promise<{ auth: object } | { refused: GateAnswer }>;
  authorize(auth: object, body: unknown): Promise<GateAnswer | undefined>;
}

/** A whole answer the gate gives instead of the MCP server (its own status, headers and body). */
export interface GateAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Why toolc refuses a request before the SDK sees it: an HTTP status and a JSON-RPC error. */
interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** The id of the request refused, once the body is read. */
  id?: string | number | null;
}

/** The request's JSON-RPC id, so that a refusal of a request answers it; null for anything else. */
function requestId(body: unknown): string | number | null {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return null;
  const id = (body as { readonly id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * toolc's checks, in order; the first that applies refuses the request and
 * nothing is created for it. A check added here (authorization, say) runs
 * before any server or handler does. Passing: the body as parsed (undefined
 * when it is not a JSON POST, which the SDK then reads and answers itself).
 */
async function preflight(
  req: IncomingMessage,
  options: HttpHandlerOptions,
  check: PreflightContext,
): Promise<{ refused: Refusal } | { answer: GateAnswer } | { body: unknown }> {
  const refused = refusal(req, options);
  if (refused !== undefined)
    return { refused: { status: 403, code: -32000, message: refused } };
  const served = check.gate?.answer(req);
  if (served !== undefined) return { answer: served };
  if (pathOf(req) !== check.path)
    return { refused: { status: 404, code: -32000, message: "Not found." } };
  // Stateless serving has no session to stream to (GET) or end (DELETE).
  if (req.method !== "POST")
    return {
      refused: {
        status: 405,
        code: -32000,
        message: "Method not allowed.",
        headers: { allow: "POST" },
      },
    };
  // Before the body is read: a caller without a valid token gets nothing parsed.
  const caller =
    check.gate === undefined ? undefined : await check.gate.authenticate(req);
  if (caller !== undefined && "refused" in caller)
    return { answer: caller.refused };
  // What the SDK hands the handlers as the request's auth info: only the gate's, never an upstream value.
  if (caller !== undefined)
    (req as IncomingMessage & { auth?: object }).auth = caller.auth;
  // A body parser mounted earlier (express.json(), say) has already drained the stream.
  let body = (req as IncomingMessage & { body?: unknown }).body;
  if (body === undefined && isJsonPost(req)) {
    const read = await readJsonBody(req);
    if (!read.ok)
      return {
        refused: {
          status: read.status,
          code: read.code,
          message: read.message,
        },
      };
    body = read.value;
  }
  const forbidden =
    caller === undefined || check.gate === undefined
      ? undefined
      : await check.gate.authorize(caller.auth, body);
  if (forbidden !== undefined) return { answer: forbidden };
  const mismatch = paramHeaderMismatch(
    body,
    req.headers,
    check.declarations,
    MODERN_VERSION_META_KEY,
  );
  if (mismatch !== undefined)
    return {
      refused: {
        status: 400,
        code: HEADER_MISMATCH,
        message: mismatch,
        id: requestId(body),
      },
    };
  return { body };
}

interface PreflightContext {
  readonly path: string;
  readonly declarations: ReturnType<typeof headerDeclarations>;
  readonly gate: RequestGate | undefined;
}

function sendAnswer(res: ServerResponse, answer: GateAnswer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

/**
 * A Node `http` request listener for MCP over Streamable HTTP. Use it with
 * `http.createServer(handler)` or mount it in any framework that passes Node's
 * request and response objects. It never rejects. toolc's checks come first
 * (see `preflight`): a refused request gets its status and no server,
 * transport or handler is created for it. `contracts` are the served ones,
 * for their `x-mcp-header` declarations; `gate` checks the caller.
 */
export function createToolHttpHandler(
  createServer: () => Server,
  options: HttpHandlerOptions = {},
  contracts: ContractMap = {},
  gate?: RequestGate,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const check: PreflightContext = {
    path: options.path ?? "/mcp",
    declarations: headerDeclarations(contracts),
    gate,
  };
  const serve = createHttpEntry(
    createServer,
    options.logLevel === undefined ? {} : { logLevel: options.logLevel },
  );
  return async (req, res) => {
    try {
      const passed = await preflight(req, options, check);
      if ("answer" in passed) return sendAnswer(res, passed.answer);
      if ("refused" in passed) {
        const {
          status,
          code,
          message,
          headers = {},
          id = null,
        } = passed.refused;
        return sendJsonRpcError(res, status, code, message, headers, id);
      }
      await serve(req, res, passed.body);
    } catch {
      sendJsonRpcError(res, 500, -32603, "Internal server error.");
    }
  };
}
