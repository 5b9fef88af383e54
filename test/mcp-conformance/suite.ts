/**
 * Runs the official conformance suite's server scenarios against a URL with
 * its own CLI (`conformance server --suite all -o DIR`), and reads back each
 * scenario's checks from the checks.json files the CLI writes.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const CONFORMANCE_BIN = fileURLToPath(new URL("../../node_modules/.bin/conformance", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

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

function readResults(dir: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  for (const name of readdirSync(dir).sort()) {
    const scenario = RESULT_DIR.exec(name)?.[1];
    if (scenario === undefined) throw new Error(`unexpected entry in the conformance output folder: ${name}`);
    if (results.has(scenario)) throw new Error(`scenario ${scenario} ran twice`);
    const checks = JSON.parse(readFileSync(join(dir, name, "checks.json"), "utf8")) as Check[];
    results.set(scenario, summarize(scenario, checks));
  }
  return results;
}

/** Every server scenario of the suite against `url`. The CLI exits 1 when any scenario fails, so its status is not the verdict; the checks are. */
export async function runServerSuite(url: URL): Promise<Map<string, ScenarioResult>> {
  const out = mkdtempSync(join(tmpdir(), "toolc-mcp-conformance-"));
  try {
    await promisify(execFile)(CONFORMANCE_BIN, ["server", "--url", url.href, "--suite", "all", "-o", out], {
      cwd: ROOT,
      timeout: 180_000,
      killSignal: "SIGKILL",
      maxBuffer: 32 * 1024 * 1024,
    }).catch((error: { code?: unknown; killed?: boolean }) => {
      if (error.killed === true || typeof error.code !== "number") throw error;
    });
    return readResults(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The suite's server scenario names, as its `list --server` prints them. */
export async function listServerScenarios(): Promise<string[]> {
  const { stdout } = await promisify(execFile)(CONFORMANCE_BIN, ["list", "--server"], { cwd: ROOT, timeout: 60_000 });
  return stdout
    .split("\n")
    .map((line) => /^\s+- (\S+)$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** Why a scenario failed, in one line, for test messages. */
export function failureSummary(result: ScenarioResult): string {
  const bad = result.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  if (bad.length === 0) return `${result.scenario}: no check succeeded`;
  return bad.map((c) => `${result.scenario}/${c.id} ${c.status}: ${c.errorMessage ?? c.details?.message ?? ""}`).join("; ");
}
