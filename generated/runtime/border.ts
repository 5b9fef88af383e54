// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * toolc's border: every check made before the MCP SDK sees a Streamable
 * HTTP request, written once against web-standard `Request` and `Response`
 * so that it is the same on every entry. The Node handler (http.ts) adapts
 * Node's request and response to it; `createToolFetchHandler` is it as a
 * `fetch` handler for Workers, Deno, Bun and route handlers. Stateless: a
 * request that passes is served by a fresh server (the SDK port's HTTP
 * entry, sdk-http.ts), and nothing lives between requests, so any instance
 * behind a load balancer can answer. Nothing here needs Node.
 */
import type { ContractMap } from "./contract.js";
import { isLoopbackAddress, refusal } from "./http-guard.js";
import {
  HEADER_MISMATCH,
  headerDeclarations,
  paramHeaderMismatch,
} from "./mcp-headers.js";
import type { LogLevelSetting } from "./notify.js";
import { MODERN_VERSION_META_KEY, type Server } from "./sdk.js";
import { createHttpEntry } from "./sdk-http.js";
import {
  rateLimiter,
  type Limiter,
  type RateLimitOptions,
} from "./rate-limit.js";
import type { HttpEntry } from "./sdk-port.js";

export interface BorderOptions extends RateLimitOptions {
  /** The endpoint path; defaults to "/mcp". Other paths get 404. */
  path?: string;
  /**
   * Origins a browser page may call from, exactly as the `Origin` header
   * spells them (`https://app.example.com`, `http://localhost:5173`). A
   * request whose `Origin` is present and not allowed gets 403 and runs
   * nothing. Unset: an origin on the request's own host is allowed, and on a
   * loopback connection so is any localhost origin. On any other connection,
   * without `allowedHosts` only the origins listed here are, and with neither
   * option every request there is refused (see http-guard.ts).
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` header values to answer (`mcp.example.com`, `mcp.example.com:8443`;
   * a name without a port allows any port). Unset: on a loopback connection
   * only `localhost`, `127.0.0.1` and `[::1]`, which is what stops DNS
   * rebinding; on any other connection every host when `allowedOrigins` is
   * set, and none (403) when it is not.
   */
  allowedHosts?: readonly string[];
  /**
   * The server's `logLevel` (ServerOptions; default `"off"`). The generated
   * handlers pass it on. On SDK 1.x it decides which 2025-era tools/call
   * gets an SSE response: unless it is `"off"`, any call may log.
   */
  logLevel?: LogLevelSetting;
}

/** A fetch handler's options: the border's, and the local address a runtime without a socket cannot tell it. */
export interface FetchHandlerOptions extends BorderOptions {
  /**
   * The address the server listens on (`0.0.0.0`, `10.0.0.5`), where the
   * runtime does not say. Unset, every request counts as arriving on
   * loopback, the strict side: only a localhost `Host` is answered unless
   * `allowedHosts` lists the server's public names, which a deployed server
   * sets. A non-loopback address here applies the rules for one: nothing is
   * answered unless `allowedHosts` or `allowedOrigins` is set.
   */
  localAddress?: string;
}

/** A request as the gate reads it: its method, URL and headers (lower-case names). */
export interface GateRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}

/**
 * A check of the caller that runs here, before the SDK: toolc's OAuth
 * resource server (runtime/auth.ts, emitted with `auth:` in the config)
 * implements it. `answer` serves what the gate serves itself (its metadata
 * document); `authenticate` runs before the body is read, and what it
 * returns is what the SDK passes to the handlers as the request's auth
 * info; `authorize` sees the parsed body.
 */
export interface RequestGate {
  answer(req: GateRequest): GateAnswer | undefined;
  authenticate(
    req: GateRequest,
  ): Promise<{ auth: object } | { refused: GateAnswer }>;
  authorize(auth: object, body: unknown): Promise<GateAnswer | undefined>;
}

/** A whole answer the gate gives instead of the MCP server (its own status, headers and body). */
export interface GateAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What an adapter knows of one request beyond the `Request` itself. */
export interface Connection {
  /** The local address the request arrived on (a Node socket's); undefined counts as loopback. */
  readonly localAddress?: string | undefined;
  /** The body, when a parser mounted earlier (express.json(), say) has already read it. */
  readonly parsedBody?: unknown;
  /** Auth info an upstream middleware verified; used only where no gate is configured. */
  readonly authInfo?: object | undefined;
}

/** The border: a request in, its answer out. It never rejects. */
export type Border = (
  request: Request,
  connection?: Connection,
) => Promise<Response>;

/** Why toolc refuses a request before the SDK sees it: an HTTP status and a JSON-RPC error. */
interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** The id of the request refused, once the body is read. */
  id?: string | number | null;
}

/** The request body limit both SDK lines' transports apply. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type BodyRead = { ok: true; value: unknown } | { ok: false; refused: Refusal };

function jsonRpcError(refused: Refusal): Response {
  const { status, code, message, headers = {}, id = null } = refused;
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

function answerOf(answer: GateAnswer): Response {
  // A 204 or 304, or a HEAD answer, carries no body; an empty string is none.
  return new Response(answer.body === "" ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

function pathOf(url: string): string {
  try {
    return new URL(url, "http://localhost").pathname;
  } catch {
    return "";
  }
}

/** Only a JSON POST is read here; anything else is left to the transport, which answers it as the spec says (415, say). */
function isJsonPost(request: Request): boolean {
  const type = request.headers.get("content-type");
  return (
    request.method === "POST" &&
    type !== null &&
    type.split(";")[0]?.trim().toLowerCase() === "application/json"
  );
}

/** Reads the body as it streams in, stopping at the limit (413), and parses it (a JSON-RPC parse error when it is not JSON). */
async function readJsonBody(request: Request): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      size += next.value.byteLength;
      if (size > MAX_BODY_BYTES) {
        // Nothing more is read: the rest of an oversized body is never buffered.
        void reader.cancel().catch(() => {});
        return {
          ok: false,
          refused: {
            status: 413,
            code: -32000,
            message: "Request body too large.",
          },
        };
      }
      chunks.push(next.value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    // A byte-order mark is kept, so JSON.parse refuses it as it always has.
    const text = new TextDecoder("utf-8", {
      fatal: false,
      ignoreBOM: true,
    }).decode(bytes);
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      refused: {
        status: 400,
        code: -32700,
        message: "Parse error: Invalid JSON.",
      },
    };
  }
}

/** The request's JSON-RPC id, so that a refusal of a request answers it; null for anything else. */
function requestId(body: unknown): string | number | null {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return null;
  const id = (body as { readonly id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** The request as the gate and the header checks read it: headers by lower-case name, as Node spells them. */
function gateRequest(request: Request): GateRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  return { method: request.method, url: request.url, headers };
}

interface PreflightContext {
  readonly path: string;
  readonly declarations: ReturnType<typeof headerDeclarations>;
  readonly gate: RequestGate | undefined;
  readonly limit: Limiter | undefined;
}

type Passed = { body: unknown; authInfo: object | undefined };

/**
 * toolc's checks, in order; the first that applies refuses the request and
 * nothing is created for it. A check added here runs before any server or
 * handler does. Passing: the body as parsed (undefined when it is not a
 * JSON POST, which the SDK then reads and answers itself) and the caller.
 */
async function preflight(
  request: Request,
  connection: Connection,
  options: BorderOptions,
  check: PreflightContext,
): Promise<Response | Passed> {
  const loopback = isLoopbackAddress(connection.localAddress);
  const refused = refusal(request.headers, loopback, options);
  if (refused !== undefined)
    return jsonRpcError({ status: 403, code: -32000, message: refused });
  const view = gateRequest(request);
  const served = check.gate?.answer(view);
  if (served !== undefined) return answerOf(served);
  if (pathOf(request.url) !== check.path)
    return jsonRpcError({ status: 404, code: -32000, message: "Not found." });
  // Stateless serving has no session to stream to (GET) or end (DELETE).
  if (request.method !== "POST")
    return jsonRpcError({
      status: 405,
      code: -32000,
      message: "Method not allowed.",
      headers: { allow: "POST" },
    });
  // Before the body is read: a caller without a valid token gets nothing parsed.
  const caller =
    check.gate === undefined ? undefined : await check.gate.authenticate(view);
  if (caller !== undefined && "refused" in caller)
    return answerOf(caller.refused);
  let body = connection.parsedBody;
  if (body === undefined && isJsonPost(request)) {
    const read = await readJsonBody(request);
    if (!read.ok) return jsonRpcError(read.refused);
    body = read.value;
  }
  const forbidden =
    caller === undefined || check.gate === undefined
      ? undefined
      : await check.gate.authorize(caller.auth, body);
  if (forbidden !== undefined) return answerOf(forbidden);
  const mismatch = paramHeaderMismatch(
    body,
    view.headers,
    check.declarations,
    MODERN_VERSION_META_KEY,
  );
  if (mismatch !== undefined)
    return jsonRpcError({
      status: 400,
      code: HEADER_MISMATCH,
      message: mismatch,
      id: requestId(body),
    });
  // What the SDK hands the handlers as the request's auth info: with a gate, only the gate's, never an upstream value.
  const authInfo =
    check.gate === undefined ? connection.authInfo : caller?.auth;
  const limited = await check.limit?.(request, body, authInfo);
  if (limited !== undefined) return limited;
  return { body, authInfo };
}

/**
 * The request the SDK gets once the border has read its body: the same
 * method, URL, headers and abort signal, and no body (the parsed one goes
 * beside it). A request whose body was not read is passed on as it is.
 */
function forwarded(request: Request, bodyRead: boolean): Request {
  if (!bodyRead) return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
  });
}

/**
 * The border over `createServer`'s servers: toolc's checks first (see
 * `preflight`); a refused request gets its status and no server, transport
 * or handler is created for it. `contracts` are the served ones, for their
 * `x-mcp-header` declarations; `gate` checks the caller.
 */
export function createBorder(
  createServer: () => Server,
  options: BorderOptions = {},
  contracts: ContractMap = {},
  gate?: RequestGate,
): Border {
  const check: PreflightContext = {
    path: options.path ?? "/mcp",
    declarations: headerDeclarations(contracts),
    gate,
    limit: rateLimiter(options, contracts),
  };
  // One server is made now, so that a configuration that cannot work (ConfigurationError: a shared store without a shared key) stops the start-up, not the first request.
  createServer();
  const serve: HttpEntry = createHttpEntry(
    createServer,
    options.logLevel === undefined ? {} : { logLevel: options.logLevel },
  );
  return async (request, connection = {}) => {
    try {
      const passed = await preflight(request, connection, options, check);
      if (passed instanceof Response) return passed;
      const bodyRead =
        connection.parsedBody === undefined && passed.body !== undefined;
      return await serve(forwarded(request, bodyRead), {
        parsedBody: passed.body,
        authInfo: passed.authInfo,
      });
    } catch {
      return jsonRpcError({
        status: 500,
        code: -32603,
        message: "Internal server error.",
      });
    }
  };
}

/**
 * A web-standard `fetch` handler for MCP over Streamable HTTP: the border
 * over `createServer`'s servers, for Cloudflare Workers and Deno (`export
 * default { fetch }`), Bun (`Bun.serve({ fetch })`), route handlers and
 * Hono (`c.req.raw`). There is no socket to ask for the local address, so
 * `options.localAddress` says it; unset, the loopback rules apply.
 */
export function createToolFetchHandler(
  createServer: () => Server,
  options: FetchHandlerOptions = {},
  contracts: ContractMap = {},
  gate?: RequestGate,
): (request: Request) => Promise<Response> {
  const border = createBorder(createServer, options, contracts, gate);
  const connection: Connection =
    options.localAddress === undefined
      ? {}
      : { localAddress: options.localAddress };
  return (request) => border(request, connection);
}
