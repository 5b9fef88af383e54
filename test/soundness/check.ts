/**
 * The type-soundness check file, built once by the global setup: samples of
 * every demo, named and corpus schema (and the JSON-Schema-Test-Suite
 * cases), each a typed assignment, in one file that the `strict` program
 * compiles with every TypeScript version; and the sorting of tsc's errors by
 * the case whose line they are on.
 */
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { createAjv } from "../../generator/ajv.js";
import type { ContractIR, JsonObject, ToolIR } from "../../generator/ir.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { contracts } from "../../generated/index.js";
import { compileCorpus } from "./corpus.js";
import { sampledChecks, toolTargets, type Target } from "./sampled-cases.js";
import { suiteChecks } from "./suite-cases.js";
import { CheckFile, ROOT } from "./tsc.js";
import { toolFileName } from "../../generator/emit/ts-names.js";

/** The check file's name in its folder. */
export const CHECK_FILE = "soundness.ts";

/** The demo's tools, validated by the committed generated validators (the real ones). */
async function demoTargets(ir: ContractIR): Promise<Target[]> {
  // The generated functions themselves, as the executor runs them (loadValidators' copies would keep the defaults from `resolved`).
  const generatedValidators = async (c: (typeof contracts)[keyof typeof contracts]) => (typeof c.validators === "function" ? await c.validators() : c.validators);
  const byName = Object.fromEntries(await Promise.all(Object.entries(contracts).map(async ([name, c]) => [name, await generatedValidators(c)] as const)));
  const targets = toolTargets(ir.tools, (t: ToolIR) => join(ROOT, `generated/tools/${toolFileName(t)}.js`), "demo_");
  return targets.map((t) => {
    const c = byName[t.id.replace(/^demo_/, "").replace(/_(in|out)$/, "")];
    if (c === undefined) throw new Error(`no generated contract for ${t.id}`);
    if (t.resolved) return { ...t, validate: (v) => c.validateInput(structuredClone(v)), resolved: { ...t.resolved, validate: (v) => c.validateInput(v) } };
    return { ...t, validate: (v) => c.validateOutput(v) };
  });
}

/** Each named type of the demo's types files, with every named type as `$defs` (as tools bundle them). */
function namedTypeTargets(ir: ContractIR): Target[] {
  const all = ir.typeFiles.flatMap((f) => f.types);
  const $defs = Object.fromEntries(all.map((t) => [t.name, t.schema])) as JsonObject;
  const ajv = createAjv({ applyDefaults: false });
  return ir.typeFiles.flatMap((f) =>
    f.types.map((t) => {
      const schema = { ...(t.schema as JsonObject), $defs };
      return { id: `named_${t.name}`, schema, module: join(ROOT, `generated/types/${f.module}.js`), type: t.name, validate: ajv.compile(schema) };
    }),
  );
}

export interface SoundnessCheck {
  readonly file: CheckFile;
  /** What was sampled, for the report. */
  readonly figures: Record<string, unknown>;
}

/** Compiles the corpus into `dir`, samples every target `samples` times and writes the check file there. */
export async function writeSoundnessCheck(dir: string, samples: number): Promise<SoundnessCheck> {
  const demo = normalize(loadDefinitions(join(ROOT, "definitions"), { displayRoot: ROOT })).ir;
  const corpus = await compileCorpus(dir);
  const targets = [...(await demoTargets(demo)), ...namedTypeTargets(demo), ...toolTargets(corpus.tools, (t) => `./out/tools/${toolFileName(t)}.js`, "corpus_")];
  const suite = suiteChecks("normal");
  const sampled = sampledChecks(targets, samples);
  const file = new CheckFile();
  file.append(sampled.file);
  file.append(suite.file);
  writeFileSync(join(dir, CHECK_FILE), file.text());
  const targetsWithoutSamples = [...sampled.perTarget].filter(([, n]) => n === 0).map(([id]) => id);
  const figures = { suite: suite.figures, sampled: sampled.figures, corpusTools: corpus.tools.length, corpusRefused: [...corpus.refused], targetsWithoutSamples, lines: file.size };
  // Maps become plain objects, so the figures can be handed to the test files.
  return { file, figures: JSON.parse(JSON.stringify(figures, (_k, v) => (v instanceof Map ? Object.fromEntries(v) : v))) as Record<string, unknown> };
}

export interface SortedErrors {
  /** Case → the first error message tsc gave for it. */
  readonly failures: Record<string, string>;
  /** Errors on lines no case owns, or in other files (a broken preamble or import). */
  readonly stray: string[];
}

const ERROR_LINE = /^(.*)\((\d+),(\d+)\): error (TS\d+: .*)$/;

/** Sorts tsc's output for the check by the case owning each error's line. */
export function sortErrors(output: string, file: CheckFile): SortedErrors {
  const failures: Record<string, string> = {};
  const stray: string[] = [];
  for (const line of output.split("\n")) {
    if (line.startsWith(" ") || line === "") continue;
    const m = ERROR_LINE.exec(line);
    const owner = m !== null && (m[1] as string).endsWith(CHECK_FILE) ? file.ownerOf(Number(m[2])) : undefined;
    if (owner === undefined) stray.push(line);
    else failures[owner] ??= m![4] as string;
  }
  return { failures, stray };
}
