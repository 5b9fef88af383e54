/**
 * JSON-RPC over Streamable HTTP the way curl sends it: one POST per message,
 * the SEP-2243 headers written by hand, and the response read as JSON or as
 * an SSE stream. Nothing here comes from an SDK, so the tests that use it see
 * exactly what a hand-written client would.
 */

/** The `_meta` envelope every 2026-07-28 request carries. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "curl", version: "8.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
    ...extra,
  };
}

export interface RpcResponse {
  status: number;
  contentType: string;
  /** Every JSON-RPC message of the response, in order: notifications first on a stream, then the response. */
  messages: Record<string, unknown>[];
}

let nextId = 1;

/** The headers a 2026-07-28 POST needs: the protocol version, the method, and the name for tools/call. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) };
}

/** POSTs one JSON-RPC message and reads every message of the answer. */
export async function post(url: URL, body: Record<string, unknown>, headers: Record<string, string>): Promise<RpcResponse> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const contentType = response.headers.get("content-type") ?? "";
  const text = await response.text();
  const messages = contentType.startsWith("text/event-stream")
    ? text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    : text === "" ? [] : [JSON.parse(text) as Record<string, unknown>];
  return { status: response.status, contentType, messages };
}

/** A 2026-07-28 request: no session, no initialize, the envelope in `_meta` and the standard headers. */
export function modernRequest(url: URL, method: string, params: Record<string, unknown> = {}, options: { meta?: Record<string, unknown>; headers?: Record<string, string> } = {}): Promise<RpcResponse> {
  const name = typeof params["name"] === "string" ? params["name"] : undefined;
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: envelope(options.meta) } };
  return post(url, body, { ...modernHeaders(method, method === "tools/call" ? name : undefined), ...options.headers });
}

/** A 2025-era request on the stateless endpoint: no envelope; the revision in MCP-Protocol-Version. */
export function legacyRequest(url: URL, method: string, params: Record<string, unknown>, version = "2025-11-25"): Promise<RpcResponse> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method, params }, { "mcp-protocol-version": version });
}

/** The final response of an answer: the one message with a result or an error. */
export function final(response: RpcResponse): Record<string, unknown> {
  const found = response.messages.filter((m) => "result" in m || "error" in m);
  if (found.length !== 1) throw new Error(`expected one response, got ${JSON.stringify(response)}`);
  return found[0]!;
}

/** The notifications of an answer with the given method. */
export function notifications(response: RpcResponse, method: string): Record<string, unknown>[] {
  return response.messages.filter((m) => m["method"] === method);
}
