/**
 * `toolc diff --base BASE [--definitions DIR] [--format text|json|github|markdown] [--config FILE]`.
 * Exit status: 0 when every breaking change comes with a version bump of its
 * tool, 1 when one does not, 2 on bad usage or definitions that do not compile.
 */
import { relative, sep } from "node:path";
import { parseArgs } from "node:util";
import type { Io } from "./io.js";
import { argsError } from "./usage.js";
import { formatDiagnostic } from "../diagnostics.js";
import type { ContractIR } from "../ir.js";
import { lintTargets } from "../emit/index.js";
import { emitOptionsOf, resolvePlan } from "../plan/index.js";
import { diffConfigOf } from "../diff/config.js";
import { baseNormalizeOptions } from "../diff/base-config.js";
import { formatReport, FORMATS, type Format } from "../diff/format.js";
import { diffContracts } from "../diff/index.js";
import { loadBase, sideFromFolder, type SideResult } from "../diff/sources.js";

const USAGE = `Usage: toolc diff --base BASE [--definitions DIR] [--format text|json|github|markdown] [--config FILE]

Compares the contracts in DIR (default: definitions) with BASE, a folder of
definitions or git:REF (the definitions folder as it is in that commit), and
reports every change as breaking, warning or info; docs/evolution.md lists the rules.

Exit status: 0 when every breaking change belongs to a tool whose version went up,
1 when a breaking change comes without a version bump, 2 on bad usage or broken definitions.

Options:
  --base BASE          the contracts to compare against (required)
  --definitions DIR    the contracts as they are now (default: definitions)
  --format FORMAT      text (default), json, github (workflow annotations), markdown (a table for a pull request)
  --config FILE        the config file with the \`diff:\` section and \`auth.defaultScopes\` (default: toolc.config.yaml,
                       if present); a git:REF base is read with the same file as it is in that commit
`;

const DIFF_OPTIONS = {
  base: { type: "string" },
  definitions: { type: "string" },
  format: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

/** Prints a side's errors (and warnings) as diagnostics; true when the side is usable. */
function reportSide(result: SideResult, what: string, io: Io): boolean {
  for (const d of result.diagnostics) if (!result.side || d.severity === "error") io.err(`${formatDiagnostic(d)}\n`);
  // A base that could not be read (no such git ref) has no contracts to compile: its diagnostic says why.
  if (!result.side && !("unreadable" in result && result.unreadable)) io.err(`toolc diff: the ${what} contracts do not compile\n`);
  return result.side !== undefined;
}

export async function diffCommand(argv: readonly string[], io: Io, cwd: string = process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: DIFF_OPTIONS });
  } catch (e) {
    io.err(`toolc diff: ${argsError(e, DIFF_OPTIONS)}\n\n${USAGE}`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) return (io.out(USAGE), 0);
  if (values.base === undefined || values.base === "") return (io.err(`toolc diff: --base is required\n\n${USAGE}`), 2);
  const format = values.format ?? "text";
  if (!isFormat(format)) return (io.err(`toolc diff: unknown --format ${JSON.stringify(format)}; use one of ${FORMATS.join(", ")}\n`), 2);
  const resolved = await resolvePlan(cwd, {
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.definitions === undefined ? {} : { definitions: values.definitions }),
  });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) io.err(`toolc diff: ${resolved.usage}\n`);
  if (!resolved.plan) return 2;
  const plan = resolved.plan;
  const definitions = relative(cwd, plan.definitions).split(sep).join("/") || ".";
  const config = diffConfigOf(plan.config);
  for (const d of config.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (config.diagnostics.length > 0) return 2;
  // The config's default scopes are part of each tool's, as generate applies them; a git base has those of its own commit's config.
  const headOptions = plan.normalize;
  const baseOptions = await baseNormalizeOptions(values.base, cwd, values.config, headOptions);
  for (const d of baseOptions.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (baseOptions.diagnostics.length > 0) return (io.err(`toolc diff: the base's config does not load\n`), 2);
  // What generate's targets refuse of the contracts (Target.lint), refused here too, on both sides.
  const emit = emitOptionsOf(plan);
  const lint = (ir: ContractIR) => lintTargets(ir, emit);
  const base = loadBase(values.base, definitions, cwd, baseOptions.options, lint);
  const head = sideFromFolder(definitions, cwd, headOptions, lint);
  const baseUsable = reportSide(base, "base", io);
  const headUsable = reportSide(head, "head", io);
  if (!baseUsable || !headUsable || !base.side || !head.side) return 2;
  const result = diffContracts(base.side, head.side, config.config);
  io.out(formatReport(result, format));
  return result.unversioned.length > 0 ? 1 : 0;
}
