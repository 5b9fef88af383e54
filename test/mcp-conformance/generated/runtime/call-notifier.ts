// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Where a served call's `ctx.progress` and `ctx.log` go: notifications
 * related to the tools/call request, so that Streamable HTTP sends them on
 * that request's response stream. Progress goes out only under the caller's
 * progressToken; log messages only at or above the level in force.
 */
import { isLoggingLevel, passesLevel } from "./notify.js";
import type { CallContext } from "./sdk.js";
import type { ExecuteOptions, LoggingLevel } from "./types.js";

/**
 * The logging levels of one connection. A 2026-07-28 request gets messages
 * only at the level in its own `_meta`, and none without one (the revision's
 * MUST NOT). A 2025-era request gets the level its client set with
 * `logging/setLevel`, else the server's `logLevel` (none by default); a
 * level in its `_meta` overrides both.
 */
export class LogLevels {
  #connection: LoggingLevel | undefined = undefined;
  readonly #fallback: LoggingLevel | undefined;

  constructor(fallback: LoggingLevel | undefined) {
    this.#fallback = fallback;
  }

  set(level: string): void {
    if (isLoggingLevel(level)) this.#connection = level;
  }

  /** The threshold for a request carrying `requestLevel`; undefined means nothing is logged. */
  threshold(
    requestLevel: string | undefined,
    era: CallContext["protocol"]["era"],
  ): LoggingLevel | undefined {
    if (isLoggingLevel(requestLevel)) return requestLevel;
    if (era === "modern") return undefined;
    return this.#connection ?? this.#fallback;
  }
}

/** Points one call's onProgress and onLog at the request; onProgress only when the caller sent a token. */
export function routeNotifications(
  options: ExecuteOptions,
  context: CallContext,
  levels: LogLevels,
  tool: string,
): void {
  const token = context.progressToken;
  if (token !== undefined) {
    options.onProgress = (update) =>
      context.notify({
        method: "notifications/progress",
        params: { progressToken: token, ...update },
      });
  }
  options.onLog = (level, data) => {
    // Read at each message: a client may change the level while a call runs.
    if (
      !passesLevel(
        level,
        levels.threshold(context.requestLogLevel, context.protocol.era),
      )
    )
      return;
    return context.notify({
      method: "notifications/message",
      params: { level, logger: tool, data },
    });
  };
}
