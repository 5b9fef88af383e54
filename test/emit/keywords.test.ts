/**
 * The keywords toolc defines itself (enum, const, minLength, maxLength; see
 * generator/ajv.ts) must give what Ajv's own give: the same verdicts, and the
 * same errors in the same order (instancePath, keyword, params), which the
 * executor turns into INVALID_INPUT issues. Checked against a stock Ajv2020,
 * in process and through the standalone module toolc writes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { standaloneModule } from "../../generator/emit/validators.js";
import type { JsonObject } from "../../generator/ir.js";
import { writeValidatorRuntime } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const BIG = Array.from({ length: 250 }, (_, i) => `v${i}`);

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    small: { enum: ["a", 1, null, true, { k: [1] }, [2]] },
    big: { enum: [...BIG, 7, { k: 1 }] },
    fixed: { const: { k: [1, { z: null }] } },
    word: { const: "x" },
    name: { type: "string", minLength: 2, maxLength: 3, pattern: "^[a-z]+$", format: "email" },
  },
  additionalProperties: false,
};

const VALUES: unknown[] = [
  {},
  { small: "a", big: "v249", fixed: { k: [1, { z: null }] }, word: "x", name: "ab" },
  { small: { k: [1] }, big: { k: 1 }, name: "\u{1F600}\u{1F600}" },
  { small: [2], big: 7 },
  { small: "b", big: "v250", fixed: { k: [1] }, word: "y", name: "A" },
  { small: { k: [2] }, big: { k: 2 }, fixed: [1], word: null, name: "ABCDE" },
  { small: 2, big: 8, name: "\u{1F600}" },
  { name: "\u{1F600}\u{1F600}\u{1F600}\u{1F600}" },
];

const strip = (errors: unknown) => (errors as { instancePath: string; keyword: string; params: unknown }[] | null | undefined)?.map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params })) ?? null;

let dir: string | undefined;
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("toolc's enum, const, minLength and maxLength", () => {
  const stock = new Ajv2020({ allErrors: true, messages: false, allowUnionTypes: true, ownProperties: true, validateFormats: false }).compile(SCHEMA);

  it("give Ajv's verdicts and errors in process", () => {
    const ours = createAjv({ applyDefaults: false }).compile(SCHEMA);
    for (const value of VALUES) {
      // Formats aside (the stock instance has none), every error matches.
      const mine = strip(ours(structuredClone(value)) ? null : ours.errors)?.filter((e) => e.keyword !== "format") ?? null;
      expect(stock(structuredClone(value)), JSON.stringify(value)).toBe(mine === null || mine.length === 0);
      expect(mine?.length ? mine : null, JSON.stringify(value)).toEqual(strip(stock.errors));
    }
  });

  it("give Ajv's verdicts and errors in the standalone module", async () => {
    dir = mkdtempSync(join(tmpdir(), "toolc-keywords-"));
    writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeValidatorRuntime(dir);
    mkdirSync(join(dir, "validators"));
    const file = join(dir, "validators", "keywords.js");
    writeFileSync(file, standaloneModule([{ exportName: "validate", schema: SCHEMA, applyDefaults: false }]));
    const { validate } = (await import(pathToFileURL(file).href)) as { validate: ((d: unknown) => boolean) & { errors?: unknown } };
    for (const value of VALUES) {
      const mine = strip(validate(structuredClone(value)) ? null : validate.errors)?.filter((e) => e.keyword !== "format") ?? null;
      expect(stock(structuredClone(value)), JSON.stringify(value)).toBe(mine === null || mine.length === 0);
      expect(mine?.length ? mine : null, JSON.stringify(value)).toEqual(strip(stock.errors));
    }
  });
});
