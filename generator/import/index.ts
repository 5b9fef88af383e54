/**
 * `toolc import` as a function: source → contracts on disk. Document-level
 * problems (unreadable or malformed JSON, a name that cannot be a file,
 * duplicate names, a file that exists without --force) stop the import and
 * nothing is written. A tool whose schema cannot be expressed is skipped
 * with an error and the others are written; the exit status is still 1.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pointerJoin, Reporter, type Problem } from "./problems.js";
import { readSource, type SourceTool } from "./source.js";
import { avoidReserved } from "./names.js";
import { importTool, nameProblem, type ImportedTool } from "./tool.js";
import { contractYaml } from "./yaml.js";

export interface ImportOptions {
  readonly source: string;
  readonly out: string;
  readonly force?: boolean;
  /** Paths resolve against this folder; defaults to the process's. */
  readonly cwd?: string;
}

export interface ImportResult {
  readonly problems: readonly Problem[];
  /** Contract files written (paths relative to `out`), in source order. */
  readonly written: readonly string[];
  /** Tool names skipped because of errors. */
  readonly skipped: readonly string[];
  /** True when nothing was written because of a document-level problem. */
  readonly aborted: boolean;
  readonly tools: number;
}

interface Planned {
  readonly tool: ImportedTool;
  readonly file: string;
  readonly text: string;
}

interface PlannedName {
  readonly name: string;
  /** Why the name differs from the source's, for the contract's comments. */
  readonly note?: string;
}

/**
 * Names must be unique, also on case-insensitive file systems, where
 * `Foo.yaml` and `foo.yaml` collide. A name `generate` refuses is renamed,
 * with a warning and a note in the contract.
 */
function checkNames(tools: readonly SourceTool[], hard: Reporter[]): Map<SourceTool, PlannedName> {
  const names = new Map<SourceTool, PlannedName>();
  const seen = new Map<string, SourceTool>();
  const sourceNames = new Set(tools.map((t) => (typeof t.tool.name === "string" ? t.tool.name.toLowerCase() : "")));
  for (const entry of tools) {
    const report = new Reporter(entry.file);
    hard.push(report);
    const problem = nameProblem(entry.tool.name);
    if (problem) {
      report.error(pointerJoin(entry.pointer, "name"), problem);
      continue;
    }
    const { name, note } = avoidReserved(entry.tool.name as string, (lower) => sourceNames.has(lower) || seen.has(lower));
    if (note !== undefined) report.warn(pointerJoin(entry.pointer, "name"), note);
    const first = seen.get(name.toLowerCase());
    if (first)
      report.error(
        pointerJoin(entry.pointer, "name"),
        `tool ${JSON.stringify(name)} would be written to the same file as ${JSON.stringify(first.tool.name)} (${first.file}: ${first.pointer || "/"})`,
      );
    else seen.set(name.toLowerCase(), entry);
    names.set(entry, note === undefined ? { name } : { name, note });
  }
  return names;
}

function plan(entry: SourceTool, planned: PlannedName, outDir: string, force: boolean, soft: Reporter[], hard: Reporter[]): Planned | "skipped" | undefined {
  const report = new Reporter(entry.file);
  soft.push(report);
  const { name } = planned;
  const imported = importTool(entry.tool, name, entry.pointer, report);
  if (!imported) return "skipped";
  const tool = planned.note === undefined ? imported : { ...imported, notes: [planned.note, ...imported.notes] };
  const file = `${name}.yaml`;
  const fail = new Reporter(entry.file);
  hard.push(fail);
  if (!force && existsSync(join(outDir, file))) {
    fail.error(entry.pointer, `${join(outDir, file)} exists; pass --force to overwrite it`);
    return undefined;
  }
  try {
    return { tool, file, text: contractYaml(tool, outDir) };
  } catch (e) {
    fail.error(entry.pointer, e instanceof Error ? e.message : String(e));
    return undefined;
  }
}

/** Each file is written to a temporary name and renamed, so a reader never sees half a contract. */
function writeAll(planned: readonly Planned[], outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  for (const p of planned) {
    const target = join(outDir, p.file);
    writeFileSync(`${target}.tmp`, p.text);
    renameSync(`${target}.tmp`, target);
  }
}

export function importContracts(options: ImportOptions): ImportResult {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.out);
  const source = readSource(options.source, cwd);
  const hard: Reporter[] = [...source.reporters];
  const soft: Reporter[] = [];
  const names = checkNames(source.tools, hard);
  const planned: Planned[] = [];
  const skipped: string[] = [];
  for (const entry of source.tools) {
    const name = names.get(entry);
    if (name === undefined) continue;
    const result = plan(entry, name, outDir, options.force ?? false, soft, hard);
    if (result === "skipped") skipped.push(name.name);
    else if (result) planned.push(result);
  }
  const aborted = hard.some((r) => r.failed);
  if (!aborted) writeAll(planned, outDir);
  const problems = [...hard, ...soft].flatMap((r) => r.problems);
  return { problems, written: aborted ? [] : planned.map((p) => p.file), skipped, aborted, tools: source.tools.length };
}
