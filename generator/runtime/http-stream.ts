// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Which Streamable HTTP requests get an SSE response. Stateless mode answers
 * most POSTs with one JSON body; a tools/call that can receive notifications
 * while it runs gets an event stream instead, so they reach the caller
 * before the result does. The rule needs the body, which http.ts reads and
 * hands to the transport as `parsedBody`. Nothing here needs Node's types.
 */
import { isLoggingLevel } from "./notify.js";
import type { LoggingLevel } from "./types.js";

const isRecord = (
  value: unknown,
): value is { readonly [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a POST body is a tools/call that can receive notifications: it
 * carries a progressToken, or a level of its own under `requestLevelKey`
 * (protocol 2026-07-28), or the server logs at `defaultLevel` to callers
 * that set none. Everything else (other methods, batches, notifications,
 * plain calls) keeps its JSON response.
 */
export function canReceiveNotifications(
  body: unknown,
  defaultLevel: LoggingLevel | undefined,
  requestLevelKey: string | undefined,
): boolean {
  if (
    !isRecord(body) ||
    body["method"] !== "tools/call" ||
    body["id"] === undefined
  )
    return false;
  if (defaultLevel !== undefined) return true;
  const params = body["params"];
  const meta = isRecord(params) ? params["_meta"] : undefined;
  if (!isRecord(meta)) return false;
  const token = meta["progressToken"];
  if (typeof token === "string" || typeof token === "number") return true;
  return requestLevelKey !== undefined && isLoggingLevel(meta[requestLevelKey]);
}
