/**
 * The OpenTelemetry adapter (toolc/otel) behind the real generated executor,
 * recorded by the OpenTelemetry SDK's in-memory exporter: one execute_tool
 * span per attempt, named and attributed as the GenAI semantic conventions
 * say, with attempts and failure codes, and no payload anywhere in a span.
 */
import { SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { beforeEach, describe, expect, it } from "vitest";
import { ATTR, otelOnTrace } from "../../generator/otel/index.js";
import { createLoopGuard, execute, TransientError, type Handlers, type TraceEvent } from "../../generated/index.js";

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("toolc-test");

/** Retries without waiting: the backoff is not what these tests are about. */
const noWait = { sleep: async () => {}, random: () => 0 };

const order = { found: true, customerId: "cus_1", orders: [{ id: "ord_1", status: "paid" as const }] };

beforeEach(() => exporter.reset());

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const millis = ([s, ns]: [number, number]): number => s * 1000 + ns / 1e6;

describe("one execute_tool span per attempt", () => {
  it("a successful call: named for the tool, INTERNAL, GenAI attributes, no error", async () => {
    const events: TraceEvent[] = [];
    const handlers: Handlers = { get_order: () => order };
    const result = await execute("get_order", { customerId: "cus_1" }, handlers, { onTrace: otelOnTrace({ tracer, next: (e) => events.push(e as TraceEvent) }) });
    expect(result.ok).toBe(true);
    expect(spans()).toHaveLength(1);
    const [span] = spans();
    expect(span?.name).toBe("execute_tool get_order");
    expect(span?.kind).toBe(SpanKind.INTERNAL);
    expect(span?.attributes).toEqual({
      [ATTR.operationName]: "execute_tool",
      [ATTR.toolName]: "get_order",
      [ATTR.toolType]: "function",
      [ATTR.toolVersion]: 1,
      [ATTR.attempt]: 1,
      [ATTR.code]: "OK",
      [ATTR.effect]: "none",
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    // The span covers the attempt the trace event measured.
    expect(millis(span!.duration)).toBeCloseTo(events[0]!.durationMs, 0);
  });

  it("a call served over MCP: the protocol generation and revision of its trace event", () => {
    const event: TraceEvent = { tool: "get_order", version: 1, attempt: 1, durationMs: 2, code: "OK", effect: "none", issuePaths: [], protocolEra: "modern", protocolVersion: "2026-07-28" };
    otelOnTrace({ tracer })(event);
    expect(spans()[0]?.attributes).toMatchObject({ [ATTR.protocolEra]: "modern", [ATTR.protocolVersion]: "2026-07-28" });
  });

  it("retries: one span per attempt, with its attempt number and code", async () => {
    const handlers: Handlers = {
      get_order: (_input, ctx) => {
        if (ctx.attempt < 3) throw new TransientError("orders service unavailable");
        return order;
      },
    };
    const result = await execute("get_order", { customerId: "cus_1" }, handlers, { ...noWait, onTrace: otelOnTrace({ tracer }) });
    expect(result.ok).toBe(true);
    expect(spans().map((s) => [s.attributes[ATTR.attempt], s.attributes[ATTR.code], s.attributes[ATTR.errorType], s.status.code])).toEqual([
      [1, "RETRYABLE", "RETRYABLE", SpanStatusCode.ERROR],
      [2, "RETRYABLE", "RETRYABLE", SpanStatusCode.ERROR],
      [3, "OK", undefined, SpanStatusCode.UNSET],
    ]);
    expect(spans()[0]?.attributes[ATTR.errorName]).toBe("TransientError");
  });

  it("invalid input: attempt 0, error.type INVALID_INPUT, and the issue paths", async () => {
    const events: TraceEvent[] = [];
    const onTrace = otelOnTrace({ tracer, next: (e) => events.push(e as TraceEvent) });
    const result = await execute("get_order", { customerId: 42, extra: true }, { get_order: () => order }, { onTrace });
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    const [span] = spans();
    expect(span?.attributes).toMatchObject({ [ATTR.attempt]: 0, [ATTR.errorType]: "INVALID_INPUT", [ATTR.code]: "INVALID_INPUT", [ATTR.effect]: "none" });
    expect([...(span?.attributes[ATTR.issuePaths] as string[])].sort()).toEqual(["customerId", "extra"]);
    expect(span?.attributes[ATTR.issuePaths]).toEqual(events[0]?.issuePaths);
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "INVALID_INPUT" });
  });

  it("a rejection and an unexpected throw are REJECTED and FAILED", async () => {
    const rejecting: Handlers = { get_order: (_input, ctx) => ctx.reject("CUSTOMER_BLOCKED", "blocked") };
    const throwing: Handlers = { get_order: () => { throw new RangeError("bad"); } };
    await execute("get_order", { customerId: "cus_1" }, rejecting, { onTrace: otelOnTrace({ tracer }) });
    await execute("get_order", { customerId: "cus_1" }, throwing, { onTrace: otelOnTrace({ tracer }) });
    expect(spans().map((s) => [s.attributes[ATTR.errorType], s.attributes[ATTR.errorName]])).toEqual([
      ["REJECTED", undefined],
      ["FAILED", "RangeError"],
    ]);
  });
});

describe("no payloads", () => {
  it("no input value, output value, error message or rejection message appears in any span", async () => {
    const secrets = ["cus_SECRET_INPUT", "ord_SECRET_OUTPUT", "SECRET_ERROR_MESSAGE", "SECRET_REJECTION"];
    const handlers: Handlers = {
      get_order: (input, ctx) => {
        if (ctx.attempt === 1) throw new TransientError(secrets[2]!);
        if (ctx.attempt === 2) throw new Error(secrets[2]);
        return { found: true, customerId: input.customerId, orders: [{ id: secrets[1]!, status: "paid" }] };
      },
    };
    const onTrace = otelOnTrace({ tracer });
    await execute("get_order", { customerId: secrets[0]! }, handlers, { ...noWait, onTrace });
    await execute("get_order", { customerId: secrets[0]! }, { get_order: (_i, ctx) => ctx.reject("CUSTOMER_BLOCKED", secrets[3]) }, { onTrace });
    await execute("get_order", { customerId: secrets[0]!, includeHistory: secrets[0] }, handlers, { onTrace });
    expect(spans().length).toBeGreaterThanOrEqual(4);
    const recorded = JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events, links: s.links })));
    for (const secret of secrets) expect(recorded).not.toContain(secret);
  });
});

describe("a broken tracer or hook never ends the call it observes", () => {
  it("the call still returns its result", async () => {
    const broken = { startSpan: () => { throw new Error("exporter down"); } } as unknown as Tracer;
    const onTrace = otelOnTrace({ tracer: broken, next: () => { throw new Error("log sink down"); } });
    const result = await execute("get_order", { customerId: "cus_1" }, { get_order: () => order }, { onTrace });
    expect(result).toEqual({ ok: true, data: order });
  });

  it("a failing `next` does not stop the span", async () => {
    await execute("get_order", { customerId: "cus_1" }, { get_order: () => order }, { onTrace: otelOnTrace({ tracer, next: () => { throw new Error("x"); } }) });
    expect(spans()).toHaveLength(1);
  });
});

describe("the loop guard's refusals and stops", () => {
  it("are spans of their own, with the guard's action and reason, and no argument value", async () => {
    const guard = createLoopGuard();
    const onTrace = otelOnTrace({ tracer });
    const handlers: Handlers = { get_order: () => order };
    await execute("get_order", { customerId: "", includeHistory: "cus_SECRET_ARG" }, handlers, { guard, onTrace });
    await execute("get_order", { customerId: "", includeHistory: "cus_SECRET_ARG" }, handlers, { guard, onTrace });
    await execute("get_order", { customerId: "", includeHistory: "cus_SECRET_ARG2" }, handlers, { guard, onTrace });
    expect(guard.stop?.reason).toBe("CORRECTIONS_SPENT");
    expect(spans().map((s) => [s.attributes[ATTR.code], s.attributes[ATTR.attempt], s.attributes[ATTR.guardAction], s.attributes[ATTR.guardReason]])).toEqual([
      ["INVALID_INPUT", 0, undefined, undefined],
      ["REJECTED", 0, "refused", "REPEATED_CALL"],
      ["INVALID_INPUT", 0, undefined, undefined],
      ["INVALID_INPUT", 0, "stopped", "CORRECTIONS_SPENT"],
    ]);
    expect(spans()[1]?.attributes).toMatchObject({ [ATTR.toolName]: "get_order", [ATTR.toolVersion]: 1, [ATTR.effect]: "none", [ATTR.errorType]: "REJECTED" });
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain("SECRET_ARG");
  });
});
