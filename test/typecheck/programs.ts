/**
 * Many tsc checks, few tsc programs. A check is a set of root files and the
 * folders it answers for; a program is a set of compiler options and every
 * check that shares them. Each program runs once per TypeScript version,
 * with all its checks' files as roots, and its diagnostics are handed back
 * to the check whose folder they are in, so a broken fixture fails its own
 * test. A diagnostic in no check's folder (a shared import, a global
 * error) goes to every check of the program: it cannot be lost.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { TYPESCRIPTS, type TypeScriptVersion } from "../helpers/typescripts.js";

const run = promisify(execFile);

export interface TscCheck {
  /** What tests look the result up by; unique within its program. */
  readonly name: string;
  /** Root files, absolute. */
  readonly files: readonly string[];
  /** Folders (absolute) whose diagnostics are this check's. */
  readonly owns: readonly string[];
}

export interface TscProgram {
  /** What tests look the results up by; also names its tsconfig file. */
  readonly name: string;
  /** compilerOptions, as in a tsconfig. */
  readonly options: Record<string, unknown>;
  readonly checks: readonly TscCheck[];
  /** The folder tsc runs in; diagnostics name files relative to it. */
  readonly base: string;
}

/** Program name → TypeScript version → check name → its diagnostics, as tsc prints them ("" when clean). */
export type TscResults = Record<string, Record<string, Record<string, string>>>;

/** A diagnostic: its first line names the file (or none, for a global one), continuation lines follow indented. */
interface Diagnostic {
  readonly file: string | undefined;
  readonly text: string;
}

const LOCATED = /^(.+?)\(\d+,\d+\): error TS\d+:/;

function parseDiagnostics(output: string, base: string): Diagnostic[] {
  const diagnostics: { file: string | undefined; lines: string[] }[] = [];
  for (const line of output.split("\n")) {
    if (line === "") continue;
    const last = diagnostics.at(-1);
    if (line.startsWith(" ") && last !== undefined) {
      last.lines.push(line);
      continue;
    }
    const located = LOCATED.exec(line);
    diagnostics.push({ file: located ? resolve(base, located[1] as string) : undefined, lines: [line] });
  }
  return diagnostics.map((d) => ({ file: d.file, text: d.lines.join("\n") }));
}

function inside(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && !rel.startsWith(sep));
}

/** Hands each diagnostic to the checks owning its file; an unowned one to every check. */
export function attribute(output: string, program: TscProgram): Record<string, string> {
  const byCheck = new Map<string, string[]>(program.checks.map((c) => [c.name, []]));
  for (const diagnostic of parseDiagnostics(output, program.base)) {
    const file = diagnostic.file;
    const owners = file === undefined ? [] : program.checks.filter((c) => c.owns.some((folder) => inside(file, folder)));
    for (const check of owners.length > 0 ? owners : program.checks) byCheck.get(check.name)?.push(diagnostic.text);
  }
  return Object.fromEntries([...byCheck].map(([name, lines]) => [name, lines.map((l) => `${l}\n`).join("")]));
}

/** Writes the program's tsconfig for `version`; returns its path. */
function writeTsconfig(program: TscProgram, version: string): string {
  const tsconfig = join(program.base, `tsconfig.${program.name}.${version}.json`);
  const files = [...new Set(program.checks.flatMap((c) => c.files))];
  // A program that emits (declarations) gets an outDir per version, so two versions never write the same files.
  const emits = program.options["noEmit"] !== true;
  const compilerOptions = emits ? { ...program.options, outDir: join(program.base, `out.${program.name}.${version}`) } : program.options;
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files }, null, 2));
  return tsconfig;
}

/** The output of a process that exits non-zero when it has something to say; one that says nothing (a crash, a signal) gets `failed`. */
async function outputOf(command: readonly string[], cwd: string, failed: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, command, { cwd, maxBuffer: 256 << 20 });
    return stdout;
  } catch (e) {
    const failure = e as { stdout?: string; stderr?: string };
    const output = `${failure.stdout ?? ""}${failure.stderr ?? ""}`;
    return output === "" ? `${failed}: ${String(e)}\n` : output;
  }
}

/** Runs that tsc over the program's tsconfig for `version`; returns tsc's output. */
async function runProgram(program: TscProgram, { version, bin, args }: TypeScriptVersion): Promise<string> {
  const tsconfig = writeTsconfig(program, version);
  // A tsc that failed without saying why fails every check.
  return outputOf([bin, ...args, "-p", tsconfig, "--pretty", "false"], program.base, `error: tsc ${version} failed on ${program.name}`);
}

const BATCH = new URL("./tsc-batch.mjs", import.meta.url).pathname;

/** Runs every program with `version`'s compiler API in one process (tsc-batch.mjs); returns each program's output by name. */
async function runBatch(programs: readonly TscProgram[], { version, api }: TypeScriptVersion & { api: string }): Promise<Record<string, string>> {
  const jobs = programs.map((program) => ({ name: program.name, tsconfig: writeTsconfig(program, version), cwd: program.base }));
  const base = programs[0]?.base ?? ".";
  const jobsFile = join(base, `tsc-batch.${version}.json`);
  writeFileSync(jobsFile, JSON.stringify(jobs));
  const failed = `error: tsc ${version} failed on the batch`;
  const output = await outputOf([BATCH, api, jobsFile], base, failed);
  let byConfig: Record<string, string>;
  try {
    byConfig = JSON.parse(output) as Record<string, string>;
  } catch {
    // Not the results: what the process said instead goes to every check, so none passes.
    byConfig = Object.fromEntries(jobs.map((job) => [job.tsconfig, output === "" ? `${failed}\n` : output]));
  }
  return Object.fromEntries(jobs.map((job) => [job.name, byConfig[job.tsconfig] ?? `${failed}: no result for ${job.name}\n`]));
}

type Job = () => Promise<void>;

/**
 * Runs every program with every TypeScript version, `parallel` processes at
 * a time: one process for all the programs of a version whose compiler is
 * JavaScript (it compiles the compiler once, not once per program), one per
 * program for the others; the longest first, so the tail is short.
 */
export async function runPrograms(programs: readonly TscProgram[], parallel = 2): Promise<TscResults> {
  const results: TscResults = {};
  const record = (program: TscProgram, version: string, output: string): void => {
    (results[program.name] ??= {})[version] = attribute(output, program);
  };
  const batched = TYPESCRIPTS.filter((ts): ts is TypeScriptVersion & { api: string } => ts.api !== undefined);
  const jobs: Job[] = [
    ...batched.map((ts) => async () => {
      const outputs = await runBatch(programs, ts);
      for (const program of programs) record(program, ts.version, outputs[program.name] ?? "");
    }),
    ...programs.flatMap((program) => TYPESCRIPTS.filter((ts) => ts.api === undefined).map((ts) => async () => record(program, ts.version, await runProgram(program, ts)))),
  ];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) await job();
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}
