/**
 * `toolc/otel`: an optional OpenTelemetry adapter that turns the runtime's
 * trace events into spans, following the GenAI semantic conventions for tool
 * execution (`execute_tool {gen_ai.tool.name}`, kind INTERNAL).
 *
 * This is a package entry, not runtime source: it is never copied into a
 * generated folder, so a project that does not import it needs neither it
 * nor `@opentelemetry/api` (an optional peer dependency of toolc).
 *
 * A trace event arrives when an attempt has ended, so each becomes one span
 * that starts `durationMs` before it arrived. Nothing a trace event leaves
 * out (input, output, messages) reaches a span either: attributes carry
 * names, counts and codes only.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from "@opentelemetry/api";

/**
 * The fields of the runtime's `TraceEvent` (generated/runtime/types.ts) that
 * become span attributes. Any generated `TraceEvent` is one of these, so the
 * adapter does not depend on a generated folder.
 */
export interface ToolTraceEvent {
  readonly tool: string;
  readonly version: number;
  readonly attempt: number;
  readonly durationMs: number;
  readonly code: string;
  readonly effect: string;
  readonly issuePaths: readonly string[];
  readonly error?: unknown;
  /** The MCP protocol generation a served call came in on: `modern` (2026-07-28) or `legacy` (2025). */
  readonly protocolEra?: string;
  /** The MCP protocol revision of a served call, when known. */
  readonly protocolVersion?: string;
  /** A loop guard's refusal of the call (the handler never ran) or its stop of the loop after it. */
  readonly guard?: { readonly action: string; readonly reason: string };
}

export interface OtelTraceOptions {
  /** Where spans go; default: the global provider's tracer named "toolc". */
  readonly tracer?: Tracer;
  /** Called before each event becomes a span, to log it too, say. Exceptions it throws are ignored. */
  readonly next?: (event: ToolTraceEvent) => void;
}

/** Attribute names: the GenAI semantic conventions where they define one, toolc's own namespace for the rest. */
export const ATTR = {
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
  toolVersion: "toolc.tool.version",
  attempt: "toolc.attempt",
  code: "toolc.code",
  effect: "toolc.effect",
  issuePaths: "toolc.issue_paths",
  errorName: "toolc.error.name",
  /** The MCP semantic conventions' attribute for the protocol revision. */
  protocolVersion: "mcp.protocol.version",
  protocolEra: "toolc.mcp.protocol_era",
  /** `refused` or `stopped`: what the conversation's loop guard did. */
  guardAction: "toolc.guard.action",
  /** Why: REPEATED_CALL, LOOP_STOPPED, INVALID_OUTPUT, UNKNOWN_EFFECT, CORRECTIONS_SPENT, ... */
  guardReason: "toolc.guard.reason",
} as const;

const OPERATION = "execute_tool";

/** The class of what the handler threw (TransientError, TypeError, ...): its name, never its message. */
function errorName(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return typeof error.name === "string" && error.name !== "" ? error.name : undefined;
}

function attributesOf(event: ToolTraceEvent): Attributes {
  const attributes: Attributes = {
    [ATTR.operationName]: OPERATION,
    [ATTR.toolName]: event.tool,
    [ATTR.toolType]: "function",
    [ATTR.toolVersion]: event.version,
    [ATTR.attempt]: event.attempt,
    [ATTR.code]: event.code,
    [ATTR.effect]: event.effect,
  };
  if (event.code !== "OK") attributes[ATTR.errorType] = event.code;
  if (event.issuePaths.length > 0) attributes[ATTR.issuePaths] = [...event.issuePaths];
  const name = errorName(event.error);
  if (name !== undefined) attributes[ATTR.errorName] = name;
  if (typeof event.protocolEra === "string") attributes[ATTR.protocolEra] = event.protocolEra;
  if (typeof event.protocolVersion === "string") attributes[ATTR.protocolVersion] = event.protocolVersion;
  const guard = event.guard;
  if (guard !== undefined && typeof guard.action === "string" && typeof guard.reason === "string") {
    attributes[ATTR.guardAction] = guard.action;
    attributes[ATTR.guardReason] = guard.reason;
  }
  return attributes;
}

/** One span for one trace event, ended at `endTime` (epoch milliseconds). */
export function recordSpan(tracer: Tracer, event: ToolTraceEvent, endTime: number = Date.now()): void {
  const duration = Number.isFinite(event.durationMs) && event.durationMs > 0 ? event.durationMs : 0;
  const span = tracer.startSpan(`${OPERATION} ${event.tool}`, {
    kind: SpanKind.INTERNAL,
    startTime: endTime - duration,
    attributes: attributesOf(event),
  });
  // The code is the status description's only content: envelope messages may quote a handler.
  if (event.code !== "OK") span.setStatus({ code: SpanStatusCode.ERROR, message: event.code });
  span.end(endTime);
}

/**
 * An `onTrace` hook for `execute`, `createServer` and `createHttpHandler`
 * that records one `execute_tool` span per attempt. It never throws: the
 * runtime ignores what onTrace throws, and so does this.
 */
export function otelOnTrace(options: OtelTraceOptions = {}): (event: ToolTraceEvent) => void {
  const tracer = options.tracer ?? trace.getTracer("toolc");
  const next = options.next;
  return (event) => {
    try {
      next?.(event);
    } catch {
      // Ignored, as the runtime ignores what onTrace throws.
    }
    try {
      recordSpan(tracer, event);
    } catch {
      // A broken exporter or tracer must not end the call it observes.
    }
  };
}
