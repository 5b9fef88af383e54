/**
 * The MCP Inspector's CLI, an independent MCP client. Inspector 2.x asks for
 * Node.js 22.19 or later (its `engines`), so it runs on Node.js 24 from
 * test/node-runtimes, started through its package's bin entry point; the
 * servers it talks to run wherever their test starts them.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeBin, packageBin } from "./node-runtimes.js";

/**
 * The CLI's documented exit status for a tools/call whose result has
 * `isError: true` (modelcontextprotocol.io, Inspector, "CLI client", exit
 * codes); the result is still printed on stdout.
 */
const TOOL_ERROR_EXIT = 5;

interface ExecFailure {
  code?: unknown;
  stdout?: string;
  stderr?: string;
}

/**
 * Runs `mcp-inspector --cli ...args` and parses the result it prints. Exit 0
 * must come with a result that is not an error, exit 5 with one that is
 * (`isError: true`); any other exit, or a mismatch, rejects with what the
 * CLI wrote to stderr.
 */
export async function inspectorCli(args: readonly string[], cwd: string): Promise<Record<string, unknown>> {
  const cli = packageBin("@modelcontextprotocol/inspector", "mcp-inspector");
  const run = promisify(execFile)(nodeBin(24), [cli, "--cli", ...args], { cwd, timeout: 60_000, killSignal: "SIGKILL", maxBuffer: 10 * 1024 * 1024 });
  const { exitCode, stdout, stderr } = await run.then(
    ({ stdout, stderr }) => ({ exitCode: 0, stdout, stderr }),
    (error: ExecFailure) => ({ exitCode: typeof error.code === "number" ? error.code : -1, stdout: error.stdout ?? "", stderr: error.stderr ?? String(error) }),
  );
  const failed = (why: string): Error => new Error(`mcp-inspector --cli ${args.join(" ")}: ${why}\n${stderr}`);
  if (exitCode !== 0 && exitCode !== TOOL_ERROR_EXIT) throw failed(`exit ${exitCode}`);
  const result = JSON.parse(stdout) as Record<string, unknown>;
  if ((result["isError"] === true) !== (exitCode === TOOL_ERROR_EXIT)) throw failed(`exit ${exitCode} with isError ${String(result["isError"])}`);
  return result;
}

/**
 * A one-server config file for `--config FILE --server NAME`, the CLI's only
 * way to set a protocol era: `legacy` (its default: `initialize`) or
 * `modern` (2026-07-28 only, through `server/discover`, no fallback).
 */
export function inspectorConfig(dir: string, name: string, server: { url: string } | { command: string; args: readonly string[] }, era: "legacy" | "modern"): string[] {
  const file = join(dir, `inspector-${name}-${era}.json`);
  const entry = "url" in server ? { type: "http", url: server.url } : { command: server.command, args: server.args };
  writeFileSync(file, `${JSON.stringify({ mcpServers: { [name]: { ...entry, protocolEra: era } } }, null, 2)}\n`);
  return ["--config", file, "--server", name];
}
