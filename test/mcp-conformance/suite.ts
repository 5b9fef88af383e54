/**
 * Runs the official conformance suite's server scenarios against a URL with
 * its own CLI (`conformance server ... -o DIR`, on Node.js 24), and reads
 * back each scenario's checks from the checks.json files the CLI writes.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { nodeBin, packageBin } from "../helpers/node-runtimes.js";
import type { Generation } from "./scenarios.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `conformance ...args` from the generation's package, on Node.js 24. */
function conformance(generation: Generation, args: readonly string[], timeout: number): Promise<{ stdout: string }> {
  const cli = packageBin(generation.pkg, "conformance");
  return promisify(execFile)(nodeBin(24), [cli, ...args], { cwd: ROOT, timeout, killSignal: "SIGKILL", maxBuffer: 32 * 1024 * 1024 });
}

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";

export interface Check {
  id: string;
  status: CheckStatus;
  errorMessage?: string;
  details?: { message?: string };
}

export interface ScenarioResult {
  scenario: string;
  checks: Check[];
  succeeded: number;
  failed: number;
  warned: number;
  /** As the suite's own baseline mode counts it: at least one check succeeded, and none failed or warned. */
  passed: boolean;
}

/** The CLI names each result folder `server-<scenario>-<ISO time with : and . as ->`. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function summarize(scenario: string, checks: Check[]): ScenarioResult {
  const count = (status: CheckStatus): number => checks.filter((c) => c.status === status).length;
  const [succeeded, failed, warned] = [count("SUCCESS"), count("FAILURE"), count("WARNING")];
  return { scenario, checks, succeeded, failed, warned, passed: succeeded > 0 && failed === 0 && warned === 0 };
}

/**
 * A scenario the CLI could not run (it threw before writing checks.json)
 * counts as one failed check, with what the CLI printed about it.
 */
function notRun(scenario: string, stdout: string): ScenarioResult {
  const said = stdout.split("\n").find((line) => line.startsWith(`Failed to run scenario ${scenario}:`));
  const check: Check = { id: scenario, status: "FAILURE", errorMessage: said ?? "the suite wrote no checks for it" };
  return summarize(scenario, [check]);
}

function readResults(dir: string, stdout: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  for (const name of readdirSync(dir).sort()) {
    const scenario = RESULT_DIR.exec(name)?.[1];
    if (scenario === undefined) throw new Error(`unexpected entry in the conformance output folder: ${name}`);
    if (results.has(scenario)) throw new Error(`scenario ${scenario} ran twice`);
    const file = join(dir, name, "checks.json");
    results.set(scenario, existsSync(file) ? summarize(scenario, JSON.parse(readFileSync(file, "utf8")) as Check[]) : notRun(scenario, stdout));
  }
  return results;
}

/** The generation's server scenarios against `url`. The CLI exits 1 when any scenario fails, so its status is not the verdict; the checks are. */
export async function runServerSuite(url: URL, generation: Generation): Promise<Map<string, ScenarioResult>> {
  const out = mkdtempSync(join(tmpdir(), "toolc-mcp-conformance-"));
  try {
    const { stdout } = await conformance(generation, ["server", "--url", url.href, ...generation.serverArgs, "-o", out], 180_000).catch(
      (error: { code?: unknown; killed?: boolean; stdout?: string }) => {
        if (error.killed === true || typeof error.code !== "number") throw error;
        return { stdout: error.stdout ?? "" };
      },
    );
    return readResults(out, stdout);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The server scenarios `conformance server` runs for the generation, as
 * `conformance list --server` prints them: `  - name`, with the revisions
 * it applies to in brackets or not, under the server heading, and
 * `    - name [server]` among those it runs but does not score.
 */
export async function listServerScenarios(generation: Generation): Promise<string[]> {
  const { stdout } = await conformance(generation, ["list", "--server", ...generation.listArgs], 60_000);
  const names: string[] = [];
  let inServerList = false;
  for (const line of stdout.split("\n")) {
    if (/^\S/.test(line)) inServerList = line.startsWith("Server scenarios");
    const listed = inServerList ? /^ {2}- (\S+)(?: \[[^\]]*\])?$/.exec(line)?.[1] : /^ {4}- (\S+) \[server\]$/.exec(line)?.[1];
    if (listed !== undefined) names.push(listed);
  }
  return names;
}

/** Why a scenario failed, in one line, for test messages. */
export function failureSummary(result: ScenarioResult): string {
  const bad = result.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  if (bad.length === 0) return `${result.scenario}: no check succeeded`;
  return bad.map((c) => `${result.scenario}/${c.id} ${c.status}: ${c.errorMessage ?? c.details?.message ?? ""}`).join("; ");
}

/** Which of `ids` did not succeed in `result`: a check the scenario did not report, or reported (as some are, once per probe) with any other status than SUCCESS. */
export function checksNotSucceeding(result: ScenarioResult | undefined, ids: readonly string[]): string[] {
  const checks = result?.checks ?? [];
  return ids.filter((id) => {
    const reported = checks.filter((c) => c.id === id);
    return reported.length === 0 || reported.some((c) => c.status !== "SUCCESS");
  });
}
