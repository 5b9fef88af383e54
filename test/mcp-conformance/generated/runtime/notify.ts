// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * What a handler's `ctx.progress` and `ctx.log` send, checked before it
 * leaves: progress that increases and carries only numbers and a string,
 * logging levels MCP knows, log data that is plain JSON. Anything else is
 * dropped, never thrown: a handler must not fail because a notification
 * could not be sent. Nothing here runs on a call that never notifies.
 */
import { copyJson } from "./json.js";
import type { LoggingLevel, ProgressUpdate } from "./types.js";

/** MCP's logging levels, least severe first (the order `logging/setLevel` filters by). */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

const SEVERITY: ReadonlyMap<string, number> = new Map(
  LOGGING_LEVELS.map((level, index) => [level, index]),
);

/** A server's log level setting: a level, or "off" to log nothing to a client that has not asked. */
export type LogLevelSetting = LoggingLevel | "off";

/**
 * The level a server logs at to a 2025-era client that has set none:
 * `"off"`. Protocol 2026-07-28 forbids log messages to a request that did
 * not ask for them; the 2025 revisions leave it to the server, and toolc
 * sends none there either unless the server's `logLevel` says otherwise.
 */
export const DEFAULT_LOG_LEVEL: LogLevelSetting = "off";

/** The threshold a setting gives; undefined: nothing is logged. */
export function serverLogLevel(
  setting: LogLevelSetting | undefined,
): LoggingLevel | undefined {
  const level = setting ?? DEFAULT_LOG_LEVEL;
  return level === "off" ? undefined : level;
}

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && SEVERITY.has(value);
}

/** Whether a message at `level` passes a client's `threshold`; no threshold lets nothing pass. */
export function passesLevel(
  level: LoggingLevel,
  threshold: LoggingLevel | undefined,
): boolean {
  if (threshold === undefined) return false;
  return (
    (SEVERITY.get(level) ?? -1) >=
    (SEVERITY.get(threshold) ?? Number.POSITIVE_INFINITY)
  );
}

/** The last progress value sent for a call, shared by its attempts: the spec wants it to increase across the whole request. */
export interface ProgressFloor {
  lastProgress: number;
}

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/**
 * A fresh, checked copy of the handler's update, or undefined to drop it:
 * `progress` not above the last value sent, a non-finite number, or a
 * `total`/`message` of the wrong type. Each field is read once.
 */
export function checkedProgress(
  update: unknown,
  floor: ProgressFloor,
): ProgressUpdate | undefined {
  if (typeof update !== "object" || update === null) return undefined;
  const { progress, total, message } = update as Record<string, unknown>;
  if (!isFiniteNumber(progress) || progress <= floor.lastProgress)
    return undefined;
  if (total !== undefined && !isFiniteNumber(total)) return undefined;
  if (message !== undefined && typeof message !== "string") return undefined;
  floor.lastProgress = progress;
  const checked: ProgressUpdate = { progress };
  if (total !== undefined) checked.total = total;
  if (message !== undefined) checked.message = message;
  return checked;
}

/** The log data as plain JSON (the value that is checked is the value that is sent), or undefined when it is not JSON. */
export function plainLogData(data: unknown): { value: unknown } | undefined {
  const copy = copyJson(data);
  return copy.ok ? { value: copy.value } : undefined;
}

const DONE: Promise<void> = Promise.resolve();

/** Runs a notification sink; whatever it throws or rejects with is swallowed, so the handler's await never fails. */
export function deliver(send: () => void | Promise<void>): Promise<void> {
  try {
    const sent = send();
    if (sent === undefined) return DONE;
    return Promise.resolve(sent).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return DONE;
  }
}

export { DONE as NOTHING_SENT };
