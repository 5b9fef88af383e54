/**
 * The `toolc` command line. Problems in definitions and in the config file
 * are printed as located diagnostics with exit status 1, never as a stack
 * trace; bad usage exits 2.
 */
import { parseArgs } from "node:util";
import { generateOnce } from "./commands/generate.js";
import { type Io, workingDirectory } from "./commands/io.js";
import { formatDiagnostic } from "./diagnostics.js";
import type { SettingFlags } from "./config/settings.js";
import { resolvePlan, type Plan } from "./plan/index.js";
import { parseMcpSdkFlag } from "./config/mcp-sdk.js";
import { TOOLC_VERSION } from "./version.js";
import { argsError, unknownCommand } from "./commands/usage.js";

const HELP = `toolc ${TOOLC_VERSION}: compile AI-agent tool contracts (YAML) into types, validators, MCP schemas and runtime.

Usage:
  toolc init [--view]              set up this npm project: config, an example contract, scripts,
                                   dependencies, a server starter; never overwrites a file
                                   (--view: the example contract gets a minimal MCP Apps view)
  toolc generate [--watch]         write what changed into the output folder (--watch: again on every save)
  toolc check [--diff]             exit 1 if the output or tests are stale, or the output folder holds
                                   files toolc did not write; writes nothing (--diff: print a unified diff)
  toolc import SOURCE [--definitions DIR] [--force]
                                   turn an MCP tools/list JSON document (or a folder of tool JSON files)
                                   into contracts (default --definitions: the configured definitions folder)
  toolc import openapi SPEC [--curation FILE] [--include SEL] [--exclude SEL]
                                   turn an OpenAPI 3.x or Swagger 2.0 description (file or URL) into
                                   contracts and handlers that call the API (see toolc import openapi --help)
  toolc diff --base BASE [--definitions DIR] [--format text|json|github|markdown]
                                   report contract changes against BASE (a folder or git:REF); exit 1
                                   on a breaking change without a version bump
  toolc evals [--out DIR]           write an eval pack of the contracts: per tool JSONL cases, and
                                   adapters for any test runner and promptfoo (docs/agent-loop.md)
  toolc docs [--out DIR] [--base BASE]... [--title TEXT]
                                   write the tool catalog: HTML pages, the same as Markdown, and llms.txt
                                   (default --out: docs.out, else docs/catalog); with docs.out in the
                                   config, generate writes it too and check keeps it fresh
  toolc --help | --version

  generate and check group a warning code seen more than 3 times into one line; --verbose prints
  each. toolc.config.yaml's diagnostics.ignore silences a warning code in a folder.

Settings come from toolc.config.yaml (in this folder or the nearest one above it, up to the
package root); flags override it. Config paths are relative to the config file, flag paths to
the working directory.

Options for generate and check:
  --config FILE        read this config file instead of looking for toolc.config.yaml
  --definitions DIR    folder of *.yaml contracts (default: definitions)
  --out DIR            output folder (default: generated)
  --tests DIR          where the vitest contract tests go (default: the config's, else test/toolc
                       when vitest is a dependency in package.json; none with --out alone)
  --no-tests           no contract tests
  --handlers MODULE    the contract tests also run every example through the handlers this
                       module exports as \`handlers\`
  --mcp-sdk 1|2        the MCP SDK line to generate for: 1 is @modelcontextprotocol/sdk, 2 is
                       @modelcontextprotocol/server and client (default: from package.json, else 2)

Environment:
  TOOLC_NO_CACHE=1           do not use the build cache (node_modules/.cache/toolc)
  TOOLC_CACHE_DIR=DIR        keep the build cache in DIR
  TOOLC_WORKERS=N            compile tools on N worker threads (default: none)
  TOOLC_DEBUG=1              print stack traces of internal errors
`;

const processIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const OPTIONS = {
  config: { type: "string" },
  definitions: { type: "string" },
  out: { type: "string" },
  tests: { type: "string" },
  "no-tests": { type: "boolean" },
  handlers: { type: "string" },
  "mcp-sdk": { type: "string" },
  watch: { type: "boolean" },
  diff: { type: "boolean" },
  view: { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function flagsOf(values: Values): SettingFlags {
  const flags: { -readonly [K in keyof SettingFlags]: SettingFlags[K] } = {};
  for (const key of ["config", "definitions", "out", "tests", "handlers"] as const) {
    const value = values[key];
    if (value !== undefined) flags[key] = value;
  }
  if (values["no-tests"]) flags.noTests = true;
  const sdk = values["mcp-sdk"] === undefined ? undefined : parseMcpSdkFlag(values["mcp-sdk"]);
  if (sdk !== undefined) flags.mcpSdk = sdk;
  return flags;
}

/** The run's plan, or the exit status after printing why there is none. */
export async function planFor(flags: SettingFlags, io: Io): Promise<Plan | number> {
  const resolved = await resolvePlan(workingDirectory(io), flags);
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.plan) return resolved.plan;
  if (resolved.usage !== undefined) return (io.err(`toolc: ${resolved.usage}\n`), 2);
  return (io.err("toolc: the config file has errors; nothing was written\n"), 1);
}

function usageError(message: string, io: Io): number {
  io.err(`toolc: ${message}\n\n${HELP}`);
  return 2;
}

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  if (argv[0] === "import" && argv[1] === "openapi") {
    const { importOpenApiCommand } = await import("./import/openapi/cli.js");
    return importOpenApiCommand(argv.slice(2), io);
  }
  if (argv[0] === "import") {
    const { importCommand } = await import("./import/cli.js");
    return importCommand(argv.slice(1), io);
  }
  if (argv[0] === "docs") {
    const { docsCommand } = await import("./docs/cli.js");
    return docsCommand(argv.slice(1), io, workingDirectory(io));
  }
  if (argv[0] === "evals") {
    const { evalsCommand } = await import("./evals/cli.js");
    return evalsCommand(argv.slice(1), io, workingDirectory(io));
  }
  if (argv[0] === "diff") {
    const { diffCommand } = await import("./commands/diff.js");
    return diffCommand(argv.slice(1), io, workingDirectory(io));
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
  } catch (e) {
    return usageError(argsError(e, OPTIONS), io);
  }
  const { values, positionals } = parsed;
  if (values.version) return (io.out(`${TOOLC_VERSION}\n`), 0);
  const command = positionals[0];
  if (values.help || command === undefined || command === "help") return (io.out(HELP), values.help || command === "help" ? 0 : 2);
  if (positionals.length > 1) return usageError(`unexpected argument ${JSON.stringify(positionals[1])}`, io);
  if (command === "init") {
    const { initCommand } = await import("./init/index.js");
    return initCommand(workingDirectory(io), io, { view: values.view === true });
  }
  if (values.view) return usageError("--view goes with init", io);
  if (command !== "generate" && command !== "check") return usageError(unknownCommand(command), io);
  if (values.watch && command !== "generate") return usageError("--watch goes with generate", io);
  if (values.diff && command !== "check") return usageError("--diff goes with check", io);
  if (values["mcp-sdk"] !== undefined && parseMcpSdkFlag(values["mcp-sdk"]) === undefined)
    return usageError(`--mcp-sdk must be 1 or 2, not ${JSON.stringify(values["mcp-sdk"])}`, io);
  const flags = flagsOf(values);
  if (values.watch) {
    const { watch } = await import("./commands/watch.js");
    return watch(flags, io, undefined, { verbose: values.verbose ?? false });
  }
  const plan = await planFor(flags, io);
  if (typeof plan === "number") return plan;
  return generateOnce(plan, command, io, { diff: values.diff ?? false, verbose: values.verbose ?? false });
}
