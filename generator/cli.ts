/**
 * The `toolc` command line. Problems in definitions are printed as located
 * diagnostics with exit status 1, never as a stack trace.
 */
import { parseArgs } from "node:util";
import { Codes, formatDiagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./ir.js";
import { WriteError } from "./write/apply.js";
import { run, type RunResult } from "./pipeline.js";
import { TOOLC_VERSION } from "./version.js";

const HELP = `toolc ${TOOLC_VERSION}: compile AI-agent tool contracts (YAML) into types, validators, MCP schemas and runtime.

Usage:
  toolc generate [--definitions DIR] [--out DIR]   write what changed into the output folder
  toolc check    [--definitions DIR] [--out DIR]   exit 1 if the output folder is stale; writes nothing
  toolc import   SOURCE [--out DIR]                turn an MCP tools/list JSON document (or a folder of tool JSON files) into contracts
  toolc --help | --version

Options:
  --definitions DIR   folder of *.yaml contracts (default: definitions)
  --out DIR           output folder (default: generated; for import: definitions)
  --handlers MODULE   generate and check: the generated contract tests also run every example through
                      the handlers this module exports as \`handlers\`
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const processIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function summary(command: string, result: RunResult, ms: number): string {
  const plan = result.plan;
  if (!plan) return "";
  const written = plan.added.length + plan.changed.length;
  if (command === "check") {
    return `toolc check: ${plural(result.tools, "tool")}, ${plural(plan.unchanged.length, "file")} up to date, ${result.differences.length} differ (${ms} ms)\n`;
  }
  return `toolc: ${plural(result.tools, "tool")} compiled; ${plural(written, "file")} written, ${plan.unchanged.length} unchanged, ${plan.stale.length} removed (${ms} ms)\n`;
}

function writeFailed(e: WriteError): Omit<Diagnostic, "severity"> {
  return { file: e.path, line: 1, col: 1, code: Codes.writeFailed, message: `cannot write: ${e.reason}` };
}

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  if (argv[0] === "import") {
    const { importCommand } = await import("./import/cli.js");
    return importCommand(argv.slice(1), io);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { definitions: { type: "string" }, out: { type: "string" }, handlers: { type: "string" }, help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" } },
    });
  } catch (e) {
    io.err(`toolc: ${e instanceof Error ? e.message : String(e)}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) return io.out(`${TOOLC_VERSION}\n`), 0;
  const command = positionals[0];
  if (values.help || command === undefined || command === "help") return io.out(HELP), values.help || command === "help" ? 0 : 2;
  if (command !== "generate" && command !== "check") return io.err(`toolc: unknown command ${JSON.stringify(command)}\n\n${HELP}`), 2;
  const started = performance.now();
  let result: RunResult;
  try {
    result = await run({ definitions: values.definitions ?? "definitions", out: values.out ?? "generated", mode: command, ...(values.handlers === undefined ? {} : { handlers: values.handlers }) });
  } catch (e) {
    if (e instanceof WriteError) {
      // Located at the output file, like any diagnostic; apply.ts has already rolled everything back.
      io.err(`${formatDiagnostic({ ...writeFailed(e), severity: "error" })}\n`);
      io.err("toolc: could not write the output; nothing was changed, the output folder is as it was\n");
      return 1;
    }
    io.err(`toolc: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.TOOLC_DEBUG && e instanceof Error) io.err(`${e.stack}\n`);
    return 2;
  }
  for (const d of result.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (!result.plan) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    io.err(`toolc: ${plural(errors, "error")}; nothing was written\n`);
    return 1;
  }
  for (const d of command === "check" ? result.differences : []) io.err(`  ${d.status}: ${d.path}\n`);
  io.out(summary(command, result, Math.round(performance.now() - started)));
  if (command === "check" && result.differences.length > 0) io.err("toolc check: the output is stale; run `toolc generate` and commit the result\n");
  return result.ok ? 0 : 1;
}
