/**
 * Temporary projects for running the generated contract tests the way a
 * consumer does: `toolc generate` into a folder, node_modules made available
 * without network, and vitest run in a child process with a JSON report.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { contractCases } from "../../generator/emit/contract-tests/cases.js";
import type { ToolIR } from "../../generator/ir.js";
import { ROOT, runCli } from "../compiler/helpers.js";

const run = promisify(execFile);

/** The packages the generated folder needs at run time (the SDK alone: validators import nothing from Ajv), plus the test runner. */
export const CONSUMER_PACKAGES = ["@modelcontextprotocol/sdk", "vitest"] as const;

/** Where `toolc generate` puts contract tests in a project that lists vitest. */
export const TESTS_DIR = "test/toolc";

/**
 * A temp folder with the demo definitions, a package.json that lists vitest
 * (so contract tests are on, in test/toolc), and, optionally, extra files (a
 * handlers module).
 */
export function demoProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-ct-"));
  cpSync(join(ROOT, "definitions"), join(dir, "definitions"), { recursive: true });
  // The demo is on MCP SDK 1.x; toolc reads the line from package.json.
  const pkg = { name: "contract-test-demo", private: true, type: "module", dependencies: { "@modelcontextprotocol/sdk": "*" }, devDependencies: { vitest: "*" } };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export async function generate(dir: string, args: string[] = []): Promise<void> {
  const result = await runCli(dir, ["generate", ...args]);
  if (result.code !== 0) throw new Error(`toolc generate failed:\n${result.stderr}`);
}

/** The whole of toolc's node_modules, as one symlink: quick, for runs that only need vitest to work. */
export function linkAllModules(dir: string): void {
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

/**
 * A node_modules holding only the consumer's declared packages, each a
 * symlink. Node resolves a package's own dependencies from its real path, so
 * they still load, but a generated import of anything else (yaml, ts-morph,
 * toolc itself) finds nothing and fails.
 */
export function linkConsumerModules(dir: string): void {
  for (const name of CONSUMER_PACKAGES) {
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../vitest/vitest.mjs", join(dir, "node_modules", ".bin", "vitest"));
}

export function consumerPackageJson(dir: string): void {
  const ours = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const version = (name: string): string => ours.dependencies[name] ?? ours.devDependencies[name]!;
  const pkg = {
    name: "contract-test-consumer",
    private: true,
    type: "module",
    dependencies: { "@modelcontextprotocol/sdk": version("@modelcontextprotocol/sdk") },
    devDependencies: { vitest: version("vitest") },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

export interface VitestRun {
  readonly code: number;
  readonly total: number;
  readonly passed: number;
  /** Full names of the failed tests. */
  readonly failed: string[];
  /** What the failed tests' assertions said, from the JSON report. */
  readonly failureMessages: string[];
  readonly output: string;
}

/** The environment without the outer vitest's variables, so the child runs as a top-level vitest. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && key !== "NODE_OPTIONS" && key !== "TEST"));
}

/**
 * Runs the generated tests in `dir` with vitest, reading the JSON report.
 * Without `command`, through toolc's own vitest, with the test files
 * sharing one worker's modules (`--no-isolate`): loading the SDK and the
 * generated modules once instead of once per file takes 40% off the run's
 * CPU time, and a generated test that left state behind for another would
 * show up here as a wrong count of failures. With `command` (a consumer's `npx vitest`),
 * exactly as the consumer runs it.
 */
export async function runVitest(dir: string, command?: [string, ...string[]]): Promise<VitestRun> {
  const report = join(dir, "vitest-report.json");
  const [file, ...args] = command ?? [process.execPath, join(ROOT, "node_modules/vitest/vitest.mjs")];
  const isolation = command === undefined ? ["--no-isolate"] : [];
  let code = 0;
  let output = "";
  try {
    const result = await run(file, [...args, "run", ...isolation, "--reporter=json", `--outputFile=${report}`], { cwd: dir, env: childEnv(), maxBuffer: 64 * 1024 * 1024 });
    output = result.stdout + result.stderr;
  } catch (e) {
    const failure = e as { code?: number; stdout?: string; stderr?: string };
    code = typeof failure.code === "number" ? failure.code : 1;
    output = `${failure.stdout ?? ""}${failure.stderr ?? ""}`;
  }
  let json: { numTotalTests: number; numPassedTests: number; testResults: { assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[] };
  try {
    json = JSON.parse(readFileSync(report, "utf8"));
  } catch {
    throw new Error(`vitest wrote no report (exit ${code}):\n${output}`);
  }
  const failures = json.testResults.flatMap((file) => file.assertionResults.filter((a) => a.status === "failed"));
  return { code, total: json.numTotalTests, passed: json.numPassedTests, failed: failures.map((a) => a.fullName), failureMessages: failures.flatMap((a) => a.failureMessages ?? []), output };
}

/** The demo project with `text` as src/handlers.ts, generated with `--handlers`, toolc's node_modules linked. */
export async function projectWithHandlers(text: string): Promise<string> {
  const dir = demoProject({ "src/handlers.ts": text });
  await generate(dir, ["--handlers", "src/handlers.ts"]);
  linkAllModules(dir);
  return dir;
}

/**
 * A fresh consumer project: only the demo's generated folder and contract
 * tests, a package.json declaring the SDK and vitest, and a node_modules
 * holding just those.
 */
export async function consumerProject(): Promise<string> {
  const source = demoProject();
  await generate(source);
  const consumer = mkdtempSync(join(tmpdir(), "toolc-consumer-"));
  cpSync(join(source, "generated"), join(consumer, "generated"), { recursive: true });
  cpSync(join(source, TESTS_DIR), join(consumer, TESTS_DIR), { recursive: true });
  consumerPackageJson(consumer);
  linkConsumerModules(consumer);
  return consumer;
}

/** The demo's tools, as the emitter sees them. */
export function demoTools(): readonly ToolIR[] {
  const { ir } = normalize(loadDefinitions(join(ROOT, "definitions"), { displayRoot: ROOT }));
  return ir.tools;
}

/** How many tests the generated files for `tools` must run. */
export function expectedTestCount(tools: readonly ToolIR[], withHandlers: boolean): number {
  let total = 0;
  for (const tool of tools) {
    const c = contractCases(tool);
    const examples = c.valid.length + c.validInputOnly.length + c.invalidExamples.length + c.rejectedExamples.length;
    total += examples + c.negatives.length + c.badOutputs.length + 1;
    // Content kinds: one test attaching every declared kind, one per undeclared kind.
    if (c.content !== undefined) total += 1 + c.content.undeclared.length;
    if (withHandlers) total += (c.valid.length > 0 ? c.valid.length : c.validInputOnly.length) + c.invalidExamples.length + c.rejectedExamples.length;
  }
  return total;
}
