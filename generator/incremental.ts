/**
 * The same compile as pipeline.ts, load → normalize → emit → format, but
 * only for the tools whose inputs changed; every other tool's IR, formatted
 * files and diagnostics come from the build cache. The result is the list of
 * files a fresh compile would return, byte for byte.
 *
 * Whenever the subset could behave differently from the whole (any error,
 * a name clash across tools, a diagnostic that belongs to no one tool), it
 * answers undefined and the caller runs the plain, uncached compile, which
 * then reports exactly what it always reports.
 */
import type { Options } from "prettier";
import { hashText, pruneEntries, readEntry, writeEntry, type BuildCache } from "./cache.js";
import { Codes, formatDiagnostic, hasErrors, sortDiagnostics } from "./diagnostics.js";
import { byPath, emitShared, emitToolFiles, FORMATTED_FILES_PER_TOOL, type EmitOptions } from "./emit/index.js";
import type { Diagnostic, EmittedFile, ToolIR } from "./ir.js";
import type { DefinitionText } from "./load/files.js";
import { loadDefinitionsFromTexts, type YamlSource } from "./load/index.js";
import { normalize } from "./normalize/index.js";
import { openFormatter, type FormatMemo } from "./write/format.js";

/** What one tool contributes, given its own text and every types file's text. */
interface ToolEntry {
  readonly tool: ToolIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly EmittedFile[];
}

export interface CompileOutput {
  readonly files: EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
}

export interface IncrementalContext {
  readonly cache: BuildCache;
  /** Hash of toolc's fingerprint (its format style included), the folders and the run options. */
  readonly settingsKey: string;
  readonly emitOptions: EmitOptions;
  readonly formatOptions: Options;
}

const textKey = (t: DefinitionText): string[] => [t.source, t.display, t.text];

/** Which texts are types files, remembered by text hash so unchanged files need no parse to tell. */
function classify(ctx: IncrementalContext, texts: readonly DefinitionText[]): Map<string, boolean> | undefined {
  const known = readEntry<Record<string, boolean>>(ctx.cache, "kinds", ctx.settingsKey) ?? {};
  const unknown = texts.filter((t) => known[hashText(t.text)] === undefined);
  const loaded = loadDefinitionsFromTexts(unknown);
  if (loaded.diagnostics.length > 0) return undefined;
  loaded.files.forEach((file, i) => (known[hashText(unknown[i].text)] = Object.hasOwn(file.data as object, "types")));
  return new Map(texts.map((t) => [t.source, known[hashText(t.text)]]));
}

/** Mirrors normalize's name lints: any clash across tools goes to the plain path, which reports it. */
function namesClash(tools: readonly ToolIR[]): boolean {
  const names = new Set<string>();
  const identifiers = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) return true;
    names.add(tool.name);
    for (const identifier of [tool.baseName, tool.fileName.toLowerCase()]) {
      if (identifiers.has(identifier)) return true;
      identifiers.add(identifier);
    }
  }
  return false;
}

/** Diagnostics of `all` that `baseline` does not account for, as a multiset. */
function minus(all: readonly Diagnostic[], baseline: readonly Diagnostic[]): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const d of baseline) counts.set(formatDiagnostic(d), (counts.get(formatDiagnostic(d)) ?? 0) + 1);
  return all.filter((d) => {
    const n = counts.get(formatDiagnostic(d)) ?? 0;
    if (n > 0) counts.set(formatDiagnostic(d), n - 1);
    return n === 0;
  });
}

/** A prettier memo over cache entries, for the files that change with every tool set (index, types). */
function formatMemo(ctx: IncrementalContext, used: Set<string>): FormatMemo {
  const key = (file: EmittedFile): string => hashText(ctx.settingsKey, file.path, file.text);
  return {
    get: (file) => {
      used.add(key(file));
      return readEntry<{ text: string }>(ctx.cache, "format", key(file))?.text;
    },
    set: (file, text) => writeEntry(ctx.cache, "format", key(file), { text }),
  };
}

interface Planned {
  readonly text: DefinitionText;
  readonly key: string;
  readonly entry?: ToolEntry;
}

/** Normalizes the types files plus the changed tools; splits diagnostics into the types files' and each tool's. */
function normalizeChanged(types: readonly DefinitionText[], changed: readonly Planned[]) {
  const loaded = loadDefinitionsFromTexts([...types, ...changed.map((p) => p.text)]);
  if (hasErrors(loaded.diagnostics)) return undefined;
  const { ir, diagnostics } = normalize(loaded);
  // The types files alone give the diagnostics every run has; with no tool at all, also "no tools".
  const typeDisplays = new Set(types.map((t) => t.display));
  const typesOnly = normalize({
    files: loaded.files.filter((f: YamlSource) => Object.hasOwn(f.data as object, "types")),
    diagnostics: loaded.diagnostics.filter((d) => typeDisplays.has(d.file)),
  });
  const shared = typesOnly.diagnostics.filter((d) => d.code !== Codes.emptyDefinitions);
  const own = changed.length === 0 ? [] : minus(diagnostics, typesOnly.diagnostics);
  if (hasErrors(diagnostics.filter((d) => d.code !== Codes.emptyDefinitions || changed.length > 0))) return undefined;
  const byDisplay = new Map(changed.map((p) => [p.text.display, [] as Diagnostic[]]));
  for (const d of own) {
    const list = byDisplay.get(d.file);
    if (!list) return undefined;
    list.push(d);
  }
  return { ir, shared, byDisplay };
}

/** Compiles with the cache, or undefined when only the plain compile can answer exactly. */
export async function compileIncremental(ctx: IncrementalContext, texts: readonly DefinitionText[]): Promise<CompileOutput | undefined> {
  const isTypes = classify(ctx, texts);
  if (!isTypes) return undefined;
  const types = texts.filter((t) => isTypes.get(t.source));
  const typesKey = hashText(ctx.settingsKey, ...types.flatMap(textKey));
  const planned: Planned[] = texts.filter((t) => !isTypes.get(t.source)).map((text) => {
    const key = hashText(typesKey, ...textKey(text));
    return { text, key, entry: readEntry<ToolEntry>(ctx.cache, "tools", key) };
  });
  const changed = planned.filter((p) => !p.entry);
  const normalized = normalizeChanged(types, changed);
  if (!normalized) return undefined;
  const fresh = new Map(normalized.ir.tools.map((t) => [t.source, t]));
  const tools = planned.map((p) => p.entry?.tool ?? fresh.get(p.text.source));
  if (tools.some((t) => t === undefined) || namesClash(tools as ToolIR[])) return undefined;
  const sorted = [...(tools as ToolIR[])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const usedFormats = new Set<string>();
  const memo = formatMemo(ctx, usedFormats);
  // Every file is handed to the formatter as soon as it is emitted, so formatting overlaps emitting.
  const formatter = openFormatter({ options: ctx.formatOptions, expectedFiles: changed.length * FORMATTED_FILES_PER_TOOL });
  let shared: EmittedFile[];
  let entries: ToolEntry[];
  try {
    const sharedFiles = Promise.all(emitShared({ tools: sorted, typeFiles: normalized.ir.typeFiles }, ctx.emitOptions).map((f) => formatter.format(f, memo)));
    const toolEntries = planned.map(async (p): Promise<ToolEntry> => {
      if (p.entry) return p.entry;
      const tool = fresh.get(p.text.source) as ToolIR;
      const files = emitToolFiles(tool, ctx.emitOptions).map((f) => formatter.format(f));
      return { tool, diagnostics: normalized.byDisplay.get(p.text.display) ?? [], files: await Promise.all(files) };
    });
    [shared, entries] = await Promise.all([sharedFiles, Promise.all(toolEntries)]);
  } finally {
    await formatter.close();
  }
  const perTool = new Map<string, ToolEntry>();
  planned.forEach((p, i) => {
    perTool.set(p.key, entries[i]);
    if (!p.entry) writeEntry(ctx.cache, "tools", p.key, entries[i]);
  });
  writeEntry(ctx.cache, "kinds", ctx.settingsKey, Object.fromEntries(texts.map((t) => [hashText(t.text), isTypes.get(t.source)])));
  pruneEntries(ctx.cache, "tools", new Set(perTool.keys()));
  pruneEntries(ctx.cache, "format", usedFormats);
  return {
    files: [...shared, ...entries.flatMap((e) => e.files)].sort(byPath),
    diagnostics: sortDiagnostics([...normalized.shared, ...entries.flatMap((e) => e.diagnostics)]),
    tools: entries.length,
  };
}
