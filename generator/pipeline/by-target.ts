/**
 * What a run of a plan writes, target by target: the same compile as
 * `runPlan` (the definitions read once, the targets' run-level files from
 * the same IR), with each file under the target that made it and each
 * file's path where the write puts it. Tests and tools that need "the files
 * of the output" ask here instead of listing them, so a new target's files
 * are counted as soon as it is in the registry.
 */
import { hasErrors } from "../diagnostics.js";
import type { TargetFiles } from "../emit/index.js";
import type { Diagnostic, EmittedFile } from "../ir.js";
import { readDefinitionTexts } from "../load/files.js";
import { emitOptionsOf, layoutOf, type Plan } from "../plan/index.js";
import { targetOf } from "../write/output.js";
import { compilePlan } from "./run.js";

export interface TargetOutput extends TargetFiles {
  /** Absolute path of each of `files`, in order, as the write places it. */
  readonly paths: readonly string[];
  /** Absolute paths of `runtime`. */
  readonly runtimePaths: readonly string[];
}

export interface OutputByTarget {
  readonly diagnostics: readonly Diagnostic[];
  /** Absent when the compile has errors. */
  readonly targets?: readonly TargetOutput[];
}

/** The plan compiled, its files grouped by target (the runtime copies last, as `runtime`). Never uses the build cache; writes nothing. */
export async function outputByTarget(plan: Plan): Promise<OutputByTarget> {
  const texts = readDefinitionTexts(plan.definitions, plan.cwd);
  const compiled = await compilePlan(plan, texts);
  if (!compiled.ir || !compiled.files || !texts) return { diagnostics: compiled.diagnostics };
  const { emitByTarget, loadTargets } = await import("../emit/index.js");
  const loaded = await loadTargets();
  const groups = emitByTarget(compiled.ir, emitOptionsOf(plan), loaded).map((g) => ({ ...g, files: [...g.files] }));
  const diagnostics = [...compiled.diagnostics];
  for (const { target, emitter } of loaded) {
    if (emitter.runFiles === undefined) continue;
    const made = await emitter.runFiles({ ir: compiled.ir, texts }, plan);
    diagnostics.push(...made.diagnostics);
    if (hasErrors(made.diagnostics)) return { diagnostics };
    const group = groups.find((g) => g.target === target.name);
    if (group) group.files.push(...(made.files ?? []));
    else groups.push({ target: target.name, files: [...(made.files ?? [])], runtime: [] });
  }
  const layout = layoutOf(plan);
  const at = (file: Pick<EmittedFile, "path" | "root">): string => targetOf(layout, file);
  return {
    diagnostics,
    targets: groups.map((g) => ({ ...g, paths: g.files.map(at), runtimePaths: g.runtime.map((path) => at({ path })) })),
  };
}
