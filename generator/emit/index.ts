/**
 * Phase 3, emit: every target (targets/registry.ts) is a pure function from
 * the IR to files. No target reads another's output; they agree because
 * they share the IR. This module runs the list: each target's files per
 * tool, its files of the whole IR, and the runtime its files import.
 */
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { ContractIR, Diagnostic, EmittedFile, ToolIR } from "../ir.js";
import { TARGETS } from "../targets/registry.js";
import type { Target, TargetEmitter } from "../targets/target.js";
import type { ContractTestOptions } from "./contract-tests.js";
import { emitRuntimeFiles, type McpSdkLine, type RuntimeNeeds } from "./runtime-files.js";

export interface EmitOptions {
  /** Contract tests, and how they reach the output folder and the handlers; none when absent. */
  readonly tests?: ContractTestOptions;
  /** The MCP SDK line the runtime and the contract tests import; 1 when absent. */
  readonly mcpSdk?: McpSdkLine;
  /** What the generated server says about itself unless told otherwise (index.ts). */
  readonly server?: ServerDefaultsSetting;
  /**
   * Each target's own options, by target name, as the plan gives them: those
   * of the targets that parse a config section of their own (Target.config),
   * and those the plan derives from the core settings (the providers
   * target's `false` for `providers: false`; the HTTP and fetch targets'
   * `auth`). Plain data. The normalize settings are not here: the compile
   * takes the plan's normalize options beside these (CompileOptions).
   */
  readonly targets?: Readonly<Record<string, unknown>>;
}

export type { McpSdkLine };
export { emitRuntimeFiles };

/** A target with its emitter imported. */
export interface LoadedTarget {
  readonly target: Target;
  readonly emitter: TargetEmitter;
}

let loaded: Promise<readonly LoadedTarget[]> | undefined;

/** Every target's emitter, imported once per thread (the compile's first step, and each worker's). */
export function loadTargets(): Promise<readonly LoadedTarget[]> {
  return (loaded ??= Promise.all(TARGETS.map(async (target) => ({ target, emitter: await target.load() }))));
}

const enabled = (options: EmitOptions) => (t: LoadedTarget) => t.target.enabled?.(options) ?? true;

/**
 * What every target this run writes says of the IR (Target.lint), in the
 * registry's order: the compile's and `toolc diff`'s check of the contracts
 * beyond normalize's. Descriptors only, so no emitter is loaded for it.
 */
export function lintTargets(ir: ContractIR, options: EmitOptions, targets: readonly Target[] = TARGETS): Diagnostic[] {
  return targets.filter((target) => target.enabled?.(options) ?? true).flatMap((target) => target.lint?.(ir, options) ?? []);
}

/** What of the runtime a project's generated files import: what each target this run writes says its files import. */
function runtimeNeeds(targets: readonly LoadedTarget[], options: EmitOptions, ir: ContractIR): RuntimeNeeds {
  const needs = targets.filter(enabled(options)).map((t) => t.target.runtime?.(options) ?? {});
  // The one need the IR decides: a view to serve (MCP Apps).
  const apps = ir.tools.some((tool) => tool.ui?.view !== undefined) ? { apps: true } : {};
  return Object.assign({ tests: false, providers: false, auth: false }, ...needs, apps) as RuntimeNeeds;
}

/**
 * Files that depend on the whole IR rather than on one tool: each target's shared files, then the runtime its
 * files import (no contract-test helper without tests, no provider runtime without providers.ts). `each`, when
 * given, takes each target's files as they are made (the pipeline packs them and lets that target's garbage go).
 */
export function emitShared(
  ir: ContractIR,
  options: EmitOptions,
  targets: readonly LoadedTarget[],
  each: (files: readonly EmittedFile[]) => readonly EmittedFile[] = (files) => files,
): EmittedFile[] {
  return [
    ...targets.filter(enabled(options)).flatMap((t) => (t.emitter.sharedFiles === undefined ? [] : each(t.emitter.sharedFiles(ir, options)))),
    ...emitRuntimeFiles(runtimeNeeds(targets, options, ir)),
  ];
}

/** Files that depend on one tool alone, so a build cache can reuse them while the tool is unchanged. */
export function emitToolFiles(tool: ToolIR, options: EmitOptions, targets: readonly LoadedTarget[]): EmittedFile[] {
  return targets.filter(enabled(options)).flatMap((t) => t.emitter.toolFiles?.(tool, options) ?? []);
}

/**
 * The run's per-tool files as written: each part (`EmittedFile.part`) joined
 * by the target that made it, from every tool's parts at once, the other
 * files as they are.
 */
export function joinParts(files: readonly EmittedFile[], ir: ContractIR, options: EmitOptions, targets: readonly LoadedTarget[]): EmittedFile[] {
  const whole = files.filter((f) => f.part === undefined);
  if (whole.length === files.length) return whole;
  const joined = targets.filter(enabled(options)).flatMap((t) => {
    const parts = files.filter((f) => f.part === t.target.name);
    return parts.length === 0 ? [] : (t.emitter.joinParts?.(parts, ir, options) ?? []);
  });
  return [...whole, ...joined];
}

/** Output files first, then tests; by path within each. */
export function byPath(a: EmittedFile, b: EmittedFile): number {
  const ra = a.root ?? "";
  const rb = b.root ?? "";
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The files one target makes of the IR, and the runtime modules it alone brings into the output. */
export interface TargetFiles {
  readonly target: string;
  /** Its per-tool files (tool by tool, in the IR's order), then its shared files. */
  readonly files: readonly EmittedFile[];
  /** The runtime copies (`runtime/<name>.ts`) the output holds only because this target is written. */
  readonly runtime: readonly string[];
}

/**
 * The same files as emitShared and every tool's emitToolFiles, grouped by
 * the target that makes them (the runtime copies under the name `runtime`),
 * so that a caller can ask what a target writes without naming its files:
 * a new target's files are in the answer as soon as it is in the registry.
 */
export function emitByTarget(ir: ContractIR, options: EmitOptions, targets: readonly LoadedTarget[]): TargetFiles[] {
  const on = targets.filter(enabled(options));
  const runtime = emitRuntimeFiles(runtimeNeeds(on, options, ir)).map((f) => f.path);
  const groups = on.map((t): TargetFiles => {
    const without = new Set(
      emitRuntimeFiles(
        runtimeNeeds(
          on.filter((other) => other !== t),
          options,
          ir,
        ),
      ).map((f) => f.path),
    );
    return {
      target: t.target.name,
      files: [
        ...joinParts(
          ir.tools.flatMap((tool) => t.emitter.toolFiles?.(tool, options) ?? []),
          ir,
          options,
          [t],
        ),
        ...(t.emitter.sharedFiles?.(ir, options) ?? []),
      ],
      runtime: runtime.filter((path) => !without.has(path)),
    };
  });
  return [...groups, { target: RUNTIME_GROUP, files: emitRuntimeFiles(runtimeNeeds(on, options, ir)), runtime: [] }];
}

/** The name emitByTarget gives the runtime copies' group (no target is called that: test/targets checks it). */
export const RUNTIME_GROUP = "runtime";
