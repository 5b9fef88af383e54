/**
 * No secret leaks: delete_customer's `adminToken` is `x-sensitive`. A
 * generated secret goes into the input (as the token, and sometimes also as
 * an extra key), the handler fails in every way it can while mentioning the
 * secret, and the secret must appear in no string of the envelope or of any
 * trace event (an Error's non-enumerable message and stack included). The
 * same holds for a secret anywhere in a recursive type, at any depth, under
 * any `$defs` name; the one-pass matcher scrubs exactly what a search for
 * each form of each secret finds; and a call past the cap leaks nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contracts, execute, TransientError, type Handlers, type TraceEvent } from "../../generated/index.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { defsRef } from "../../generator/schema/pointer.js";
import { MAX_SECRETS, MIN_SECRET_LENGTH, MIN_SUBSTRING_SECRET_LENGTH, REDACTED, Secrets } from "../../generator/runtime/redact.js";
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

/**
 * The matcher against the simplest correct search: every form of every
 * secret found by its own case-insensitive regex, each match checked for the
 * whole-token rule, and the matched characters unioned.
 */
function naiveRedact(text: string, secrets: readonly string[]): string {
  const covered = new Array<boolean>(text.length).fill(false);
  const word = /[\p{L}\p{N}]/u;
  const wordAt = (i: number) => i >= 0 && i < text.length && word.test(text[i]!);
  for (const value of secrets) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
      const pattern = new RegExp(form.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "giu");
      for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
        const start = found.index;
        const end = start + found[0].length;
        pattern.lastIndex = start + 1;
        if (found[0].length < MIN_SUBSTRING_SECRET_LENGTH && (wordAt(start - 1) || wordAt(end))) continue;
        for (let i = start; i < end; i++) covered[i] = true;
      }
    }
  }
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += REDACTED;
  }
  return out;
}

describe("the one-pass matcher", () => {
  const n = runs();
  // ASCII and a few letters whose case the regex engine and the matcher fold alike; overlaps are likely on a small alphabet.
  const unit = fc.constantFrom(..."aAbB1 -_/%\"é".split(""), "É", "ß", "Ω", "ω");
  const value = fc.string({ unit, minLength: 3, maxLength: 16 });
  /**
   * Secrets, some of them pieces of others (a secret inside another is what
   * failure links are for), and the beginnings of the others up to where
   * each piece ends, where a text ends a piece in the middle of another.
   */
  const secrets = fc.array(value, { minLength: 1, maxLength: 6 }).chain((base) =>
    fc
      .array(fc.tuple(fc.constantFrom(...base), fc.nat(), fc.nat()), { maxLength: 3 })
      .map((cuts) => {
        const pieces = cuts.map(([v, a, b]) => ({ from: v, start: a % v.length, end: Math.min(v.length, (a % v.length) + 3 + (b % 10)) })).filter((p) => p.end - p.start >= 3);
        return { values: [...base, ...pieces.map((p) => p.from.slice(p.start, p.end))], prefixes: pieces.map((p) => p.from.slice(0, p.end)) };
      }),
  );

  /** A text made of the secrets in their forms, their beginnings and ends (so partial matches overlap whole ones), and filler. */
  const textOf = (values: string[], prefixes: string[]) => {
    const pick = fc.constantFrom(...values);
    const part = fc.oneof(
      pick,
      pick.map(encodeURIComponent),
      pick.map((v) => JSON.stringify(v).slice(1, -1)),
      fc.tuple(pick, fc.nat()).map(([v, k]) => v.slice(0, k % v.length)),
      fc.tuple(pick, fc.nat()).map(([v, k]) => v.slice(k % v.length)),
      prefixes.length === 0 ? pick : fc.constantFrom(...prefixes),
      fc.string({ unit, maxLength: 4 }),
    );
    return fc.array(part, { maxLength: 10 }).map((parts) => parts.join(""));
  };
  const scenario = secrets.chain(({ values, prefixes }) => fc.record({ values: fc.constant(values), text: textOf(values, prefixes), shout: fc.boolean() }));

  it(`scrubs exactly what a search for each form of each secret finds (${n} runs)`, () => {
    fc.assert(
      fc.property(scenario, ({ values, text, shout }) => {
        const cased = shout ? text.toUpperCase() : text;
        if (cased.length !== text.length) return;
        expect(new Secrets(values).redact(cased)).toBe(naiveRedact(cased, values));
      }),
      { numRuns: n },
    );
  });

  it("a call with more sensitive values than the cap reports none of its free text, and leaks none of them", async () => {
    const [vault] = Object.values(contractsFromYaml({
      "vault.yaml": "name: vault\nversion: 1\ndescription: A vault.\neffect: read\ninput:\n  type: object\n  properties:\n    tokens: { type: object, maxProperties: 100000, additionalProperties: { type: string, maxLength: 40, x-sensitive: true } }\noutput: { type: object }\nerrors:\n  REFUSED: { description: Refused. }\n",
    }));
    const tokens: Record<string, string> = {};
    for (let i = 0; i < MAX_SECRETS * 3; i++) tokens[`k${i}`] = i < 50 ? `zQ-too-long-${i}-${"x".repeat(40)}` : `zQ-token-${i}`;
    const traces: TraceEvent[] = [];
    const invalid = await executeTool(vault!, { tokens }, () => ({}), { onTrace: (e) => traces.push(e) });
    expect(invalid).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(invalid.ok === false && invalid.issues?.every((i) => i.path === REDACTED && i.message === REDACTED)).toBe(true);
    delete tokens.k0;
    for (let i = 1; i < 50; i++) delete tokens[`k${i}`];
    const rejected = await executeTool(vault!, { tokens }, (_i, ctx) => ctx.reject("REFUSED", `refused zQ-token-${MAX_SECRETS * 2}`), { onTrace: (e) => traces.push(e) });
    expect(rejected).toMatchObject({ ok: false, code: "REJECTED", message: REDACTED });
    expect(JSON.stringify([invalid, rejected, traces])).not.toContain("zQ-");
  });
});
