/**
 * A target: one kind of output toolc writes from the contracts (the types,
 * the validators, the MCP server and client, a catalog, a registry
 * manifest...). Each owns its config key and its parsing, the folder its
 * files go to, the marker they carry, its lints of the IR, its files (per
 * tool, from the whole IR, or once per run from the plan), and the runtime
 * modules they import.
 * The normalize options stay one derivation (normalize/access.ts
 * normalizeOptionsOf), which `toolc diff` also applies to a base's config. generator/targets/registry.ts lists them; nothing else names a
 * target, so a new one is a folder and a line there.
 *
 * A descriptor is light: its emitter is imported on first use (`load`), so a
 * run the build cache answers loads no emitter, and a worker thread imports
 * the emitters itself.
 */
import type { ContractIR, Diagnostic, EmittedFile, SourceLocation, ToolIR } from "../ir.js";
import type { EmitOptions } from "../emit/index.js";
import type { RuntimeNeeds } from "../emit/runtime-files.js";
import type { Plan } from "../core/plan.js";
import type { DefinitionText } from "../load/files.js";

/** The run's IR and the definition texts it was compiled from: what a target's run-level files start from (nothing reads the definitions again). */
export interface CompiledHead {
  readonly ir: ContractIR;
  readonly texts: readonly DefinitionText[];
}

/** The folder of the plan a target's files go to (write/output.ts `targetOf`). */
export type OutputRoot = "out" | "tests" | "docs";

/**
 * How the files of a target say toolc wrote them, so a later run may replace
 * or remove them (write/output.ts `isGenerated`): `generated` is the header
 * comment or field with GENERATED_MARKER, `runtime` the first line of a
 * runtime copy (RUNTIME_MARKER).
 */
export type OwnedMarker = "generated" | "runtime";

/** What a target's config parser may ask of the project. */
export interface ConfigContext {
  /** The project folder (the config file's), absolute. */
  readonly root: string;
  /** Where a node of the target's section is, for located diagnostics; `key` points at a map key. */
  locate(path: readonly (string | number)[], options?: { key?: boolean }): SourceLocation;
}

/** A target's section of toolc.config.yaml: its key, and its parser into plain (structured-clone safe) options. */
export interface TargetConfig<Options> {
  /** The top-level key; schema/config.schema.json describes it for editors (test/targets checks that it does). */
  readonly key: string;
  /** The section's value into the target's options, or located diagnostics (then the run stops before compiling). */
  parse(value: unknown, context: ConfigContext): { readonly options?: Options; readonly diagnostics: readonly Diagnostic[] };
}

/** A target's files: pure functions of the IR (or one tool) and the run's emit options. */
export interface TargetEmitter {
  /** Files of one tool alone: the unit the build cache stores and the worker threads share out. */
  toolFiles?(tool: ToolIR, options: EmitOptions): readonly EmittedFile[];
  /**
   * The files written in place of its per-tool parts (`EmittedFile.part`: a tool's share of files that depend on
   * the other tools too, such as a module holding several tools' code), given every tool's parts at once.
   */
  joinParts?(parts: readonly EmittedFile[], ir: ContractIR, options: EmitOptions): readonly EmittedFile[];
  /** Files of the whole IR (shared types, index modules, manifests). */
  sharedFiles?(ir: ContractIR, options: EmitOptions): readonly EmittedFile[];
  /**
   * Files that need the run's plan besides the IR (the catalog's changelog
   * reads its bases): made once per run, after the compile, from its IR and
   * the texts it read. The run's cache key covers their other inputs (`runKey`).
   */
  runFiles?(head: CompiledHead, plan: Plan): Promise<{ readonly files?: readonly EmittedFile[]; readonly diagnostics: readonly Diagnostic[] }>;
}

export interface Target<Options = unknown> {
  readonly name: string;
  readonly root: OutputRoot;
  readonly marker: OwnedMarker;
  /** Its config section; a target without one is on by the settings the core resolves (or always). */
  readonly config?: TargetConfig<Options>;
  /** Whether this run writes it; default: always. */
  enabled?(options: EmitOptions): boolean;
  /** The parts of the runtime its files import (runtime-files.ts RUNTIME_ROOTS). */
  runtime?(options: EmitOptions): RuntimeNeeds;
  /**
   * What the IR may not be for this target's files, beyond what normalize
   * checks of the contracts (the TypeScript targets: export names that would
   * clash). Run on the whole IR before any file is written, by the compile
   * and by `toolc diff`; an error stops the run. Kept on the descriptor, so
   * its imports stay light.
   */
  lint?(ir: ContractIR, options: EmitOptions): readonly Diagnostic[];
  /** What its `runFiles` depend on besides the definitions and the emit options, read without loading the compiler; or why it cannot be read. */
  runKey?(plan: Plan): { readonly key: string; readonly diagnostics: readonly Diagnostic[] };
  /** Its emitter, imported on first use. */
  load(): Promise<TargetEmitter>;
}

/** A target's options as the run carries them (EmitOptions.targets), by the target's name. */
export function optionsOf<Options>(target: Target<Options>, options: EmitOptions): Options | undefined {
  return options.targets?.[target.name] as Options | undefined;
}
