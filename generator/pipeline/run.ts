/**
 * The whole compiler, load → normalize → emit → write, as one function the
 * CLI and the tests call. Nothing is written unless every phase succeeded.
 *
 * `run` goes through the build cache (generator/cache.ts) unless told not
 * to: a run whose inputs and on-disk outputs match the last one's hashes
 * does nothing, and otherwise only changed tools are compiled again. The
 * heavy phases are imported on demand, so such a no-op run never loads
 * Ajv's compiler.
 */
import { hashText, openCache, pruneEntries, readEntry, toolcFingerprint, writeEntry, type BuildCache } from "../cache.js";
import { hasErrors } from "../diagnostics.js";
import { compileOptionsOf, layoutOf, planFromOptions, type Plan, type PlanOptions } from "../plan/index.js";
import type { CompileOptions } from "./compile-tool.js";
import type { CompileOutput } from "./compile-texts.js";
import { TARGETS } from "../targets/registry.js";
import type { DocsTarget } from "../core/plan.js";
import { readDefinitionTexts, type DefinitionText } from "../load/files.js";
import type { Diagnostic, EmittedFile } from "../ir.js";
import { collectAfter } from "./collect-garbage.js";
import { applyOutput } from "../write/apply.js";
import { contentHash } from "./packed-files.js";
import { differences, planByHash, planOutput, type Difference, type OutputLayout, type OutputPlan } from "../write/output.js";

/** The folders and modules a compile depends on, for the library API: paths relative to the run's folder, or absolute. */
export type CompileTargets = Omit<PlanOptions, "definitions" | "out" | "cwd" | "docs">;

/** A run from folders relative to `cwd` (the library API, and tests); the CLI builds its plan from the config (plan/index.ts). */
export interface RunOptions extends CompileTargets {
  readonly definitions: string;
  readonly out: string;
  /** `generate` writes what changed; `check` writes nothing and reports differences. */
  readonly mode: "generate" | "check";
  /** Diagnostics print paths relative to this folder. */
  readonly cwd?: string;
  /** Use the build cache (default true; TOOLC_NO_CACHE=1 also turns it off). `check` only reads it. */
  readonly cache?: boolean;
  /** The tool catalog, written and checked with the rest of the output; none when absent. */
  readonly docs?: DocsTarget;
}

export interface RunResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
  readonly plan?: OutputPlan;
  readonly differences: readonly Difference[];
}

/** What the targets' run-level files depend on besides the definitions and the emit options (the catalog's bases), as one key; or why it cannot be read. */
function runKeys(plan: Plan): { key: string; diagnostics: readonly Diagnostic[] } {
  const keys = TARGETS.flatMap((target) => (target.runKey === undefined ? [] : [target.runKey(plan)]));
  const diagnostics = keys.flatMap((k) => k.diagnostics);
  const written = keys.map((k) => k.key).filter((key) => key !== "");
  return { key: written.length === 0 ? "" : hashText(...written), diagnostics };
}

/** The definitions of the plan, read once per run: every later step (the compile, the catalog) gets these texts. */
function readTexts(plan: Plan): readonly DefinitionText[] | undefined {
  return readDefinitionTexts(plan.definitions, plan.cwd);
}

/** Compiles the plan's definitions to the files toolc would write, or diagnostics. Never uses the cache. */
export async function compilePlan(plan: Plan, texts: readonly DefinitionText[] | undefined = readTexts(plan)): Promise<CompileOutput> {
  if (!texts) {
    // A missing or empty folder: loading reports it, located.
    const { loadDefinitions } = await import("../load/index.js");
    return { diagnostics: loadDefinitions(plan.definitions, { displayRoot: plan.cwd }).diagnostics, tools: 0 };
  }
  const { compileTexts } = await import("./compile-texts.js");
  return compileTexts({ options: compileOptionsOf(plan) }, texts);
}

/**
 * Compiles definitions to the files toolc would write, or diagnostics (the library API: folders relative to `cwd`). Never uses the cache.
 * The run-level files are among them (views.ts, which index.ts imports when a contract has a view).
 */
export async function compile(definitions: string, out: string, cwd: string, targets: CompileTargets = {}): Promise<CompileOutput> {
  const plan = planFromOptions({ ...targets, definitions, out, cwd });
  const texts = readTexts(plan);
  const compiled = await compilePlan(plan, texts);
  return texts ? withRunFiles(compiled, plan, texts) : compiled;
}

/** The last successful run: its diagnostics and the content hash of every file it produced. */
interface RunManifest {
  readonly tools: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly { path: string; root?: EmittedFile["root"]; hash: string }[];
}

interface CachedRun {
  readonly cache: BuildCache;
  readonly settingsKey: string;
  readonly runKey: string;
}

/**
 * Everything output depends on besides the definition texts, as one hash.
 * The format style is toolc's own and part of its code, so the fingerprint
 * covers it; no consumer file is read.
 */
function settingsKey(layout: OutputLayout, cwd: string, options: CompileOptions): string {
  return hashText(toolcFingerprint(), JSON.stringify(options), JSON.stringify(layout), cwd);
}

/** Nothing to write; only foreign files can still differ, and they fail `check`. */
function unchangedResult(manifest: RunManifest, plan: OutputPlan, layout: OutputLayout, cwd: string, mode: Mode): RunResult {
  const diff = differences(plan, layout, cwd);
  return { ok: mode === "generate" || diff.length === 0, diagnostics: manifest.diagnostics, tools: manifest.tools, plan, differences: diff };
}

/** The manifest of a run: each file's hash as the write computed it (`written`), else from its text. */
function rememberRun(run: CachedRun, compiled: CompileOutput & { files: EmittedFile[] }, written: ReadonlyMap<EmittedFile, string>): void {
  const files = compiled.files.map((f) => ({ path: f.path, ...(f.root === undefined ? {} : { root: f.root }), hash: written.get(f) ?? hashText(f.text) }));
  const manifest: RunManifest = { tools: compiled.tools, diagnostics: compiled.diagnostics, files };
  writeEntry(run.cache, "runs", run.runKey, manifest);
  pruneEntries(run.cache, "runs", new Set([run.runKey]));
  pruneEntries(run.cache, "kinds", new Set([run.settingsKey]));
}

/** The cached compile: the last run's manifest when inputs and disk agree with it, else a compile that reuses unchanged tools. */
async function compileCached(
  plan: Plan,
  texts: readonly DefinitionText[],
  mode: Mode,
  layout: OutputLayout,
  extraKey: string,
): Promise<{ result?: RunResult; compiled?: CompileOutput; run?: CachedRun }> {
  const cache = openCache(layout.out, mode === "check");
  if (!cache) return {};
  const options = compileOptionsOf(plan);
  const key = settingsKey(layout, plan.cwd, options);
  const run: CachedRun = { cache, settingsKey: key, runKey: hashText(key, extraKey, ...texts.flatMap((t) => [t.source, t.display, t.text])) };
  const manifest = readEntry<RunManifest>(cache, "runs", run.runKey);
  const plannedByHash = manifest && planByHash(manifest.files, layout, (text) => hashText(text));
  if (manifest && plannedByHash) return { result: unchangedResult(manifest, plannedByHash, layout, plan.cwd, mode) };
  const { compileTexts } = await import("./compile-texts.js");
  const compiled = await compileTexts({ cache: { store: cache, settingsKey: key }, options }, texts);
  return { compiled, run };
}

/** Compiling filled Ajv's caches with every schema of the run; release them (imported here, so a no-op run never loads Ajv). */
async function releaseCompileCaches(): Promise<void> {
  const { releaseSharedAjv } = await import("../ajv-shared.js");
  releaseSharedAjv();
}

/** The compile's files with the targets' run-level files (the catalog's), made from the same IR and texts: nothing reads or normalizes the definitions again. */
async function withRunFiles(compiled: CompileOutput, plan: Plan, texts: readonly DefinitionText[]): Promise<CompileOutput> {
  if (!compiled.files || !compiled.ir) return compiled;
  const { byPath, loadTargets } = await import("../emit/index.js");
  let files = compiled.files;
  const diagnostics = [...compiled.diagnostics];
  for (const { emitter } of await loadTargets()) {
    if (emitter.runFiles === undefined) continue;
    const made = await emitter.runFiles({ ir: compiled.ir, texts }, plan);
    diagnostics.push(...made.diagnostics);
    if (!made.files || hasErrors(made.diagnostics)) return { diagnostics, tools: compiled.tools };
    files = [...files, ...made.files];
  }
  return { ...compiled, files: files.sort(byPath), diagnostics };
}

export type Mode = "generate" | "check";

/** One run of the plan: the definitions read once, compiled (through the cache unless `cache` is false), the catalog from the same IR, then written or checked. */
export async function runPlan(plan: Plan, mode: Mode, options: { readonly cache?: boolean } = {}): Promise<RunResult> {
  const layout = layoutOf(plan);
  const extraKey = runKeys(plan);
  if (extraKey.diagnostics.length > 0) return { ok: false, diagnostics: extraKey.diagnostics, tools: 0, differences: [] };
  const texts = readTexts(plan);
  const cached = options.cache === false || !texts ? {} : await compileCached(plan, texts, mode, layout, extraKey.key);
  if (cached.result) return cached.result;
  let compiled: CompileOutput;
  try {
    compiled = cached.compiled ?? (await compilePlan(plan, texts));
    if (texts) compiled = await withRunFiles(compiled, plan, texts);
  } finally {
    await releaseCompileCaches();
  }
  if (!compiled.files) return { ok: false, diagnostics: compiled.diagnostics, tools: compiled.tools, differences: [] };
  const planned = planOutput(compiled.files, layout);
  const diff = differences(planned, layout, plan.cwd);
  if (mode === "generate") {
    // The write's own garbage (each file's bytes) then starts from a heap with the compile's let go (collect-garbage.ts).
    collectAfter(planned.added.length + planned.changed.length);
    // With a cache, each written file is hashed from the bytes the write inflated, not inflated again for the manifest.
    const hashes = new Map<EmittedFile, string>();
    applyOutput(planned, layout, cached.run === undefined ? undefined : (file, content) => hashes.set(file, contentHash(file, content)));
    if (cached.run) rememberRun(cached.run, { ...compiled, files: compiled.files }, hashes);
  }
  return { ok: mode === "generate" || diff.length === 0, diagnostics: compiled.diagnostics, tools: compiled.tools, plan: planned, differences: diff };
}

/** A run from folders relative to `options.cwd` (the library API): the same run as the CLI's, of the plan these options make. */
export async function run(options: RunOptions): Promise<RunResult> {
  return runPlan(planFromOptions(options), options.mode, options.cache === false ? { cache: false } : {});
}
