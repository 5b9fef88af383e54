/**
 * Type soundness: every instance a generated validator accepts type-checks
 * against the generated TS type, under tsc --strict with each supported
 * TypeScript version. One check file, one tsc run per version.
 *
 * A failure means a type is narrower than its validator: code written
 * against the type would mishandle a value the runtime lets through.
 *
 *   npx vitest run test/soundness        (SOUNDNESS_SAMPLES=n per schema, default 100)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import type { ContractIR, JsonObject, ToolIR } from "../../generator/ir.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { contracts, loadValidators } from "../../generated/index.js";
import { compileCorpus } from "./corpus.js";
import { sampledChecks, toolTargets, type Target } from "./sampled-cases.js";
import { suiteChecks } from "./suite-cases.js";
import { CheckFile, makeProject, ROOT, runTsc, TYPESCRIPTS, type TscResult } from "./tsc.js";

const SAMPLES = Number(process.env.SOUNDNESS_SAMPLES ?? 100);

/** The demo's tools, validated by the committed generated validators (the real ones). */
async function demoTargets(ir: ContractIR): Promise<Target[]> {
  const byName = Object.fromEntries(await Promise.all(Object.entries(contracts).map(async ([name, c]) => [name, await loadValidators(c)] as const)));
  const targets = toolTargets(ir.tools, (t: ToolIR) => join(ROOT, `generated/tools/${t.fileName}.js`), "demo_");
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

let dir: string;
let file: CheckFile;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  dir = makeProject("toolc-soundness-");
  const demo = normalize(loadDefinitions(join(ROOT, "definitions"), { displayRoot: ROOT })).ir;
  const corpus = await compileCorpus(dir);
  const targets = [
    ...(await demoTargets(demo)),
    ...namedTypeTargets(demo),
    ...toolTargets(corpus.tools, (t) => `./out/tools/${t.fileName}.js`, "corpus_"),
  ];
  const suite = suiteChecks("normal");
  const sampled = sampledChecks(targets, SAMPLES);
  file = new CheckFile();
  file.append(sampled.file);
  file.append(suite.file);
  Object.assign(figures, { suite: suite.figures, sampled: sampled.figures, corpusTools: corpus.tools.length, corpusRefused: [...corpus.refused] });
  const empty = [...sampled.perTarget].filter(([, n]) => n === 0).map(([id]) => id);
  Object.assign(figures, { targetsWithoutSamples: empty });
}, 300_000);

afterAll(() => {
  console.log(`type soundness: ${JSON.stringify(figures, (_k, v) => (v instanceof Map ? Object.fromEntries(v) : v), 2)}`);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("type soundness", () => {
  it("samples every demo and corpus schema (the arbitraries reach each one)", () => {
    expect(figures.targetsWithoutSamples).toEqual([]);
  });

  it.each(TYPESCRIPTS)("every accepted instance type-checks with TypeScript $version", ({ version, bin }) => {
    const result: TscResult = runTsc(bin, dir, "soundness.ts", file);
    figures[`ts${version}`] = { lines: file.size, failures: result.failures.size };
    expect(result.stray).toEqual([]);
    // The first few are enough to see a pattern; the count says how widespread it is.
    expect({ count: result.failures.size, first: Object.fromEntries([...result.failures].slice(0, 15)) }).toEqual({ count: 0, first: {} });
  }, 300_000);
});
