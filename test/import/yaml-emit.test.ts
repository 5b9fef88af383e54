/**
 * The contract writer's fast path (generator/import/yaml-emit.ts) against the
 * `yaml` library's Document writer it stands in for: the same bytes on any
 * contract-shaped value and on the contracts of published descriptions, and
 * a text it vouches for reads back as the contract, so skipping the parse
 * for it loses nothing.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importOpenApi } from "../../generator/import/openapi/index.js";
import { contractFile, libraryYaml } from "../../generator/import/yaml.js";
import { commentVouched, emitYaml } from "../../generator/import/yaml-emit.js";
import type { JsonObject } from "../../generator/ir.js";
import { runs, timeoutFor } from "../fuzz/config.js";
import { CORPUS } from "./openapi/real-world-specs.js";
import { fixtureSpec, scratchProject } from "./openapi/helpers.js";

/** Pieces a YAML writer must keep or quote: indicators, line breaks of every kind, white space a reader trims, prose it folds. */
const piece = fc.oneof(
  fc.constantFrom(
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    "#",
    " #",
    ": ",
    ":",
    "- ",
    "-",
    "? ",
    "'",
    '"',
    "\\",
    "|",
    ">",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a",
    "*a",
    "!x",
  ),
  fc.constantFrom(
    "%",
    "@",
    "`",
    "---",
    "...",
    "null",
    "~",
    "true",
    "1.5",
    "0x1F",
    "+1",
    "-0",
    "1e3",
    "__proto__",
    "\u2028",
    "\u0085",
    "\u00a0",
    "\ufeff",
    "é",
    "’",
    "–",
    "😀",
    "\ud800",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 10 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.stringMatching(/^[A-Za-z]{60,130}$/),
  fc.array(fc.stringMatching(/^[a-z`*.,()-]{1,12}$/), { minLength: 4, maxLength: 40 }).map((words) => words.join(" ")),
);
const hostile = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
/** Prose as descriptions have it: printable words, some not ASCII, between spaces, line breaks and blank lines. */
const words = fc.array(fc.oneof(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 14 }), fc.constantFrom("é", "’", "–", "—", "ä")), {
  minLength: 1,
  maxLength: 40,
});
const prose = fc
  .tuple(words, fc.array(fc.constantFrom(" ", " ", " ", "\n", "\n\n", "  "), { minLength: 40, maxLength: 40 }))
  .map(([ws, gaps]) => ws.map((w, i) => (i === 0 ? w : gaps[i]! + w)).join(""));
const text = fc.oneof(hostile, prose);
/** Keys as contracts have them, and ones no reader takes as plain: long, quoted, empty, `description` (a block scalar's key). */
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("description", "type", "enum", "default", "examples", "properties", "x") },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z_]{50,70}$/) },
);
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 2 ** 60, 0.1, Number.MAX_SAFE_INTEGER + 2));
const scalar = fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: number }, { weight: 1, arbitrary: fc.constantFrom(null, true, false) });

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("list"), tie("map")),
  list: fc.oneof(fc.array(scalar, { maxLength: 5 }), fc.array(tie("value"), { maxLength: 4 })),
  map: fc.dictionary(key, tie("value"), { maxKeys: 5, noNullPrototype: true }),
}));
/** A contract: a mapping at the root, with descriptions where contracts have them. */
const contract = fc
  .tuple(fc.dictionary(key, value, { maxKeys: 6, noNullPrototype: true }), text, fc.array(text, { maxLength: 4 }))
  .map(
    ([body, description, list]) => ({ name: "t", description, ...body, input: { type: "object", description, enum: list, properties: body } }) as JsonObject,
  );

describe("the fast contract writer", () => {
  it(
    "prints what the yaml library's Document writer prints, descriptions as block scalars or double-quoted",
    () => {
      const n = runs(2);
      fc.assert(
        fc.property(contract, fc.boolean(), (c, blocks) => {
          expect(emitYaml(c, blocks)?.text).toBe(libraryYaml(c, blocks));
        }),
        { numRuns: n },
      );
    },
    timeoutFor(runs(2), 20),
  );

  it(
    "vouches only for a text that reads back as the contract",
    () => {
      const n = runs(2);
      let vouched = 0;
      fc.assert(
        fc.property(contract, (c) => {
          const emitted = emitYaml(c, true)!;
          if (!emitted.vouched) return;
          vouched++;
          expect(isDeepStrictEqual(parse(emitted.text, { uniqueKeys: false }), c)).toBe(true);
        }),
        { numRuns: n },
      );
      // The property is about something: the generator's contracts are vouched for often enough.
      expect(vouched).toBeGreaterThan(n / 10);
    },
    timeoutFor(runs(2), 20),
  );

  it(
    "vouches for a scalar of any printable text in each place it is written: a key, a value, a list item, a flow list item, a description",
    () => {
      fc.assert(
        fc.property(prose, fc.stringMatching(/^[a-z]{1,70}$/), (s, k) => {
          for (const c of [{ [s]: 1 }, { [k]: s }, { description: s }, { a: { [k]: { description: s } } }, { l: [s, s, { [k]: s }, [s]] }, { l: [s] }] as JsonObject[]) {
            const emitted = emitYaml(c, true)!;
            expect(emitted.text).toBe(libraryYaml(c, true));
            if (emitted.vouched) expect(isDeepStrictEqual(parse(emitted.text, { uniqueKeys: false }), c), emitted.text).toBe(true);
          }
        }),
        { numRuns: runs() },
      );
    },
    timeoutFor(runs(), 20),
  );

  it("does not vouch for a string the library writes so that it reads back as another, and the read-back finds it", () => {
    for (const s of [" \n", " \n\n"]) {
      for (const c of [{ l: [s] }, { v: s }, { description: s }] as JsonObject[]) {
        expect(isDeepStrictEqual(parse(libraryYaml(c, true)), c)).toBe(false);
        expect(emitYaml(c, true)?.vouched).toBe(false);
      }
      expect(() => contractFile({ name: "t", contract: { l: [s] }, notes: [] }, "definitions")).toThrow(/does not read back as the contract at \/l\/0 /);
      const described = contractFile({ name: "t", contract: { description: s }, notes: [] }, "definitions");
      expect(described.parsed).toBe(true);
      expect(parse(described.text)).toEqual({ description: s });
    }
  });

  it("leaves what plain JSON cannot hold to the library's writer, whose reading back reports it", () => {
    expect(emitYaml({ a: undefined }, true)).toBeUndefined();
    // eslint-disable-next-line no-sparse-arrays -- a hole is the point
    expect(emitYaml({ a: [1, , 2] }, true)).toBeUndefined();
    expect(emitYaml({ a: new Date(0) }, true)).toBeUndefined();
    expect(emitYaml({ a: 1n }, true)).toBeUndefined();
    expect(emitYaml({ a: Object.create(null) as object }, true)).toBeUndefined();
    expect(emitYaml({ [`k${"x".repeat(1100)}`]: 1 }, true)).toBeUndefined();
    expect(emitYaml([1], true)).toBeUndefined();
    expect(() => contractFile({ name: "t", contract: { a: [undefined] } as unknown as JsonObject, notes: [] }, "definitions")).toThrow(
      /does not read back as the contract at \/a\/0 /,
    );
  });

  it("parses back a contract only when a scalar or comment is not vouched for", () => {
    const plain = {
      name: "t",
      description: "A tool.\n\nIt does `things`: many.\n",
      input: { type: "object", properties: { x: { type: "string", enum: ["a", "b"] } } },
    };
    expect(contractFile({ name: "t", contract: plain, notes: ["from GET /t"] }, "definitions").parsed).toBe(false);
    expect(contractFile({ name: "t", contract: { ...plain, title: "tab\there" }, notes: [] }, "definitions").parsed).toBe(true);
    expect(contractFile({ name: "t", contract: plain, notes: ["a\u0007bell"] }, "definitions").parsed).toBe(true);
    expect(commentVouched("# toolc import: from GET /t")).toBe(true);
    expect(commentVouched("# a\ufeffb")).toBe(false);
  });
});

describe("the fast contract writer on published descriptions", () => {
  const dir = scratchProject("yaml-emit");
  const specs = [
    ["twilio", join(CORPUS, "twilio/twilio_api_v2010.json")],
    ["shipengine", join(CORPUS, "shipengine/openapi.yaml")],
    ["slack", fixtureSpec("slack", dir)],
    ["blockfrost", fixtureSpec("blockfrost", dir)],
  ] as const;

  it.each(specs)(
    "%s: every contract printed byte for byte as the library prints it",
    async (name, spec) => {
      const result = await importOpenApi({ spec, out: "definitions", generated: "generated", handlers: "h.ts", curation: "none.yaml", cwd: dir, dryRun: true });
      expect(result.tools.length).toBeGreaterThan(0);
      let parsed = 0;
      for (const tool of result.tools) {
        for (const blocks of [true, false]) expect(emitYaml(tool.contract, blocks)?.text, tool.name).toBe(libraryYaml(tool.contract, blocks));
        if (contractFile({ name: tool.name, contract: tool.contract, notes: tool.notes }, join(dir, "definitions")).parsed) parsed++;
      }
      // Nearly every contract is written without a parse (GitHub's: 4 of 1,223).
      expect(parsed, name).toBeLessThan(result.tools.length / 10);
    },
    120_000,
  );
});
