/**
 * Adversarial inputs up to the 4 MB body cap, through toolc's own Ajv
 * configuration: each case doubles the body from 0.5 MB to 4 MB, and a
 * validator linear in its input keeps the time per MB flat. The cases are the
 * shapes that used to be quadratic (uniqueItems over items of no single
 * scalar type) or that backtrack (a long string that almost matches a
 * pattern), plus the whole executor path (parse, copy, validate).
 *
 * Run alone: npx tsx bench/adversarial.ts
 */
import { createAjv } from "../generator/ajv.js";
import { copyJson } from "../generator/runtime/json.js";
import { bestOf } from "./lib/measure.js";

const MB = 1024 * 1024;
const SIZES_MB = [0.5, 1, 2, 4];

interface Case {
  readonly name: string;
  readonly schema: object;
  /** A body of about `bytes` bytes of JSON. */
  readonly body: (bytes: number) => unknown;
}

const distinctObjects = (bytes: number): unknown => ({ items: Array.from({ length: Math.floor(bytes / 12) }, (_, i) => ({ id: i })) });
const distinctStatuses = (bytes: number): unknown => ({ items: Array.from({ length: Math.floor(bytes / 10) }, (_, i) => `s${i}`) });

const CASES: Case[] = [
  {
    name: "uniqueItems, distinct objects (valid)",
    schema: { type: "object", properties: { items: { type: "array", uniqueItems: true, items: { type: "object", properties: { id: { type: "integer" } } } } } },
    body: distinctObjects,
  },
  {
    name: "uniqueItems, items with no type (enum-like strings)",
    schema: { type: "object", properties: { items: { type: "array", uniqueItems: true, items: { anyOf: [{ type: "string" }, { type: "integer" }] } } } },
    body: distinctStatuses,
  },
  {
    name: "pattern, a near-match ending in a bad character",
    schema: { type: "object", properties: { id: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" } } },
    body: (bytes) => ({ id: `${"ab-".repeat(Math.floor(bytes / 3))}a!` }),
  },
];

/** One row per case and size: ms for parse + copy + validate, and ms per MB. */
export function benchAdversarial(print: (line: string) => void = console.log): { name: string; msPerMb: number[] }[] {
  const ajv = createAjv({ applyDefaults: true });
  const results: { name: string; msPerMb: number[] }[] = [];
  print("| case | " + SIZES_MB.map((mb) => `${mb} MB ms`).join(" | ") + " | ms/MB at 4 MB ÷ ms/MB at 0.5 MB |");
  print("| --- | " + SIZES_MB.map(() => "---:").join(" | ") + " | ---: |");
  for (const c of CASES) {
    const validate = ajv.compile(c.schema);
    const times = SIZES_MB.map((mb) => {
      const text = JSON.stringify(c.body(mb * MB));
      return bestOf(3, () => {
        const copy = copyJson(JSON.parse(text));
        if (copy.ok) validate(copy.value);
      });
    });
    const msPerMb = times.map((t, i) => t / (SIZES_MB[i] as number));
    results.push({ name: c.name, msPerMb });
    const growth = (msPerMb[msPerMb.length - 1] as number) / (msPerMb[0] as number);
    print(`| ${c.name} | ${times.map((t) => t.toFixed(1)).join(" | ")} | ${growth.toFixed(2)}× |`);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) benchAdversarial();
