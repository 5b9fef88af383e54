/**
 * No secret leaks: delete_customer's `adminToken` is `x-sensitive`. A
 * generated secret goes into the input (as the token, and sometimes also as
 * an extra key), the handler fails in every way it can while mentioning the
 * secret, and the secret must appear in no string of the envelope or of any
 * trace event (an Error's non-enumerable message and stack included). The
 * same holds for a secret anywhere in a recursive type, at any depth, under
 * any `$defs` name.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contracts, execute, TransientError, type Handlers, type TraceEvent } from "../../generated/index.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { defsRef } from "../../generator/runtime/pointer.js";
import { contractsFromYaml } from "../runtime/yaml-contracts.js";
import { runs, timeoutFor } from "./config.js";
import { envelopeProblems } from "./envelope-check.js";
import { containsString } from "./harness.js";
import { ownObject } from "../soundness/schema-arbitrary.js";

/** Distinctive, so it cannot occur by chance in a fixed message; alphanumeric, so JSON escaping cannot hide it. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{6,40}$/).map((s) => `zQ${s}`);

type Failing = (s: string, ctx: { reject(r: string, m?: string): never }) => unknown;

/** Handler behaviours that put the secret somewhere a careless runtime would pass on. */
const FAILINGS: Record<string, Failing> = {
  throwError: (s) => { throw new Error(`token ${s} refused`); },
  throwTransient: (s) => { throw new TransientError(`upstream said ${s}`); },
  throwString: (s) => { throw `raw ${s}`; },
  throwObject: (s) => { throw { token: s, nested: [s] }; },
  rejectPromise: (s) => Promise.reject(new Error(s)),
  rejectDeclared: (s, ctx) => ctx.reject("HAS_OPEN_ORDERS", `open orders for ${s}`),
  rejectUndeclared: (s, ctx) => ctx.reject(`NOPE_${s}`, s),
  badOutputValue: (s) => ({ deleted: s, customerId: 1 }),
  badOutputKey: (s) => ownObject([["deleted", true], ["customerId", "c"], [s, s]]),
  nonJsonOutput: (s) => ({ deleted: true, customerId: "c", when: new Date(), note: () => s }),
  errorWithCause: (s) => { throw new Error("wrapped", { cause: new Error(s) }); },
};

const scenario = fc.record({
  secret,
  failing: fc.constantFrom(...Object.keys(FAILINGS)),
  extraKey: fc.boolean(),
  breakInput: fc.constantFrom("no", "customerId", "confirm", "short"),
});

function inputFor(s: string, extraKey: boolean, breakInput: string): unknown {
  const entries: [string, unknown][] = [["customerId", "cus_1"], ["confirm", true], ["adminToken", s]];
  if (breakInput === "customerId") entries[0][1] = 42;
  if (breakInput === "confirm") entries[1][1] = false;
  if (breakInput === "short") entries.push(["adminToken2", s.slice(0, 3)]);
  if (extraKey) entries.push([s, s]);
  return ownObject(entries);
}

const N = runs();

describe("secret redaction fuzz", () => {
  it(`a sensitive input value appears in no envelope or trace (${N} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ secret: s, failing, extraKey, breakInput }) => {
        const traces: TraceEvent[] = [];
        let calls = 0;
        const handlers = { delete_customer: (_i: unknown, ctx: never) => (calls++, FAILINGS[failing](s, ctx)) } as unknown as Handlers;
        const result = await execute("delete_customer", inputFor(s, extraKey, breakInput), handlers, { onTrace: (e) => traces.push(e), sleep: async () => {} });
        expect(result.ok).toBe(false);
        expect(envelopeProblems(result, contracts.delete_customer, calls)).toEqual([]);
        expect(JSON.stringify(result).includes(s)).toBe(false);
        expect(containsString(result, s)).toBe(false);
        for (const t of traces) expect(containsString(t, s)).toBe(false);
      }),
      { numRuns: N },
    );
  }, timeoutFor(N, 5));
});

/** `$defs` names that need escaping in a pointer (`/` is `~1`, `~` is `~0`, `%` and spaces are percent-encoded). */
const DEF_NAMES = ["Tree", "api/key", "a~b", "two words", "100%"];

/** One recursive tool per `$defs` name: a tree whose nodes carry a secret, its children and a sensitive map. */
const trees = contractsFromYaml(Object.fromEntries(DEF_NAMES.map((name, i) => [`tree${i}.yaml`, `name: tree${i}
version: 1
description: A tree.
effect: read
input:
  type: object
  properties:
    root: { $ref: ${JSON.stringify(defsRef(name))} }
  $defs:
    ${JSON.stringify(name)}:
      type: object
      properties:
        label: { type: string, maxLength: 64 }
        secret: { type: string, maxLength: 64, x-sensitive: true }
        vault: { type: object, maxProperties: 4, additionalProperties: { type: string, maxLength: 64 }, x-sensitive: true }
        children: { type: array, maxItems: 4, items: { $ref: ${JSON.stringify(defsRef(name))} } }
output: { type: object }
errors:
  REFUSED: { description: Refused. }
`])));

/** A chain of `depth` tree nodes; the last one carries the secret as a value and as a key of its sensitive map. */
function treeWith(secret: string, depth: number, asKey: boolean, siblings: number): unknown {
  let node: Record<string, unknown> = asKey ? { label: "leaf", vault: { [secret]: "x" } } : { label: "leaf", secret };
  for (let i = 0; i < depth; i++) node = { label: `n${i}`, children: [...Array.from({ length: siblings }, (_, j) => ({ label: `s${j}` })), node] };
  return { root: node };
}

const treeScenario = fc.record({
  secret,
  tool: fc.integer({ min: 0, max: DEF_NAMES.length - 1 }),
  // Each level is two levels of data (an object, then its children array); the copy allows 256.
  depth: fc.integer({ min: 0, max: 120 }),
  asKey: fc.boolean(),
  siblings: fc.integer({ min: 0, max: 2 }),
  failing: fc.constantFrom("reject", "transient", "throw", "badInput"),
});

describe("secret redaction fuzz: recursion, depth and escaped names", () => {
  const n = runs(2);
  it(`a secret anywhere in a recursive type under any $defs name appears in no envelope or trace (${n} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(treeScenario, async ({ secret: s, tool, depth, asKey, siblings, failing }) => {
        const contract = trees[`tree${tool}`]!;
        const input = treeWith(s, depth, asKey, siblings) as { root: Record<string, unknown> };
        // A bad input: a label that breaks maxLength at the top, so the secret sits in invalid input.
        if (failing === "badInput") input.root.label = "x".repeat(100);
        const traces: TraceEvent[] = [];
        const handler = (_i: unknown, ctx: { reject(r: string, m: string): never }) => {
          if (failing === "reject") return ctx.reject("REFUSED", `refused ${s}`);
          if (failing === "transient") throw new TransientError(`upstream said ${s}`);
          throw new Error(`boom ${s}`, { cause: new Error(s) });
        };
        const result = await executeTool(contract, input, handler as never, { onTrace: (e) => traces.push(e), sleep: async () => {} });
        expect(result.ok).toBe(false);
        expect(containsString(result, s)).toBe(false);
        for (const t of traces) expect(containsString(t, s)).toBe(false);
      }),
      { numRuns: n },
    );
  }, timeoutFor(n, 10));
});
