/**
 * Chaos for the border findings, so that none of them reopens: linear
 * uniqueItems agrees with pairwise equality, inherited names stay ordinary
 * keys, the wire carries exactly the validated value, any thrown value is a
 * counted and traced attempt, execute never throws whatever it is given,
 * transformed secrets are scrubbed, JSON pointers decode in RFC 6901
 * order, and decimal multiples are decided on their digits. Run counts come from config.ts (modest in CI; `npm run fuzz` for
 * long runs).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { executeByName } from "../../generator/runtime/dispatch.js";
import { duplicateItems, equal } from "../../generator/runtime/equal.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { decimalOf, isMultipleOf } from "../../generator/runtime/multiple.js";
import { fragmentTokens, pointerTokens } from "../../generator/schema/pointer.js";
import { REDACTED, redactText, Secrets } from "../../generator/runtime/redact.js";
import { toCallResult } from "../../generator/runtime/server.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { runs, timeoutFor } from "./config.js";
import { hostileValue, prototypeSnapshot } from "./hostile.js";

const N = runs(2, 50);
const INHERITED = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "toJSON", "then", "isPrototypeOf"];

function openContract(): AnyToolContract {
  const input = { type: "object" };
  const output = { type: "object" };
  return {
    name: "open",
    version: 1,
    effect: "read",
    idempotent: true,
    timeoutMs: 1000,
    retry: { attempts: 2, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
    errors: {},
    inputSchema: input,
    outputSchema: output,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: {},
    sensitive: { input: [], output: [] },
    validators: { validateInput: createAjv({ applyDefaults: true }).compile(input), validateOutput: createAjv({ applyDefaults: false }).compile(output) },
  };
}

/** JSON values whose keys are often names that live on Object.prototype. */
const key = fc.oneof(fc.constantFrom(...INHERITED), fc.string({ maxLength: 4 }));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -3, max: 3 }),
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
})).value;

function pairwise(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return true;
  return false;
}

describe("chaos at the border", () => {
  it(`linear uniqueItems finds a duplicate exactly when pairwise equality does (${N} runs)`, () => {
    const items = fc
      .array(json, { maxLength: 12 })
      .chain((base) => fc.oneof(fc.constant(base), fc.constant([...base, ...base.slice(0, 1)]), fc.constant([...base].reverse().concat(base))));
    fc.assert(
      fc.property(items, (list) => {
        const found = duplicateItems(list);
        expect(found !== undefined).toBe(pairwise(list));
        if (found !== undefined) {
          expect(found.j).toBeLessThan(found.i);
          expect(equal(list[found.i], list[found.j])).toBe(true);
        }
      }),
      { numRuns: N },
    );
  });

  it(
    `inherited names are ordinary keys, and what the handler gets, returns and the wire carries agree (${N} runs)`,
    async () => {
      const contract = openContract();
      const proto = prototypeSnapshot();
      await fc.assert(
        fc.asyncProperty(fc.dictionary(key, json, { maxKeys: 6 }), fc.dictionary(key, json, { maxKeys: 6 }), async (input, output) => {
          const wireInput = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
          const wireOutput = JSON.parse(JSON.stringify(output)) as Record<string, unknown>;
          let seen: unknown;
          const result = await executeTool(contract, wireInput, (value) => {
            seen = value;
            const decorated = { ...wireOutput };
            // A non-enumerable toJSON, unless the output carries "toJSON" as plain data (which must survive as data).
            if (!Object.hasOwn(decorated, "toJSON")) Object.defineProperty(decorated, "toJSON", { value: () => ({ leaked: true }), enumerable: false });
            return decorated;
          });
          expect(Object.keys(seen as object).sort()).toEqual(Object.keys(wireInput).sort());
          expect(JSON.parse(JSON.stringify(seen))).toEqual(wireInput);
          expect(result.ok).toBe(true);
          const call = toCallResult(result);
          const text = (call.content[0] as { text: string }).text;
          expect(text).not.toContain('"leaked"');
          expect(JSON.parse(text)).toEqual(wireOutput);
          expect(JSON.parse(JSON.stringify(call.structuredContent))).toEqual(JSON.parse(text));
          expect(prototypeSnapshot()).toBe(proto);
        }),
        { numRuns: N },
      );
    },
    timeoutFor(N),
  );

  it(
    `any thrown value is a counted, traced attempt (${N} runs)`,
    async () => {
      const contract = openContract();
      await fc.assert(
        fc.asyncProperty(hostileValue, fc.boolean(), async (thrown, asRejection) => {
          const events: TraceEvent[] = [];
          const handler = asRejection
            ? () => Promise.reject(thrown)
            : () => {
                throw thrown;
              };
          const result = await executeTool(contract, {}, handler, { onTrace: (e) => events.push(e), sleep: async () => {} });
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.attempts).toBeGreaterThanOrEqual(1);
          expect(events.map((e) => e.attempt)).toEqual(Array.from({ length: result.attempts }, (_, i) => i + 1));
        }),
        { numRuns: N },
      );
    },
    timeoutFor(N),
  );

  it(
    `execute never throws or rejects, whatever it is given (${N} runs)`,
    async () => {
      const contract = openContract();
      const anything = fc.oneof(fc.anything(), hostileValue, fc.constant(null), fc.constant(undefined));
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constant("open"), anything), anything, anything, anything, async (name, input, handlers, options) => {
          let promise: Promise<unknown> | undefined;
          expect(() => (promise = executeByName({ open: contract }, name as never, input, handlers as never, options as never))).not.toThrow();
          const result = (await promise) as { ok: unknown };
          expect(typeof result.ok).toBe("boolean");
        }),
        { numRuns: N },
      );
    },
    timeoutFor(N),
  );

  it(`a secret is scrubbed as it is, URL-encoded, JSON-escaped or upper-cased (${N} runs)`, () => {
    const secret = fc.string({ minLength: 8, maxLength: 24, unit: "grapheme-ascii" }).filter((s) => s.trim().length >= 8);
    const form = fc.constantFrom<(s: string) => string>(
      (s) => s,
      encodeURIComponent,
      (s) => JSON.stringify(s).slice(1, -1),
      (s) => s.toUpperCase(),
    );
    fc.assert(
      fc.property(secret, form, fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (value, transform, before, after) => {
        const shown = transform(value);
        const out = redactText(`${before}${shown}${after}`, new Secrets([value]));
        expect(out).toContain(REDACTED);
        expect(out.includes(shown)).toBe(false);
      }),
      { numRuns: N },
    );
  });

  it(`JSON pointers decode in RFC 6901 order: percent-decoding, then ~1, then ~0 (${N} runs)`, () => {
    const token = fc.string({ maxLength: 6, unit: fc.constantFrom("~", "/", "0", "1", "%", "a", "é", " ") });
    fc.assert(
      fc.property(fc.array(token, { maxLength: 4 }), (tokens) => {
        const pointer = tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
        expect(pointerTokens(pointer)).toEqual(tokens);
        expect(fragmentTokens(encodeURIComponent(pointer).replace(/%2F/g, "/"))).toEqual(tokens);
      }),
      { numRuns: N },
    );
    // `~01` is `~1`, never `/`: ~1 is decoded before ~0.
    expect(pointerTokens("/~01")).toEqual(["~1"]);
    expect(fragmentTokens("/a%7E1b")).toEqual(["a/b"]);
  });

  it(`multipleOf agrees with exact decimal arithmetic, and every decimal multiple of a decimal step passes (${N} runs)`, () => {
    // A step of d × 10^-k, and values written in decimals: multiples k·step, and anything at all.
    const step = fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 9 })).map(([d, k]) => Number(`${d}e-${k}`));
    // A whole step is decided on the double itself, exactly: beyond 2^53 a whole double is the integer the
    // caller wrote whenever that integer has a binary form (2^60 prints as 1152921504606847000, which is not
    // what was sent). A decimal step is decided on the decimal digits, as runtime/multiple.ts documents.
    const exact = (value: number, by: number): boolean => {
      if (Number.isInteger(by)) return Number.isInteger(value) && BigInt(value) % BigInt(by) === BigInt(0);
      const [v, s] = [decimalOf(value), decimalOf(by)];
      const scale = Math.max(v.scale, s.scale, 0);
      return BigInt(v.digits + "0".repeat(scale - v.scale)) % BigInt(s.digits + "0".repeat(scale - s.scale)) === BigInt(0);
    };
    const ajv = createAjv({ applyDefaults: false });
    const compiled = new Map<number, (data: unknown) => boolean>();
    const validator = (by: number) => compiled.get(by) ?? compiled.set(by, ajv.compile({ type: "number", multipleOf: by })).get(by)!;
    fc.assert(
      fc.property(step, fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true, noDefaultInfinity: true }), (by, k, any) => {
        const { digits, scale } = decimalOf(by);
        const multiple = Number(`${BigInt(k) * BigInt(digits)}e-${scale}`);
        expect(isMultipleOf(multiple, by)).toBe(true);
        expect(isMultipleOf(any, by)).toBe(exact(any, by));
        const validate = validator(by);
        expect(validate(multiple)).toBe(true);
        expect(validate(any)).toBe(exact(any, by));
      }),
      { numRuns: N },
    );
    // Found by an unseeded run in CI: 17 significant digits, a multiple of 91 as written, not as the double it is.
    expect(isMultipleOf(-1.0285892248116758e62, 91)).toBe(exact(-1.0285892248116758e62, 91));
    expect(isMultipleOf(2 ** 60, 3)).toBe(false);
    expect(ajv.compile({ type: "number", multipleOf: 4 })(2 ** 60)).toBe(true);
  });
});
