/**
 * Global setup of the integration project: builds every fixture that a tsc
 * check needs once, runs one tsc program per TypeScript version and set of
 * compiler options over all of them (programs.ts), and provides the
 * per-check diagnostics and the fixture folders to the test files, which
 * assert on them and reuse the folders instead of generating their own.
 *
 *   TOOLC_TSC_PARALLEL=n   tsc processes at a time (default 2)
 *   SOUNDNESS_SAMPLES=n    samples per schema in the type-soundness check (default 100)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { TestProject } from "vitest/node";
import { starterProject } from "../cli/init-project.js";
import { ROOT, runCli } from "../compiler/helpers.js";
import { GOOD_HANDLERS } from "../contract-tests/handler-modules.js";
import { consumerProject, projectWithHandlers } from "../contract-tests/project.js";
import { heldOutProject } from "../e2e/held-out-project.js";
import { writeTypesProject } from "../emit/types/soundness-cases.js";
import { importSet, SETS } from "../import/corpus-sets.js";
import { buildCorpusSpec, SPECS } from "../import/openapi/corpus-specs.js";
import { buildRealWorld, REAL_WORLD } from "../import/openapi/real-world-specs.js";
import { writeManyTools } from "../providers/many-tools.js";
import { CHECK_FILE, sortErrors, writeSoundnessCheck, type SoundnessCheck } from "../soundness/check.js";
import { otherPrograms, PREVIOUS_MAJORS, providerFiles } from "./checks.js";
import { matrixPrograms, writeMatrixFixtures } from "./matrix.js";
import { runPrograms, type TscProgram } from "./programs.js";
import type { TypecheckFixtures } from "./provided.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Runs `build`; a failure is recorded under `name` (and fails that fixture's tests), not thrown. */
async function attempt<T>(name: string, failures: Record<string, string>, build: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await build();
  } catch (error) {
    failures[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return undefined;
  }
}

/** A module assigning an OpenAI export to Anthropic's type: the providers program must reject it (line 3, column 14). */
function writeWrongProvider(base: string): string {
  const dir = join(base, "providers-negative");
  mkdirSync(dir, { recursive: true });
  const providers = relative(dir, join(ROOT, "generated/providers.js"));
  const file = join(dir, "wrong.ts");
  writeFileSync(file, `import type Anthropic from "@anthropic-ai/sdk";\nimport { openai } from "${providers}";\nexport const wrong: Anthropic.Tool[] = openai.tools;\n`);
  return file;
}

/** test/fixtures/billing generated into a project of its own, for its providers.ts (some providers refuse its tool names). */
async function providersBilling(base: string): Promise<NonNullable<TypecheckFixtures["providersBilling"]>> {
  const dir = join(base, "providers-billing");
  mkdirSync(dir);
  cpSync(join(ROOT, "test/fixtures/billing"), join(dir, "definitions"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const generated = await runCli(dir, ["generate"]);
  return { dir, code: generated.code, stderr: generated.stderr };
}

/** test/providers/sdk-assign.ts copied into `dir` as `sdk-assign.ts`, assigning the exports of the providers module `providers` (a path to its .js). */
function writeSdkAssign(dir: string, providers: string): string {
  const source = readFileSync(join(ROOT, "test/providers/sdk-assign.ts"), "utf8");
  if (!source.includes('"../../generated/providers.js"')) throw new Error("test/providers/sdk-assign.ts no longer imports ../../generated/providers.js");
  const file = join(dir, "sdk-assign.ts");
  const specifier = relative(dir, providers);
  writeFileSync(file, source.replaceAll('"../../generated/providers.js"', JSON.stringify(specifier.startsWith("..") ? specifier : `./${specifier}`)));
  return file;
}

/**
 * test/providers/sdk-assign.ts copied into a folder whose node_modules has
 * the previous SDK majors under their own names, so tsc resolves `openai`,
 * `ai` and `@google/genai` to them as a project that installed them would.
 */
function providersPrevious(base: string): NonNullable<TypecheckFixtures["providersPrevious"]> {
  const dir = join(base, "providers-previous");
  const versions: Record<string, string> = {};
  for (const [name, alias] of Object.entries(PREVIOUS_MAJORS)) {
    const target = join(dir, "node_modules", name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", alias), target, "dir");
    versions[name] = (JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { version: string }).version;
  }
  return { dir, file: writeSdkAssign(dir, join(ROOT, "generated/providers.js")), versions };
}

/** test/providers/many-tools.ts generated into a project, its providers.ts assigned to the SDK types as the demo's are. */
async function providersMany(base: string): Promise<NonNullable<TypecheckFixtures["providersMany"]>> {
  const dir = join(base, "providers-many");
  writeManyTools(dir);
  const generated = await runCli(dir, ["generate"]);
  return { dir, code: generated.code, stdout: generated.stdout, stderr: generated.stderr, assign: writeSdkAssign(dir, join(dir, "generated/providers.js")) };
}

/** The OpenAPI corpus descriptions every TypeScript version checks (corpus-specs.ts), imported and generated side by side. */
async function openapiCorpus(base: string): Promise<NonNullable<TypecheckFixtures["openapi"]>> {
  const [blockfrost, slack] = await Promise.all([buildCorpusSpec(SPECS.blockfrost, base), buildCorpusSpec(SPECS.slack, base)]);
  // One after another: each import's time is a figure of docs/import.md, measured without the others beside it.
  const realWorld = [];
  for (const spec of REAL_WORLD) realWorld.push(await buildRealWorld(spec, base));
  return { blockfrost: blockfrost!, slack: slack!, realWorld };
}

interface Built {
  readonly fixtures: Mutable<TypecheckFixtures>;
  readonly programs: TscProgram[];
  readonly soundness: SoundnessCheck | undefined;
}

async function buildFixtures(base: string): Promise<Built> {
  const failures: Record<string, string> = {};
  const fixtures: Mutable<TypecheckFixtures> = { base, failures };
  const matrix = await attempt("matrix", failures, async () => {
    await writeMatrixFixtures(base);
    return matrixPrograms(base);
  });
  fixtures.consumer = await attempt("consumer", failures, consumerProject);
  fixtures.handlers = await attempt("handlers", failures, () => projectWithHandlers(GOOD_HANDLERS));
  fixtures.starter = await attempt("starter", failures, starterProject);
  fixtures.heldOut = await attempt("held-out", failures, heldOutProject);
  fixtures.imported = await attempt("import", failures, () => Promise.all(SETS.map((set, i) => importSet(set, mkdirAndReturn(join(base, `import-${i}`))))));
  fixtures.providersBilling = await attempt("providers-billing", failures, () => providersBilling(base));
  fixtures.providersPrevious = await attempt("providers-previous", failures, () => providersPrevious(base));
  fixtures.providersMany = await attempt("providers-many", failures, () => providersMany(base));
  fixtures.openapi = await attempt("openapi", failures, () => openapiCorpus(base));
  const typesProject = (await attempt("emitted-types", failures, () => writeTypesProject(mkdirAndReturn(join(base, "emitted-types"))))) ?? [];
  const soundnessDir = join(base, "soundness");
  const soundness = await attempt("soundness", failures, () => writeSoundnessCheck(mkdirAndReturn(soundnessDir), Number(process.env.SOUNDNESS_SAMPLES ?? 100)));
  const files = {
    typesProject,
    wrongProvider: writeWrongProvider(base),
    soundness: soundness && join(soundnessDir, CHECK_FILE),
    providers: await providerFiles(),
  };
  const programs = [...(matrix ?? []), ...otherPrograms(fixtures, files)];
  return { fixtures, programs: programs.sort((a, b) => weight(b) - weight(a)), soundness };
}

/** The programs that take longest (skipLibCheck off; the type-soundness samples) go first, so the last to finish are short. */
const HEAVY = ["matrix0", "matrix1", "strict"];

function weight(program: TscProgram): number {
  const index = HEAVY.indexOf(program.name);
  return index === -1 ? 0 : HEAVY.length - index;
}

function mkdirAndReturn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

export default async function setup(project: TestProject): Promise<() => void> {
  const base = mkdtempSync(join(tmpdir(), "toolc-typecheck-"));
  symlinkSync(join(ROOT, "node_modules"), join(base, "node_modules"), "dir");
  writeFileSync(join(base, "package.json"), '{ "type": "module" }\n');
  const { fixtures, programs, soundness } = await buildFixtures(base);
  const results = await runPrograms(programs, Number(process.env.TOOLC_TSC_PARALLEL ?? 2));
  if (soundness) {
    const byVersion = Object.fromEntries(Object.entries(results["strict"] ?? {}).map(([version, checks]) => [version, sortErrors(checks["type-soundness"] ?? "", soundness.file)]));
    fixtures.soundness = { figures: soundness.figures, byVersion };
  }
  project.provide("tsc", results);
  project.provide("typecheckFixtures", fixtures);
  return () => rmSync(base, { recursive: true, force: true });
}
