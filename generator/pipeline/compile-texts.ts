/**
 * The compile, load → normalize → emit, from definition texts to the files
 * toolc would write; the same code with or without the build cache. Every
 * emitter prints its file in its final layout, so nothing is formatted here.
 *
 * Each tool is compiled on its own against the named types
 * (compile-tool.ts), on worker threads for a large run; with a cache, a
 * tool whose text and types are unchanged comes from its entry instead.
 * What needs every tool at once (the name lints, the targets' lints, "no tools", the shared
 * files) is done here, from all the tools' entries, so a partial compile
 * is the full one by construction.
 */
import { hashText, pruneEntries, readEntry, writeEntry, type BuildCache } from "../cache.js";
import { hasErrors } from "../diagnostics.js";
import { byPath, emitShared, joinParts, lintTargets, loadTargets } from "../emit/index.js";
import type { ContractIR, Diagnostic, EmittedFile } from "../ir.js";
import type { DefinitionText } from "../load/files.js";
import { assemble } from "../normalize/index.js";
import { typesFromTexts, type CompileOptions, type DefinitionKind, type ToolCompiler, type ToolEntry } from "./compile-tool.js";
import { collectAfter } from "./collect-garbage.js";
import { packedFile, restoredEntry, storedEntry, type StoredToolEntry } from "./packed-files.js";
import { openToolCompiler } from "./worker-pool.js";

export interface CompileOutput {
  /** Absent when there are errors. */
  readonly files?: EmittedFile[];
  /** The IR the files were emitted from; absent when there are errors. */
  readonly ir?: ContractIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
}

export interface CompileContext {
  /** The plan's normalize and emit options (plan/index.ts compileOptionsOf). */
  readonly options: CompileOptions;
  /** The build cache and the hash of toolc's fingerprint, the folders and the run options; none for a plain compile. */
  readonly cache?: { readonly store: BuildCache; readonly settingsKey: string };
}

const textKey = (t: DefinitionText): string[] => [t.source, t.display, t.text];

/** Kinds remembered by text hash, so unchanged files need no parse to tell. */
function knownKinds(ctx: CompileContext): Record<string, DefinitionKind> {
  return ctx.cache ? (readEntry<Record<string, DefinitionKind>>(ctx.cache.store, "kinds", ctx.cache.settingsKey) ?? {}) : {};
}

/** A compiler opened on first use, sized by the first batch of work: a run that finds every tool in the cache starts no worker. */
function lazyCompiler(): { get(work: number): ToolCompiler; opened(): ToolCompiler | undefined; close(): Promise<void> } {
  let compiler: ToolCompiler | undefined;
  return {
    get: (work) => (compiler ??= openToolCompiler(work)),
    opened: () => compiler,
    close: async () => compiler?.close(),
  };
}

/** The kind of every text, loading those not known; load diagnostics of the texts that did not load. */
async function classify(ctx: CompileContext, compiler: ReturnType<typeof lazyCompiler>, texts: readonly DefinitionText[]) {
  const known = knownKinds(ctx);
  const unknown = texts.filter((t) => known[hashText(t.text)] === undefined);
  // Every text is likely to be compiled too when some are new, so the compiler is sized for all of them.
  const classified = unknown.length === 0 ? { kinds: [], diagnostics: [] } : await compiler.get(texts.length).classify(unknown);
  const kinds = new Map<string, DefinitionKind>(texts.map((t) => [t.source, known[hashText(t.text)]]));
  unknown.forEach((t, i) => kinds.set(t.source, classified.kinds[i]));
  collectAfter(unknown.length);
  return { kinds, diagnostics: classified.diagnostics.flat() };
}

interface Planned {
  readonly text: DefinitionText;
  readonly key: string;
  readonly entry?: ToolEntry;
}

/** Tool entries: from the cache when their key is there, else compiled. */
async function toolEntries(
  ctx: CompileContext,
  compiler: ReturnType<typeof lazyCompiler>,
  typeTexts: readonly DefinitionText[],
  toolTexts: readonly DefinitionText[],
) {
  const typesKey = hashText(ctx.cache?.settingsKey ?? "", ...typeTexts.flatMap(textKey));
  const planned: Planned[] = toolTexts.map((text) => {
    const key = hashText(typesKey, ...textKey(text));
    const stored = ctx.cache ? readEntry<StoredToolEntry>(ctx.cache.store, "tools", key) : undefined;
    const entry = stored === undefined ? undefined : restoredEntry(stored);
    return { text, key, ...(entry === undefined ? {} : { entry }) };
  });
  const changed = planned.filter((p) => !p.entry);
  const outcomes =
    changed.length === 0
      ? []
      : await compiler.get(changed.length).compile(
          typeTexts,
          changed.map((p) => p.text),
          ctx.options,
        );
  const fresh = new Map(changed.map((p, i) => [p.key, outcomes[i]]));
  const entries: ToolEntry[] = [];
  const failed: Diagnostic[] = [];
  for (const p of planned) {
    const outcome = p.entry ?? fresh.get(p.key);
    if (outcome === undefined || "failed" in outcome) failed.push(...(outcome?.diagnostics ?? []));
    else entries.push(outcome);
  }
  return { planned, fresh, entries, failed };
}

function remember(
  cache: NonNullable<CompileContext["cache"]>,
  texts: readonly DefinitionText[],
  kinds: Map<string, DefinitionKind>,
  tools: Awaited<ReturnType<typeof toolEntries>>,
): void {
  for (const [key, outcome] of tools.fresh)
    if (!("failed" in outcome) && !hasErrors(outcome.diagnostics)) writeEntry(cache.store, "tools", key, storedEntry(outcome));
  const loaded = texts.filter((t) => kinds.get(t.source) !== undefined);
  writeEntry(cache.store, "kinds", cache.settingsKey, Object.fromEntries(loaded.map((t) => [hashText(t.text), kinds.get(t.source)])));
  pruneEntries(cache.store, "tools", new Set(tools.planned.map((p) => p.key)));
}

export async function compileTexts(ctx: CompileContext, texts: readonly DefinitionText[]): Promise<CompileOutput> {
  const compiler = lazyCompiler();
  try {
    const { kinds, diagnostics: loadDiagnostics } = await classify(ctx, compiler, texts);
    const typeTexts = texts.filter((t) => kinds.get(t.source) === "types");
    const toolTexts = texts.filter((t) => kinds.get(t.source) === "tool");
    const tools = await toolEntries(ctx, compiler, typeTexts, toolTexts);
    // The named types once per run: those the in-thread compiler normalized, else (worker threads, or every tool cached) here.
    const types = compiler.opened()?.namedTypes?.(typeTexts) ?? typesFromTexts(typeTexts);
    // Every enabled target's lint of the whole IR (Target.lint) runs with the lints across tools, before the gate.
    const { ir, diagnostics } = assemble(types, tools.entries, [...loadDiagnostics, ...tools.failed], (all) => lintTargets(all, ctx.options.emit));
    if (hasErrors(diagnostics)) return { diagnostics, tools: ir.tools.length };
    const byName = new Map(tools.entries.map((e) => [e.tool.name, e]));
    const targets = await loadTargets();
    // The tools' code joined into the files written (a module per tool or per group, and the contracts): held packed like the rest.
    const toolFiles = joinParts(
      ir.tools.flatMap((tool) => byName.get(tool.name)?.files ?? []),
      ir,
      ctx.options.emit,
      targets,
    ).map(packedFile);
    collectAfter(tools.fresh.size);
    // Each target's shared files held packed, its garbage let go before the next target's (collect-garbage.ts).
    const shared = emitShared(ir, ctx.options.emit, targets, (files) => {
      const packed = files.map(packedFile);
      if (files.length > 0) collectAfter(tools.fresh.size);
      return packed;
    });
    if (ctx.cache) remember(ctx.cache, texts, kinds, tools);
    return { files: [...shared, ...toolFiles].sort(byPath), ir, diagnostics, tools: ir.tools.length };
  } finally {
    await compiler.close();
  }
}
