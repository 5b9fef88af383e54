/**
 * One tool from its definition text to its files: load, normalize on its
 * own against the named types, and emit. A tool depends on nothing else, so
 * this is the unit the build cache stores and the unit worker threads share
 * out (worker-pool.ts); everything that needs all tools at once is done by
 * the caller (compile-texts.ts) after.
 */
import { releaseSharedAjv } from "../ajv-shared.js";
import { hasErrors } from "../diagnostics.js";
import { compileToolValidator } from "../emit/validators.js";
import { emitToolFiles, loadTargets, type EmitOptions, type LoadedTarget } from "../emit/index.js";
import type { Diagnostic, EmittedFile, ToolIR } from "../ir.js";
import type { DefinitionText } from "../load/files.js";
import { loadDefinitionsFromTexts, type LoadedDefinitions, type YamlSource } from "../load/index.js";
import type { NormalizeOptions } from "../normalize/access.js";
import { collectGarbage } from "./collect-garbage.js";
import { packedEntry } from "./packed-files.js";
import { isTypesFile, normalizeOneTool, normalizeTypes, type NormalizedTypes } from "../normalize/index.js";

/**
 * What compiling a tool reads of the plan: the normalize options (scopes,
 * rate limits, loading, the provider lints) and what the targets read (the
 * emit options, each target's own under its name). Plain data: it crosses to
 * the worker threads, and the build cache's keys cover it.
 */
export interface CompileOptions {
  readonly normalize: NormalizeOptions;
  readonly emit: EmitOptions;
}

/** What a definition file is; `undefined` when it did not load (its diagnostics say why). */
export type DefinitionKind = "types" | "tool" | undefined;

export interface Classified {
  readonly kinds: readonly DefinitionKind[];
  /** What loading reported, per text. */
  readonly diagnostics: readonly (readonly Diagnostic[])[];
}

/** A tool's share of a compile: its IR, where its name is, its diagnostics, and its files (none when it has errors). */
export interface ToolEntry {
  readonly tool: ToolIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly EmittedFile[];
}

/** A tool text that did not load, or loaded as something else than a tool. */
export interface FailedTool {
  readonly failed: true;
  readonly diagnostics: readonly Diagnostic[];
}

export type ToolOutcome = ToolEntry | FailedTool;

/** Loads and compiles tools; in this thread (this class) or spread over worker threads (worker-pool.ts). */
export interface ToolCompiler {
  /** Loads `texts` and tells types files from tools; the loaded files are kept for `compile`. */
  classify(texts: readonly DefinitionText[]): Promise<Classified>;
  /** Each tool compiled against the named types of `typeTexts`, in the order given. */
  compile(typeTexts: readonly DefinitionText[], tools: readonly DefinitionText[], options: CompileOptions): Promise<ToolOutcome[]>;
  /** The named types this compiler normalized for `typeTexts`, when it runs in this thread: the caller then normalizes them no second time. */
  namedTypes?(typeTexts: readonly DefinitionText[]): NormalizedTypes;
  close(): Promise<void>;
}

/** Loads definition texts (parse and meta-schema check): load/index.ts's, or a test's that counts. */
export type DefinitionLoader = (texts: readonly DefinitionText[]) => LoadedDefinitions;

/** The named types of `typeTexts`, which must all load (the caller has classified them). */
export function typesFromTexts(typeTexts: readonly DefinitionText[], load: DefinitionLoader = loadDefinitionsFromTexts): NormalizedTypes {
  return normalizeTypes(load(typeTexts).files.filter(isTypesFile));
}

export function compileTool(file: YamlSource, types: NormalizedTypes, options: CompileOptions, targets: readonly LoadedTarget[]): ToolEntry {
  // Compiled as the validators are, once: the emit prints what normalize's compile made (emit/validators.ts).
  const { tool, diagnostics } = normalizeOneTool(file, types, options.normalize, compileToolValidator);
  // A named type that failed its own checks (reported once, at the types file) fails the run; a tool
  // that uses it must not reach the emitters, whose compilers would throw on it.
  const files = hasErrors(diagnostics) || hasErrors(types.diagnostics) ? [] : emitToolFiles(tool, options.emit, targets);
  return { tool, diagnostics, files };
}

/**
 * Tools compiled between two releases of the shared Ajv instances. Starting
 * them costs about 0.1 s (formats, keywords, the meta-schema), what compiling a
 * few tools costs; what they keep grows by about 60 KB per tool (GitHub's).
 */
export const AJV_RELEASE_EVERY = 200;

export class LocalToolCompiler implements ToolCompiler {
  /** Loaded files by source path, from `classify`, so a tool is parsed once. */
  readonly #loaded = new Map<string, { text: string; file: YamlSource }>();
  /** Tools compiled since the shared Ajv instances were last started afresh. */
  #compiledSinceRelease = 0;
  readonly #releaseAjvEvery: number;
  /** Run where the instances are released, when most of what those tools left is garbage (collect-garbage.ts). */
  readonly #collect: () => void;
  readonly #load: DefinitionLoader;

  constructor(options: { readonly releaseAjvEvery?: number; readonly collect?: () => void; readonly load?: DefinitionLoader } = {}) {
    this.#releaseAjvEvery = options.releaseAjvEvery ?? AJV_RELEASE_EVERY;
    this.#collect = options.collect ?? collectGarbage;
    this.#load = options.load ?? loadDefinitionsFromTexts;
  }

  /** The last named types, by the texts they came from: every `compile` of a run passes the same. */
  #types: { key: string; types: NormalizedTypes } | undefined;

  async classify(texts: readonly DefinitionText[]): Promise<Classified> {
    const kinds: DefinitionKind[] = [];
    const diagnostics: Diagnostic[][] = [];
    for (const text of texts) {
      const loaded = this.#load([text]);
      const file = loaded.files[0];
      if (file) this.#loaded.set(text.source, { text: text.text, file });
      kinds.push(file === undefined ? undefined : isTypesFile(file) ? "types" : "tool");
      diagnostics.push([...loaded.diagnostics]);
    }
    return { kinds, diagnostics };
  }

  async compile(typeTexts: readonly DefinitionText[], tools: readonly DefinitionText[], options: CompileOptions): Promise<ToolOutcome[]> {
    const types = this.#typesOf(typeTexts);
    const targets = await loadTargets();
    return tools.map((text) => {
      // The shared Ajv instances keep every schema they compiled (its cache and its scope), which no later tool
      // compiles again: started afresh every so many tools, the run's memory does not grow with the API.
      if (++this.#compiledSinceRelease > this.#releaseAjvEvery) {
        releaseSharedAjv();
        this.#collect();
        this.#compiledSinceRelease = 1;
      }
      const file = this.#take(text);
      if ("failed" in file) return file;
      return packedEntry(compileTool(file, types, options, targets));
    });
  }

  namedTypes(typeTexts: readonly DefinitionText[]): NormalizedTypes {
    return this.#typesOf(typeTexts);
  }

  async close(): Promise<void> {
    this.#loaded.clear();
  }

  #typesOf(typeTexts: readonly DefinitionText[]): NormalizedTypes {
    const key = JSON.stringify(typeTexts);
    if (this.#types?.key !== key) this.#types = { key, types: this.#namedTypesOf(typeTexts) };
    return this.#types.types;
  }

  /**
   * The types files as `classify` loaded them, when it loaded each of these texts: parsing and checking them
   * again cost as much as loading a third of GitHub's tools (deep component schemas). They stay loaded for
   * the run either way: the named types locate their diagnostics in them.
   */
  #namedTypesOf(typeTexts: readonly DefinitionText[]): NormalizedTypes {
    const known = typeTexts.map((text) => {
      const loaded = this.#loaded.get(text.source);
      return loaded?.text === text.text && isTypesFile(loaded.file) ? loaded.file : undefined;
    });
    const files = known.filter((file) => file !== undefined);
    return files.length === typeTexts.length ? normalizeTypes(files) : typesFromTexts(typeTexts, this.#load);
  }

  /** The tool's loaded file, no longer kept: its YAML document (kept for locating diagnostics) is dropped once the tool is compiled. */
  #take(text: DefinitionText): YamlSource | FailedTool {
    const known = this.#loaded.get(text.source);
    this.#loaded.delete(text.source);
    if (known && known.text === text.text) return known.file;
    const loaded = this.#load([text]);
    const file = loaded.files[0];
    if (file === undefined || isTypesFile(file)) return { failed: true, diagnostics: loaded.diagnostics };
    return file;
  }
}
