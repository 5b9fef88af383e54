/**
 * `toolc generate` and `toolc check` once: one run of the pipeline with the
 * resolved plan, its diagnostics, and one summary line. `check --diff`
 * also prints a unified diff of every difference.
 */
import { readFileSync } from "node:fs";
import { sep } from "node:path";
import { Codes, formatDiagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../ir.js";
import type { Plan } from "../plan/index.js";
import { runPlan, type RunResult } from "../pipeline/run.js";
import { WriteError } from "../write/apply.js";
import type { Difference } from "../write/output.js";
import { silencer } from "../config/diagnostics-ignore.js";
import { printDiagnostics, type DiagnosticsOutput } from "./diagnostics-output.js";
import type { Io } from "./io.js";

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export type Mode = "generate" | "check";

function summary(mode: Mode, result: RunResult, ms: number): string {
  const plan = result.plan;
  if (!plan) return "";
  const written = plan.added.length + plan.changed.length;
  if (mode === "check") {
    return `toolc check: ${plural(result.tools, "tool")}, ${plural(plan.unchanged.length, "file")} up to date, ${result.differences.length} differ (${ms} ms)\n`;
  }
  return `toolc: ${plural(result.tools, "tool")} compiled; ${plural(written, "file")} written, ${plan.unchanged.length} unchanged, ${plan.stale.length} removed (${ms} ms)\n`;
}

/** A unified diff from what is on disk to what toolc would write; /dev/null stands for no file. */
async function unifiedDiff(difference: Difference, onDisk: string | undefined): Promise<string> {
  const { createTwoFilesPatch } = await import("diff");
  const before = difference.status === "missing" ? "/dev/null" : `a/${difference.path}`;
  const after = difference.expected === undefined ? "/dev/null" : `b/${difference.path}`;
  return createTwoFilesPatch(before, after, onDisk ?? "", difference.expected ?? "", "", "", {
    headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
  });
}

async function printDiffs(differences: readonly Difference[], io: Io): Promise<void> {
  for (const difference of differences) {
    let onDisk: string | undefined;
    try {
      onDisk = difference.status === "missing" ? undefined : readFileSync(difference.target, "utf8");
    } catch {
      onDisk = undefined;
    }
    io.out(await unifiedDiff(difference, onDisk));
  }
}

/** Which folder toolc owns a foreign file is in: the output folder, or the catalog's. */
function folderOf(difference: Difference, docs: string | undefined): string {
  return docs !== undefined && difference.target.startsWith(docs + sep) ? "catalog folder" : "output folder";
}

/** How `generate` and `check` print: `--diff`, and how warnings are printed (diagnostics-output.ts). */
export interface ReportOptions extends DiagnosticsOutput {
  readonly diff?: boolean;
}

/** Prints a run's diagnostics and outcome; returns the exit status. `silenced` tells the warnings the config silences. */
export async function report(
  mode: Mode,
  result: RunResult,
  ms: number,
  io: Io,
  options: ReportOptions & { docs?: string; silenced?: (d: Diagnostic) => boolean } = {},
): Promise<number> {
  const silenced = options.silenced;
  printDiagnostics(silenced ? result.diagnostics.filter((d) => !silenced(d)) : result.diagnostics, io, options);
  if (!result.plan) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    io.err(`toolc: ${plural(errors, "error")}; nothing was written\n`);
    return 1;
  }
  const foreign = result.differences.filter((d) => d.status === "foreign");
  if (mode === "check") {
    for (const d of result.differences) io.err(`  ${d.status}: ${d.path}\n`);
    if (options.diff) await printDiffs(result.differences, io);
  } else {
    for (const d of foreign)
      io.err(`toolc: warning: ${d.path} was not written by toolc; \`toolc check\` fails until it is moved out of the ${folderOf(d, options.docs)}\n`);
  }
  io.out(summary(mode, result, ms));
  if (mode === "check") {
    if (result.differences.length > foreign.length)
      io.err(
        "toolc check: the output is stale; run `toolc generate` with the same settings (keep flags such as --handlers in toolc.config.yaml, which both read) and commit the result\n",
      );
    for (const folder of new Set(foreign.map((d) => folderOf(d, options.docs)))) {
      const n = foreign.filter((d) => folderOf(d, options.docs) === folder).length;
      io.err(
        `toolc check: ${plural(n, "file")} in the ${folder} ${n === 1 ? "was" : "were"} not written by toolc; toolc owns that folder, so move ${n === 1 ? "it" : "them"} elsewhere\n`,
      );
    }
  }
  return result.ok ? 0 : 1;
}

export async function generateOnce(plan: Plan, mode: Mode, io: Io, options: ReportOptions = {}): Promise<number> {
  const started = performance.now();
  let result: RunResult;
  try {
    result = await runPlan(plan, mode);
  } catch (e) {
    if (e instanceof WriteError) {
      // Located at the file that could not be written; apply.ts has already rolled everything back.
      io.err(`${formatDiagnostic({ file: e.path, line: 1, col: 1, code: Codes.writeFailed, message: `cannot write: ${e.reason}`, severity: "error" })}\n`);
      io.err("toolc: could not write the output; nothing was changed, the output folder is as it was\n");
      return 1;
    }
    io.err(`toolc: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.TOOLC_DEBUG && e instanceof Error) io.err(`${e.stack}\n`);
    return 2;
  }
  const silenced = silencer(plan.ignore, plan.root, plan.cwd);
  return report(mode, result, Math.round(performance.now() - started), io, { ...options, silenced, ...(plan.catalog ? { docs: plan.catalog.out } : {}) });
}
