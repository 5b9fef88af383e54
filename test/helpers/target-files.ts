/**
 * The files a project's run writes, by target, as `toolc generate` in that
 * folder would write them (its toolc.config.yaml and package.json read as
 * the CLI reads them): tests that count or list output files ask here
 * (generator/pipeline/by-target.ts) instead of naming them, so a new
 * target's files are in their lists without editing them.
 */
import { relative, sep } from "node:path";
import { outputByTarget, type TargetOutput } from "../../generator/pipeline/by-target.js";
import { resolvePlan, type Plan } from "../../generator/plan/index.js";
import type { SettingFlags } from "../../generator/config/settings.js";

export interface ProjectFiles {
  /** Each target's files, paths relative to the project folder (posix), in the order it makes them. */
  readonly byTarget: ReadonlyMap<string, readonly string[]>;
  /** The runtime copies each target alone brings in, relative to the project folder. */
  readonly runtimeOf: ReadonlyMap<string, readonly string[]>;
  /** Every file the run writes, relative to the project folder, sorted. */
  readonly all: readonly string[];
  readonly plan: Plan;
}

const posix = (from: string, path: string): string => relative(from, path).split(sep).join("/");

/**
 * What `toolc generate` in `dir` (with `flags`) writes; throws when the project does not compile, with its diagnostics.
 * `catalog: false` leaves the config's catalog out (its changelog reads git history).
 */
export async function projectFiles(dir: string, flags: SettingFlags = {}, options: { readonly catalog?: boolean } = {}): Promise<ProjectFiles> {
  const resolved = await resolvePlan(dir, flags);
  if (!resolved.plan) throw new Error(`no plan for ${dir}: ${JSON.stringify(resolved.diagnostics)}`);
  const { catalog: _, ...withoutCatalog } = resolved.plan;
  const plan = options.catalog === false ? withoutCatalog : resolved.plan;
  const output = await outputByTarget(plan);
  if (!output.targets) throw new Error(`${dir} does not compile: ${JSON.stringify(output.diagnostics.filter((d) => d.severity === "error"))}`);
  const targets: readonly TargetOutput[] = output.targets;
  return {
    byTarget: new Map(targets.map((t) => [t.target, t.paths.map((p) => posix(dir, p))])),
    runtimeOf: new Map(targets.map((t) => [t.target, t.runtimePaths.map((p) => posix(dir, p))])),
    all: targets.flatMap((t) => t.paths.map((p) => posix(dir, p))).sort(),
    plan,
  };
}

/** The files of `after` whose text differs from `before` or that `before` has not (snapshots by relative path). */
export function changedFiles(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  return Object.keys(after)
    .filter((path) => before[path] !== after[path])
    .sort();
}
