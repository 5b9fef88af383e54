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
import { relative, resolve, sep } from "node:path";
import { hashText, openCache, pruneEntries, readEntry, toolcFingerprint, writeEntry, type BuildCache } from "../cache.js";
import { hasErrors } from "../diagnostics.js";
import type { AuthSetting } from "../config/auth.js";
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { RunInTests } from "../emit/contract-tests.js";
import type { EmitOptions } from "../emit/index.js";
import type { CompileOutput } from "./compile-texts.js";
import { baseIdentities, definitionsIn, diffConfigKey } from "../docs/bases.js";
import type { DocsTarget } from "../docs/catalog.js";
import { readDefinitionTexts, type DefinitionText } from "../load/files.js";
import type { Diagnostic, EmittedFile } from "../ir.js";
import { applyOutput } from "../write/apply.js";
import { differences, planByHash, planOutput, type Difference, type OutputLayout, type OutputPlan } from "../write/output.js";

/** The folders and modules a compile depends on; paths are relative to the run's folder, or absolute. */
export interface CompileTargets {
  /** Where the contract tests go; none when absent. */
  readonly tests?: string;
  /** A module exporting `handlers`; generated contract tests then also run each example through it. */
  readonly handlers?: string;
  /** The kinds of tool whose handlers the contract tests run too (config `runInTests`); none when absent. */
  readonly runInTests?: readonly RunInTests[];
  /** The MCP SDK line generated code targets; 1 when absent (the CLI always resolves one, see config/settings.ts). */
  readonly mcpSdk?: 1 | 2;
  /** The generated server's defaults (package.json name and version, `mcp.cache`); none when absent. */
  readonly server?: ServerDefaultsSetting;
  /** `false`: no provider exports (providers.ts) and no provider lints. */
  readonly providers?: boolean;
  /** The config's `auth:` section: default scopes, the auth lint, and the resource server in http.ts; none when absent. */
  readonly auth?: AuthSetting;
}

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

const posixRelative = (from: string, to: string): string => relative(from, to).split(sep).join("/") || ".";

/** How contract tests reach the output folder and the handlers module: posix paths relative to the tests folder. */
function emitOptions(out: string, cwd: string, targets: CompileTargets): EmitOptions {
  const sdk = {
    ...(targets.mcpSdk === undefined ? {} : { mcpSdk: targets.mcpSdk }),
    ...(targets.server === undefined ? {} : { server: targets.server }),
    ...(targets.providers === false ? { providers: false } : {}),
    ...(targets.auth === undefined ? {} : { auth: targets.auth }),
  };
  if (targets.tests === undefined) return sdk;
  const testsDir = resolve(cwd, targets.tests);
  const handlers =
    targets.handlers === undefined
      ? {}
      : {
          handlersModule: posixRelative(testsDir, resolve(cwd, targets.handlers)),
          ...(targets.runInTests === undefined || targets.runInTests.length === 0 ? {} : { runInTests: targets.runInTests }),
        };
  return { tests: { outFromTests: posixRelative(testsDir, resolve(cwd, out)), ...handlers }, ...sdk };
}

function layoutOf(out: string, cwd: string, targets: CompileTargets & { readonly docs?: DocsTarget }): OutputLayout {
  return {
    out: resolve(cwd, out),
    ...(targets.tests === undefined ? {} : { tests: resolve(cwd, targets.tests) }),
    ...(targets.docs === undefined ? {} : { docs: targets.docs.out }),
  };
}

/**
 * What the catalog depends on besides the definitions and the layout: its
 * title and folder names, the diff rules, and what each changelog base holds
 * (read without loading them); or why a base cannot be read.
 */
function catalogKey(docs: DocsTarget, definitions: string): { key: string; diagnostics: readonly Diagnostic[] } {
  const where = definitionsIn(docs.root, definitions);
  const bases = baseIdentities(docs.changelog, where, docs.root, docs.configFile);
  return {
    key: hashText(
      docs.title,
      where,
      docs.root,
      diffConfigKey(docs.diffConfig),
      JSON.stringify(docs.normalize),
      ...docs.changelog.map((b) => b.base),
      bases.key,
    ),
    diagnostics: bases.diagnostics,
  };
}

/** Compiles definitions to the files toolc would write, or diagnostics. Never uses the cache. */
export async function compile(definitions: string, out: string, cwd: string, targets: CompileTargets = {}): Promise<CompileOutput> {
  const texts = readDefinitionTexts(resolve(cwd, definitions), cwd);
  if (!texts) {
    // A missing or empty folder: loading reports it, located.
    const { loadDefinitions } = await import("../load/index.js");
    return { diagnostics: loadDefinitions(resolve(cwd, definitions), { displayRoot: cwd }).diagnostics, tools: 0 };
  }
  const { compileTexts } = await import("./compile-texts.js");
  return compileTexts({ emitOptions: emitOptions(out, cwd, targets) }, texts);
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
  readonly texts: readonly DefinitionText[];
}

/**
 * Everything output depends on besides the definition texts, as one hash.
 * The format style is toolc's own and part of its code, so the fingerprint
 * covers it; no consumer file is read.
 */
function settingsKey(layout: OutputLayout, cwd: string, options: EmitOptions): string {
  return hashText(toolcFingerprint(), JSON.stringify(options), JSON.stringify(layout), cwd);
}

/** Nothing to write; only foreign files can still differ, and they fail `check`. */
function unchangedResult(manifest: RunManifest, plan: OutputPlan, layout: OutputLayout, cwd: string, mode: RunOptions["mode"]): RunResult {
  const diff = differences(plan, layout, cwd);
  return { ok: mode === "generate" || diff.length === 0, diagnostics: manifest.diagnostics, tools: manifest.tools, plan, differences: diff };
}

function rememberRun(run: CachedRun, compiled: CompileOutput & { files: EmittedFile[] }): void {
  const files = compiled.files.map((f) => ({ path: f.path, ...(f.root === undefined ? {} : { root: f.root }), hash: hashText(f.text) }));
  const manifest: RunManifest = { tools: compiled.tools, diagnostics: compiled.diagnostics, files };
  writeEntry(run.cache, "runs", run.runKey, manifest);
  pruneEntries(run.cache, "runs", new Set([run.runKey]));
  pruneEntries(run.cache, "kinds", new Set([run.settingsKey]));
}

/** The cached compile: the last run's manifest when inputs and disk agree with it, else a compile that reuses unchanged tools. */
async function compileCached(
  options: RunOptions,
  cwd: string,
  layout: OutputLayout,
  extraKey: string,
): Promise<{ result?: RunResult; compiled?: CompileOutput; run?: CachedRun }> {
  const cache = options.cache === false ? undefined : openCache(layout.out, options.mode === "check");
  if (!cache) return {};
  const texts = readDefinitionTexts(resolve(cwd, options.definitions), cwd);
  if (!texts) return {};
  const emit = emitOptions(options.out, cwd, options);
  const key = settingsKey(layout, cwd, emit);
  const run: CachedRun = { cache, settingsKey: key, runKey: hashText(key, extraKey, ...texts.flatMap((t) => [t.source, t.display, t.text])), texts };
  const manifest = readEntry<RunManifest>(cache, "runs", run.runKey);
  const plan = manifest && planByHash(manifest.files, layout, (text) => hashText(text));
  if (manifest && plan) return { result: unchangedResult(manifest, plan, layout, cwd, options.mode) };
  const { compileTexts } = await import("./compile-texts.js");
  const compiled = await compileTexts({ cache: { store: cache, settingsKey: key }, emitOptions: emit }, texts);
  return { compiled, run };
}

/** Compiling filled Ajv's caches with every schema of the run; release them (imported here, so a no-op run never loads Ajv). */
async function releaseCompileCaches(): Promise<void> {
  const { releaseSharedAjv } = await import("../ajv-shared.js");
  releaseSharedAjv();
}

/** The compile's files with the catalog's, which is built from the same IR. */
async function withCatalog(compiled: CompileOutput, docs: DocsTarget, definitions: string): Promise<CompileOutput> {
  if (!compiled.files || !compiled.ir) return compiled;
  const [{ catalogFiles }, { byPath }] = await Promise.all([import("../docs/catalog.js"), import("../emit/index.js")]);
  const catalog = await catalogFiles(docs, definitions, compiled.ir);
  const diagnostics = [...compiled.diagnostics, ...catalog.diagnostics];
  if (!catalog.files || hasErrors(catalog.diagnostics)) return { diagnostics, tools: compiled.tools };
  const files = [...compiled.files, ...catalog.files.map((f): EmittedFile => ({ ...f, root: "docs" }))].sort(byPath);
  return { ...compiled, files, diagnostics };
}

export async function run(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const layout = layoutOf(options.out, cwd, options);
  const docsKey = options.docs === undefined ? undefined : catalogKey(options.docs, resolve(cwd, options.definitions));
  if (docsKey && docsKey.diagnostics.length > 0) return { ok: false, diagnostics: docsKey.diagnostics, tools: 0, differences: [] };
  const cached = await compileCached(options, cwd, layout, docsKey?.key ?? "");
  if (cached.result) return cached.result;
  let compiled: CompileOutput;
  try {
    compiled = cached.compiled ?? (await compile(options.definitions, options.out, cwd, options));
    if (options.docs) compiled = await withCatalog(compiled, options.docs, resolve(cwd, options.definitions));
  } finally {
    await releaseCompileCaches();
  }
  if (!compiled.files) return { ok: false, diagnostics: compiled.diagnostics, tools: compiled.tools, differences: [] };
  const plan = planOutput(compiled.files, layout);
  const diff = differences(plan, layout, cwd);
  if (options.mode === "generate") {
    applyOutput(plan, layout);
    if (cached.run) rememberRun(cached.run, { ...compiled, files: compiled.files });
  }
  return { ok: options.mode === "generate" || diff.length === 0, diagnostics: compiled.diagnostics, tools: compiled.tools, plan, differences: diff };
}
