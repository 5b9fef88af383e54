/**
 * Runs JSON-Schema-Test-Suite (draft 2020-12) through the validators toolc
 * generates: each test group's schema becomes a standalone ES module (the
 * same code path as `validators/<tool>.ts`, as plain JS), written to a temp project and
 * executed by a plain `node` child process.
 *
 * Shared by the conformance test and bench/conformance-report.ts, so the
 * published figures are the ones the test checks.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SUPPORTED_FORMATS } from "../../generator/ajv.js";
import { standaloneModule } from "../../generator/emit/validators.js";
import type { JsonSchema, JsonValue } from "../../generator/ir.js";
import { writeValidatorRuntime } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;
export const SUITE_DIR = join(ROOT, "test/corpus/json-schema-test-suite/tests/draft2020-12");

/** Suite files for the keywords toolc supports, in the order the report lists them. */
export const KEYWORD_FILES = [
  "type", "properties", "required", "additionalProperties", "enum", "const", "anyOf", "oneOf", "items",
  "default", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "ref", "defs", "allOf", "propertyNames", "minItems", "maxItems", "uniqueItems",
  "prefixItems", "minProperties", "maxProperties", "boolean_schema",
].map((k) => `${k}.json`);

/** optional/format files, one per format toolc checks. */
export const FORMAT_FILES = SUPPORTED_FORMATS.map((f) => `optional/format/${f}.json`);

/** Keywords of toolc's schema subset (schema/contract.schema.json), plus `$schema` for the suite's root. */
const SUBSET = new Set([
  "type", "properties", "required", "additionalProperties", "enum", "const", "anyOf", "oneOf", "allOf", "items",
  "prefixItems", "default", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
  "propertyNames", "title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$ref",
  "$defs", "$schema",
]);
const SCHEMA_MAPS = new Set(["properties", "$defs"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SUBSCHEMAS = new Set(["additionalProperties", "items", "propertyNames"]);
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

export type Config = "output" | "input";
export type Outcome = "pass" | "fail" | "skip";

export interface CaseResult {
  readonly file: string;
  readonly group: string;
  readonly test: string;
  readonly config: Config;
  readonly outcome: Outcome;
  /** Compiled with strictTypes/strictTuples off. */
  readonly relaxed?: boolean;
  /** Why the case did not run (skip), or what went wrong (fail). */
  readonly note?: string;
}

interface SuiteGroup {
  description: string;
  schema: JsonSchema;
  tests: { description: string; data: JsonValue; valid: boolean }[];
}

/** Why a schema is outside toolc's subset, or undefined when it is inside. */
export function outsideSubset(schema: JsonValue, root = true): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "not a schema";
  for (const [key, value] of Object.entries(schema)) {
    if (!SUBSET.has(key)) return `keyword ${key} is outside toolc's subset`;
    if (key === "$schema" && (!root || value !== DRAFT_2020)) return "$schema other than 2020-12";
    if (key === "$ref" && (typeof value !== "string" || !value.startsWith("#"))) return "remote $ref";
    if (key === "format" && !SUPPORTED_FORMATS.includes(value as string)) return `format ${String(value)} is not supported`;
    const children = SCHEMA_MAPS.has(key)
      ? Object.values(value as object)
      : SCHEMA_LISTS.has(key)
        ? (value as JsonValue[])
        : SUBSCHEMAS.has(key)
          ? [value]
          : [];
    for (const child of children) {
      const why = outsideSubset(child as JsonValue, false);
      if (why) return why;
    }
  }
  return undefined;
}

function readGroups(file: string): SuiteGroup[] {
  return JSON.parse(readFileSync(join(SUITE_DIR, file), "utf8")) as SuiteGroup[];
}

/**
 * What the child process runs: every case against its group's module. Each
 * case gets a copy without prototypes, as the executor's copyJson makes
 * (runtime/json.ts): generated validators only ever see such copies, and
 * defaults applied to it do not leak into the next case.
 */
const RUNNER = `
import { readFileSync } from "node:fs";
const jobs = JSON.parse(readFileSync("jobs.json", "utf8"));
const copy = (v) => {
  if (Array.isArray(v)) return v.map(copy);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  Object.setPrototypeOf(out, null);
  for (const k of Object.keys(v)) out[k] = copy(v[k]);
  return out;
};
const out = [];
for (const job of jobs) {
  const { validate } = await import("./validators/" + job.module);
  for (const t of job.tests) {
    try { out.push(validate(copy(t.data)) === t.valid ? "pass" : "fail"); }
    catch (e) { out.push("threw: " + e.message); }
  }
}
console.log(JSON.stringify(out));
`;

interface Job {
  readonly module: string;
  readonly tests: SuiteGroup["tests"];
  readonly results: Omit<CaseResult, "outcome" | "note">[];
}

function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-suite-"));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "validators"));
  // The runtime modules generated validators import (VALIDATOR_RUNTIME_MODULES in generator/ajv.ts), as JS for plain node.
  writeValidatorRuntime(dir);
  writeFileSync(join(dir, "run.mjs"), RUNNER);
  return dir;
}

/** Ajv strict-mode errors from the authoring checks that `strictTypes: false` turns off. */
const TYPE_CHECK_ERROR = /\(strictTypes\)|-tuple, but minItems/;

interface Compiled {
  /** Why toolc refuses the schema, if it does. */
  readonly rejected?: string;
  /** Compiled only with strictTypes/strictTuples off (the suite's schemas often omit `type`). */
  readonly relaxed?: boolean;
}

function compile(dir: string, name: string, schema: JsonSchema, config: Config, strictTypes: boolean): void {
  const js = standaloneModule([{ exportName: "validate", schema, applyDefaults: config === "input", strictTypes }]);
  writeFileSync(join(dir, "validators", name), js);
}

/**
 * Compiles one group with toolc's configuration. A schema rejected only by
 * the type-authoring checks is compiled again without them (they change no
 * generated code); any other rejection is a skip with Ajv's reason.
 */
function compileGroup(dir: string, name: string, group: SuiteGroup, config: Config): Compiled {
  const message = (e: unknown) => (e as Error).message.split("\n")[0];
  try {
    compile(dir, name, group.schema, config, true);
    return {};
  } catch (e) {
    if (!TYPE_CHECK_ERROR.test(message(e))) return { rejected: `rejected at compile time: ${message(e)}` };
  }
  try {
    compile(dir, name, group.schema, config, false);
    return { relaxed: true };
  } catch (e) {
    return { rejected: `rejected at compile time: ${message(e)}` };
  }
}

/** Runs every case of `files` under one Ajv configuration. */
export function runSuite(files: readonly string[], config: Config): CaseResult[] {
  const dir = makeProject();
  try {
    const results: CaseResult[] = [];
    const jobs: Job[] = [];
    for (const file of files) {
      readGroups(file).forEach((group, index) => {
        const base = group.tests.map((t) => ({ file, group: group.description, test: t.description, config }));
        const module = `${file.replace(/\W/g, "_")}_${index}.js`;
        const outside = outsideSubset(group.schema);
        const compiled: Compiled = outside ? { rejected: outside } : compileGroup(dir, module, group, config);
        if (compiled.rejected) results.push(...base.map((r) => ({ ...r, outcome: "skip" as const, note: compiled.rejected })));
        else jobs.push({ module, tests: group.tests, results: base.map((r) => ({ ...r, relaxed: compiled.relaxed === true })) });
      });
    }
    writeFileSync(join(dir, "jobs.json"), JSON.stringify(jobs.map(({ module, tests }) => ({ module, tests }))));
    const raw = execFileSync(process.execPath, ["run.mjs"], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
    const outcomes = JSON.parse(raw) as string[];
    const ran = jobs.flatMap((j) => j.results);
    ran.forEach((r, i) => {
      const o = outcomes[i];
      results.push(o === "pass" || o === "fail" ? { ...r, outcome: o } : { ...r, outcome: "fail", note: o });
    });
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
