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
 * The logging levels of one connection: what the client set with
 * `logging/setLevel`, else the server's default. A request's own level
 * (protocol 2026-07-28) overrides both for that request.
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
  threshold(requestLevel: string | undefined): LoggingLevel | undefined {
    if (isLoggingLevel(requestLevel)) return requestLevel;
    return this.#connection ?? this.#fallback;
  }
}

/** Points one call's onProgress and onLog at the request; onProgress only when the caller sent a token. */
export function routeNotifications(options: ExecuteOptions, context: CallContext, levels: LogLevels, tool: string): void {
  const token = context.progressToken;
  if (token !== undefined) {
    options.onProgress = (update) => context.notify({ method: "notifications/progress", params: { progressToken: token, ...update } });
  }
  options.onLog = (level, data) => {
    // Read at each message: a client may change the level while a call runs.
    if (!passesLevel(level, levels.threshold(context.requestLogLevel))) return;
    return context.notify({ method: "notifications/message", params: { level, logger: tool, data } });
  };
}
