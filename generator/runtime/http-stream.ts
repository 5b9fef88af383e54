/**
 * Which Streamable HTTP requests get an SSE response. Stateless mode answers
 * most POSTs with one JSON body; a tools/call that can receive notifications
 * while it runs gets an event stream instead, so they reach the caller
 * before the result does. The rule needs the body, which is read here (with
 * the SDKs' own size limit) and handed to the transport as `parsedBody`.
 */
import type { IncomingMessage } from "node:http";
import { isLoggingLevel } from "./notify.js";
import type { LoggingLevel } from "./types.js";

/** The request body limit both SDK lines' transports apply. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyRead = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Whether the client says it can read an SSE response (the spec has it list both types; some list only JSON). */
export function acceptsEventStream(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === "string" && accept.toLowerCase().includes("text/event-stream");
}

/** Only a JSON POST is read here; anything else is left to the transport, which answers it as the spec says (415, say). */
export function isJsonPost(req: IncomingMessage): boolean {
  const type = req.headers["content-type"];
  return req.method === "POST" && typeof type === "string" && type.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** Reads and parses the body, refusing one over the limit (413) or one that is not JSON (a JSON-RPC parse error). */
export async function readJsonBody(req: IncomingMessage): Promise<BodyRead> {
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

const isRecord = (value: unknown): value is { readonly [key: string]: unknown } => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a POST body is a tools/call that can receive notifications: it
 * carries a progressToken, or a level of its own under `requestLevelKey`
 * (protocol 2026-07-28), or the server logs at `defaultLevel` to callers
 * that set none. Everything else (other methods, batches, notifications,
 * plain calls) keeps its JSON response.
 */
export function canReceiveNotifications(body: unknown, defaultLevel: LoggingLevel | undefined, requestLevelKey: string | undefined): boolean {
  if (!isRecord(body) || body["method"] !== "tools/call" || body["id"] === undefined) return false;
  if (defaultLevel !== undefined) return true;
  const params = body["params"];
  const meta = isRecord(params) ? params["_meta"] : undefined;
  if (!isRecord(meta)) return false;
  const token = meta["progressToken"];
  if (typeof token === "string" || typeof token === "number") return true;
  return requestLevelKey !== undefined && isLoggingLevel(meta[requestLevelKey]);
}
