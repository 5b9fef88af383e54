/**
 * How a run's diagnostics reach the terminal. Errors are printed one by one,
 * always. Warnings are grouped by code: a code with more than
 * GROUP_THRESHOLD warnings is one line, its first warning in full with the
 * count and the next few locations, so an imported API's hundreds of TC036
 * warnings do not bury everything else; `--verbose` prints every one.
 * `--watch` remembers what it printed and prints a code's warnings again
 * only when they changed. Warnings the config's `diagnostics.ignore`
 * silences are dropped before any of this (config/diagnostics-ignore.ts).
 */
import { formatDiagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../ir.js";
import type { Io } from "./io.js";

/** A code with more warnings than this is printed as one line. */
export const GROUP_THRESHOLD = 3;

export interface DiagnosticsOutput {
  /** Every warning on its own line. */
  readonly verbose?: boolean;
  /** Watch's memory of the warnings printed by the previous run, by code; updated here. */
  readonly printed?: Map<string, string>;
}

const location = (d: Diagnostic): string => `${d.file}:${d.line}:${d.col}`;

/** One line for a code's warnings: the first in full, then how many more and where the next ones are. */
function groupLine(warnings: readonly Diagnostic[]): string {
  const [first, ...rest] = warnings as [Diagnostic, ...Diagnostic[]];
  const shown = rest.slice(0, GROUP_THRESHOLD - 1).map(location);
  const more = rest.length > shown.length ? `, … ${rest.length - shown.length} more` : "";
  return `${formatDiagnostic(first)} (and ${rest.length} more ${first.code} warnings: ${shown.join(", ")}${more}; --verbose lists each)`;
}

/** Prints diagnostics as the module comment says, in their order, each group where its code first appears. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], io: Io, options: DiagnosticsOutput = {}): void {
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.severity !== "warning") continue;
    const list = byCode.get(d.code);
    if (list) list.push(d);
    else byCode.set(d.code, [d]);
  }
  const unchanged: string[] = [];
  const skip = new Set<string>();
  if (options.printed) {
    for (const [code, warnings] of byCode) {
      const key = warnings.map(formatDiagnostic).join("\n");
      if (options.printed.get(code) === key) {
        skip.add(code);
        unchanged.push(`${code} ×${warnings.length}`);
      }
      options.printed.set(code, key);
    }
    for (const code of [...options.printed.keys()]) if (!byCode.has(code)) options.printed.delete(code);
  }
  const grouped = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity !== "warning") {
      io.err(`${formatDiagnostic(d)}\n`);
      continue;
    }
    if (skip.has(d.code)) continue;
    const warnings = byCode.get(d.code)!;
    if (options.verbose || warnings.length <= GROUP_THRESHOLD) {
      io.err(`${formatDiagnostic(d)}\n`);
      continue;
    }
    if (grouped.has(d.code)) continue;
    grouped.add(d.code);
    io.err(`${groupLine(warnings)}\n`);
  }
  if (unchanged.length > 0) io.err(`toolc: warnings as in the last run, not repeated: ${unchanged.join(", ")}\n`);
}
