/**
 * `toolc import SOURCE [--definitions DIR] [--force]`: prints every problem with its
 * location, then one summary line. Exit status 1 on any error, 2 on bad usage.
 */
import { relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { type Io, workingDirectory } from "../commands/io.js";
import { formatDiagnostic } from "../diagnostics.js";
import { resolveSettings } from "../config/settings.js";
import { importContracts, type ImportResult } from "./index.js";
import { formatProblem } from "./problems.js";

const USAGE = `Usage: toolc import SOURCE [--definitions DIR] [--force] [--config FILE]

SOURCE is an MCP tools/list JSON document ({"tools": [...]}, a JSON-RPC response
{"result": {"tools": [...]}}, or a bare array of tools), or a folder of tool JSON
files (*.json, *.snap). One <name>.yaml contract is written per tool.

Options:
  --definitions DIR  where the contracts go (default: \`definitions\` of toolc.config.yaml, else definitions);
                  --out DIR is its old name, still read, with a warning
  --force         overwrite contract files that already exist
  --config FILE   read this config file instead of looking for toolc.config.yaml
`;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function summary(result: ImportResult, out: string): string {
  const errors = result.problems.filter((p) => p.severity === "error").length;
  const warnings = result.problems.length - errors;
  const tail = `${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  if (result.aborted) return `toolc import: ${plural(result.tools, "tool")} read; nothing was written (${tail})\n`;
  const skipped = result.skipped.length > 0 ? `, ${result.skipped.length} skipped` : "";
  return `toolc import: ${plural(result.tools, "tool")} read; ${plural(result.written.length, "contract")} written to ${out}${skipped} (${tail})\n`;
}

/** The definitions folder the config names (relative to the working directory), or undefined after printing the config's errors. */
async function configuredDefinitions(config: string | undefined, io: Io): Promise<string | undefined> {
  const cwd = workingDirectory(io);
  const resolved = await resolveSettings(cwd, config === undefined ? {} : { config });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) io.err(`toolc import: ${resolved.usage}\n`);
  if (!resolved.settings) return undefined;
  return relative(cwd, resolved.settings.definitions).split(sep).join("/") || ".";
}

/**
 * The contracts folder an import command was given: `--definitions`, or
 * `--out`, its old name (issue #34: for `generate`, `--out` is the generated
 * code), read with a warning naming `--definitions`. Both, naming different
 * folders, is a usage error (false); neither is undefined.
 */
export function definitionsFolder(values: { definitions?: string; out?: string }, command: string, io: Io): string | undefined | false {
  if (values.out === undefined) return values.definitions;
  if (values.definitions !== undefined && resolve(values.definitions) !== resolve(values.out)) {
    io.err(
      `${command}: --out ${JSON.stringify(values.out)} and --definitions ${JSON.stringify(values.definitions)} name different folders; --out is the old name of --definitions, give only --definitions\n`,
    );
    return false;
  }
  io.err(`${command}: warning: --out is deprecated here, use --definitions (the contracts folder; for toolc generate, --out is the generated code)\n`);
  return values.out;
}

export async function importCommand(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        definitions: { type: "string" },
        out: { type: "string" },
        force: { type: "boolean" },
        config: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    io.err(`toolc import: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) return (io.out(USAGE), 0);
  if (positionals.length !== 1) return (io.err(`toolc import: expected one SOURCE, got ${positionals.length}\n\n${USAGE}`), 2);
  const named = definitionsFolder(values, "toolc import", io);
  if (named === false) return 2;
  const out = named ?? (await configuredDefinitions(values.config, io));
  if (out === undefined) return 1;
  const result = importContracts({ source: positionals[0], out, force: values.force ?? false, cwd: workingDirectory(io) });
  for (const problem of result.problems) io.err(`${formatProblem(problem)}\n`);
  io.out(summary(result, out));
  return result.problems.some((p) => p.severity === "error") ? 1 : 0;
}
