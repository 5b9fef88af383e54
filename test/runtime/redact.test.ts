/**
 * A value marked x-sensitive never appears in an envelope or a trace event,
 * whichever way the call fails.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "../../generator/runtime/executor.js";
import { collectSecrets, REDACTED, redactError, redactText, Secrets } from "../../generator/runtime/redact.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { chargeCard, getOrder, SECRET, sensitiveOf, TransientError } from "./fixtures.js";

/** Everything a trace sink could print: the event, and the error's message, stack and cause. */
function dump(value: unknown, events: TraceEvent[]): string {
  const errors = events.map((e) => e.error).filter((e): e is Error => e instanceof Error);
  // durationMs is a timing, and a short secret such as a cvc can appear among its digits by chance.
  const timeless = events.map(({ durationMs: _duration, ...rest }) => rest);
  return [JSON.stringify(value), JSON.stringify(timeless), ...errors.flatMap((e) => [e.message, e.stack, String(e.cause)])].join("\n");
}

async function run(handler: Parameters<typeof executeTool<typeof getOrder>>[2], input: unknown = { customerId: "c", apiKey: SECRET }) {
  const events: TraceEvent[] = [];
  const result = await executeTool(getOrder, input, handler, { onTrace: (e) => events.push(e), sleep: async () => {} });
  return { result, events, text: dump(result, events) };
}

describe("collectSecrets", () => {
  it("finds the values the schema marks, in objects, arrays and maps", () => {
    const schema = {
      type: "object",
      properties: {
        card: { type: "object", properties: { number: { type: "string", "x-sensitive": true }, cvc: { type: "integer", "x-sensitive": true } } },
        users: { type: "array", items: { type: "object", properties: { token: { type: "string", "x-sensitive": true } } } },
        map: { type: "object", additionalProperties: { type: "object", properties: { pin: { type: "string", "x-sensitive": true } } } },
        plain: { type: "string" },
      },
    };
    const data = { card: { number: "4242", cvc: 123 }, users: [{ token: "tok-1" }, { token: "tok-2" }], map: { a: { pin: "pin-1" } }, plain: "visible" };
    const found = collectSecrets(data, sensitiveOf(schema, "input"));
    expect([...found.values()].sort()).toEqual(["123", "4242", "pin-1", "tok-1", "tok-2"]);
  });

  it("collects every leaf of a sensitive object, and its keys unless the schema declares them", () => {
    const declared = { type: "object", properties: { creds: { type: "object", properties: { user: { type: "string" }, pass: { type: "array" } }, "x-sensitive": true } } };
    expect([...collectSecrets({ creds: { user: "uname", pass: ["pw-123"] } }, sensitiveOf(declared, "input")).values()].sort()).toEqual(["pw-123", "uname"]);
    const map = { type: "object", properties: { tokens: { type: "object", additionalProperties: { type: "string" }, "x-sensitive": true } } };
    expect([...collectSecrets({ tokens: { sk_live_key: "tok-1" } }, sensitiveOf(map, "input")).values()].sort()).toEqual(["sk_live_key", "tok-1"]);
  });
});

describe("redactText and redactError", () => {
  it("scrubs the longer secret first", () => {
    expect(redactText("abc and abcdef", new Secrets(["abc", "abcdef"]))).toBe(`${REDACTED} and ${REDACTED}`);
  });

  it("scrubs overlapping secrets as one span, so no part of either shows", () => {
    expect(redactText("id=abcdefgh12345678xyz", new Secrets(["abcdefgh1234", "gh12345678xyz"]))).toBe(`id=${REDACTED}`);
  });

  it("keeps the error's class and fields while scrubbing its strings", () => {
    class ApiError extends Error {
      constructor(message: string, readonly body: { detail: string }) { super(message, { cause: new Error(`cause ${SECRET}`) }); }
    }
    const copy = redactError(new ApiError(`bad key ${SECRET}`, { detail: `key=${SECRET}` }), new Secrets([SECRET])) as ApiError;
    expect(copy).toBeInstanceOf(ApiError);
    expect(copy.message).toBe(`bad key ${REDACTED}`);
    expect(copy.body.detail).toBe(`key=${REDACTED}`);
    expect(String((copy.cause as Error).message)).toBe(`cause ${REDACTED}`);
    expect(copy.stack).not.toContain(SECRET);
  });

  it("returns the raw error when there is nothing to scrub", () => {
    const error = new Error("x");
    expect(redactError(error, new Secrets())).toBe(error);
  });
});

describe("a secret in the input never leaves the executor", () => {
  it("in a rejection message", async () => {
    const { result, text } = await run((_i, ctx) => ctx.reject("CUSTOMER_BLOCKED", `key ${SECRET} is blocked`));
    expect(result).toMatchObject({ code: "REJECTED", message: `key ${REDACTED} is blocked` });
    expect(text).not.toContain(SECRET);
  });

  it("in a TransientError message and its trace", async () => {
    const { result, events, text } = await run(() => { throw new TransientError(`upstream refused ${SECRET}`); });
    expect(result).toMatchObject({ code: "RETRYABLE", message: `The tool failed temporarily: upstream refused ${REDACTED}.` });
    expect(events).toHaveLength(3);
    expect(text).not.toContain(SECRET);
  });

  it("in an unexpected error's message, stack and cause", async () => {
    const { result, events, text } = await run(() => { throw new Error(`auth failed for ${SECRET}`, { cause: new Error(SECRET) }); });
    expect(result).toMatchObject({ code: "FAILED" });
    expect((events[0].error as Error).message).toBe(`auth failed for ${REDACTED}`);
    expect(text).not.toContain(SECRET);
  });

  it("in a thrown string", async () => {
    const { events, text } = await run(() => { throw `token ${SECRET}`; });
    expect(events[0].error).toBe(`token ${REDACTED}`);
    expect(text).not.toContain(SECRET);
  });

  it("when the input is invalid", async () => {
    const { result, text } = await run(() => ({}) as never, { customerId: 1, apiKey: SECRET, [SECRET]: SECRET });
    expect(result).toMatchObject({ code: "INVALID_INPUT" });
    expect(text).not.toContain(SECRET);
  });

  it("when the output is invalid", async () => {
    const { result, text } = await run(() => ({ found: true, customerId: SECRET, orders: [], echo: SECRET }) as never);
    expect(result).toMatchObject({ code: "INVALID_OUTPUT" });
    expect(text).not.toContain(SECRET);
  });

  it("for nested sensitive fields such as card details", async () => {
    const events: TraceEvent[] = [];
    const input = { requestId: "r", amountCents: 1, card: { number: "4242424242424242", cvc: "987" } };
    const result = await executeTool(chargeCard, input, () => { throw new Error("card 4242424242424242 cvc 987 declined"); }, { onTrace: (e) => events.push(e) });
    const text = dump(result, events);
    expect(text).not.toContain("4242424242424242");
    expect(text).not.toContain("987");
  });
});
