/**
 * The whole compiler, load → normalize → emit → write, as one function the
 * CLI and the tests call. Nothing is written unless every phase succeeded.
 *
 * `run` goes through the build cache (generator/cache.ts) unless told not
 * to: a run whose inputs and on-disk outputs match the last one's hashes
 * does nothing, and otherwise only changed tools are compiled again. The
 * heavy phases are imported on demand, so such a no-op run never loads
 * ts-morph, prettier's parsers or Ajv's compiler.
 */
import { relative, resolve, sep } from "node:path";
import { hashText, openCache, pruneEntries, readEntry, toolcFingerprint, writeEntry, type BuildCache } from "./cache.js";
import { hasErrors } from "./diagnostics.js";
import type { EmitOptions } from "./emit/index.js";
import type { CompileOutput } from "./incremental.js";
import { readDefinitionTexts, type DefinitionText } from "./load/files.js";
import type { Diagnostic, EmittedFile } from "./ir.js";
import { applyOutput, differences, planByHash, planOutput, type OutputPlan } from "./write/output.js";

export interface RunOptions {
  readonly definitions: string;
  readonly out: string;
  /** `generate` writes what changed; `check` writes nothing and reports differences. */
  readonly mode: "generate" | "check";
  /** Diagnostics print paths relative to this folder. */
  readonly cwd?: string;
  /** A module exporting `handlers`; generated contract tests then also run each example through it. */
  readonly handlers?: string;
  /** Use the build cache (default true; TOOLC_NO_CACHE=1 also turns it off). `check` only reads it. */
  readonly cache?: boolean;
}

export interface RunResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
  readonly plan?: OutputPlan;
  readonly differences: readonly { path: string; status: "missing" | "changed" | "stale" }[];
}

/** The handlers module as the output folder sees it: a posix path relative to it. */
function emitOptions(out: string, cwd: string, handlers: string | undefined): EmitOptions {
  if (handlers === undefined) return {};
  return { handlersModule: relative(resolve(cwd, out), resolve(cwd, handlers)).split(sep).join("/") };
}

/** Compiles definitions to the formatted files toolc would write, or diagnostics. Never uses the cache. */
export async function compile(definitions: string, out: string, cwd: string, handlers?: string): Promise<{ files?: EmittedFile[]; diagnostics: readonly Diagnostic[]; tools: number }> {
  const [{ loadDefinitions }, { normalize }, { byPath, emitShared, emitToolFiles, FORMATTED_FILES_PER_TOOL }, { openFormatter, resolveFormatOptions }] = await Promise.all([
    import("./load/index.js"),
    import("./normalize/index.js"),
    import("./emit/index.js"),
    import("./write/format.js"),
  ]);
  const loaded = loadDefinitions(resolve(cwd, definitions), { displayRoot: cwd });
  const { ir, diagnostics } = normalize(loaded);
  if (hasErrors(diagnostics)) return { diagnostics, tools: ir.tools.length };
  const outDir = resolve(cwd, out);
  const options = emitOptions(out, cwd, handlers);
  // Each file goes to the formatter as soon as it is emitted, so formatting overlaps emitting.
  const formatter = openFormatter({ outDir, options: await resolveFormatOptions(outDir), expectedFiles: ir.tools.length * FORMATTED_FILES_PER_TOOL });
  try {
    const pending = emitShared(ir, options).map((f) => formatter.format(f));
    for (const tool of ir.tools) pending.push(...emitToolFiles(tool, options).map((f) => formatter.format(f)));
    const files = (await Promise.all(pending)).sort(byPath);
    return { files, diagnostics, tools: ir.tools.length };
  } finally {
    await formatter.close();
  }
}

/** The last successful run: its diagnostics and the content hash of every file it produced. */
interface RunManifest {
  readonly tools: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly { path: string; hash: string }[];
}

interface CachedRun {
  readonly cache: BuildCache;
  readonly settingsKey: string;
  readonly runKey: string;
  readonly texts: readonly DefinitionText[];
}

/** Everything output depends on besides the definition texts, as one hash. */
async function settingsKey(outDir: string, cwd: string, options: EmitOptions): Promise<{ key: string; formatOptions: import("prettier").Options }> {
  const { formatIdentity, resolveFormatOptions } = await import("./write/format.js");
  const formatOptions = await resolveFormatOptions(outDir);
  return { key: hashText(toolcFingerprint(), formatIdentity(formatOptions), JSON.stringify(options), outDir, cwd), formatOptions };
}

function unchangedResult(manifest: RunManifest, plan: OutputPlan): RunResult {
  return { ok: true, diagnostics: manifest.diagnostics, tools: manifest.tools, plan, differences: [] };
}

function rememberRun(run: CachedRun, compiled: CompileOutput): void {
  const manifest: RunManifest = { tools: compiled.tools, diagnostics: compiled.diagnostics, files: compiled.files.map((f) => ({ path: f.path, hash: hashText(f.text) })) };
  writeEntry(run.cache, "runs", run.runKey, manifest);
  pruneEntries(run.cache, "runs", new Set([run.runKey]));
  pruneEntries(run.cache, "kinds", new Set([run.settingsKey]));
}

/** The cached compile: the last run's manifest when inputs and disk agree with it, else the incremental compile. */
async function compileCached(options: RunOptions, cwd: string, outDir: string): Promise<{ result?: RunResult; compiled?: CompileOutput; run?: CachedRun }> {
  const cache = options.cache === false ? undefined : openCache(outDir, options.mode === "check");
  if (!cache) return {};
  const texts = readDefinitionTexts(resolve(cwd, options.definitions), cwd);
  if (!texts) return {};
  const emit = emitOptions(options.out, cwd, options.handlers);
  const settings = await settingsKey(outDir, cwd, emit);
  const run: CachedRun = { cache, settingsKey: settings.key, runKey: hashText(settings.key, ...texts.flatMap((t) => [t.source, t.display, t.text])), texts };
  const manifest = readEntry<RunManifest>(cache, "runs", run.runKey);
  const plan = manifest && planByHash(manifest.files, outDir, (text) => hashText(text));
  if (manifest && plan) return { result: unchangedResult(manifest, plan) };
  const { compileIncremental } = await import("./incremental.js");
  const compiled = await compileIncremental({ cache, settingsKey: settings.key, outDir, emitOptions: emit, formatOptions: settings.formatOptions }, texts);
  return { compiled, run };
}

/** Compiling filled Ajv's caches with every schema of the run; release them (imported here, so a no-op run never loads Ajv). */
async function releaseCompileCaches(): Promise<void> {
  const { releaseSharedAjv } = await import("./ajv-shared.js");
  releaseSharedAjv();
}

export async function run(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.out);
  const cached = await compileCached(options, cwd, outDir);
  if (cached.result) return cached.result;
  let compiled: Awaited<ReturnType<typeof compile>>;
  try {
    compiled = cached.compiled ?? (await compile(options.definitions, options.out, cwd, options.handlers));
  } finally {
    await releaseCompileCaches();
  }
  if (!compiled.files) return { ok: false, diagnostics: compiled.diagnostics, tools: compiled.tools, differences: [] };
  const plan = planOutput(compiled.files, outDir);
  const diff = differences(plan);
  if (options.mode === "generate") {
    applyOutput(plan, outDir);
    if (cached.run) rememberRun(cached.run, { ...compiled, files: compiled.files });
  }
  return { ok: options.mode === "generate" || diff.length === 0, diagnostics: compiled.diagnostics, tools: compiled.tools, plan, differences: diff };
}
