/**
 * toolc's format checkers and ajv-formats' full mode, each run over the
 * string cases of the JSON-Schema-Test-Suite's draft2020-12 optional/format
 * files: how often each gets the suite's expected verdict wrong.
 * Run: npx tsx bench/formats-vs-ajv-formats.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { formats } from "../generator/runtime/formats.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, opts?: unknown) => void;
const SUITE = new URL("../test/corpus/json-schema-test-suite/tests/draft2020-12/optional/format/", import.meta.url).pathname;

type Check = (s: string) => boolean;
type AjvFormat = Check | RegExp | { validate: Check | RegExp } | undefined;

function theirs(format: AjvFormat): Check {
  const run = (f: Check | RegExp) => (s: string) => (typeof f === "function" ? f(s) : f.test(s));
  if (format === undefined) return () => true;
  if (typeof format === "function" || format instanceof RegExp) return run(format);
  return run(format.validate);
}

const ajv = new Ajv2020({ strict: false });
addFormats(ajv, { mode: "full" });
const ours = formats as Record<string, Check>;
console.log("| format | suite cases | toolc wrong | ajv-formats (full) wrong |\n| --- | ---: | ---: | ---: |");
for (const file of readdirSync(SUITE).sort()) {
  const name = file.replace(/\.json$/, "");
  if (ours[name] === undefined) continue;
  const check = theirs(ajv.formats[name] as AjvFormat);
  const tally = { cases: 0, ours: 0, theirs: 0 };
  for (const group of JSON.parse(readFileSync(join(SUITE, file), "utf8")) as { tests: { data: unknown; valid: boolean }[] }[]) {
    for (const test of group.tests) {
      if (typeof test.data !== "string") continue;
      tally.cases++;
      if (ours[name](test.data) !== test.valid) tally.ours++;
      if (check(test.data) !== test.valid) tally.theirs++;
    }
  }
  console.log(`| ${name} | ${tally.cases} | ${tally.ours} | ${tally.theirs} |`);
}
