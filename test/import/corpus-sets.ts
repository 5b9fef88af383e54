/**
 * The corpus of tools nobody here wrote (every GitHub MCP tool snapshot and
 * every tool of the MCP reference servers), and the import and compile of a
 * set into a scratch project, as a consumer runs them.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { compile } from "../../generator/pipeline/run.js";
import { importContracts } from "../../generator/import/index.js";
import { ROOT } from "../compiler/helpers.js";

const CORPUS = join(ROOT, "test/corpus");
const GITHUB = join(CORPUS, "github-mcp-toolsnaps");
const REFERENCE = join(CORPUS, "mcp-reference-servers");

export interface CorpusSet {
  readonly label: string;
  readonly sources: readonly string[];
  readonly expectedTools: number;
  readonly originals: () => Tool[];
}

function githubTools(): Tool[] {
  return readdirSync(GITHUB).filter((f) => f.endsWith(".snap")).map((f) => JSON.parse(readFileSync(join(GITHUB, f), "utf8")) as Tool);
}

function referenceFiles(): string[] {
  return readdirSync(REFERENCE).filter((f) => f.endsWith(".tools.json")).sort().map((f) => join(REFERENCE, f));
}

function referenceTools(): Tool[] {
  return referenceFiles().flatMap((f) => (JSON.parse(readFileSync(f, "utf8")) as { tools: Tool[] }).tools);
}

export const SETS: CorpusSet[] = [
  { label: "GitHub MCP server snapshots", sources: [GITHUB], expectedTools: 117, originals: githubTools },
  { label: "MCP reference servers", sources: referenceFiles(), expectedTools: 37, originals: referenceTools },
];

/** What importing and compiling a set gave: the errors of each step, and what was written. */
export interface ImportedSet {
  readonly dir: string;
  /** Error problems of each source's import, by source. */
  readonly importErrors: Record<string, unknown[]>;
  readonly contracts: number;
  readonly compileErrors: unknown[];
  readonly tools: number;
}

/** Imports every source of `set` into `dir`/definitions and compiles them into `dir`/generated, with toolc's node_modules linked. */
export async function importSet(set: CorpusSet, dir: string): Promise<ImportedSet> {
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const importErrors: Record<string, unknown[]> = {};
  for (const source of set.sources) {
    const result = importContracts({ source, out: "definitions", cwd: dir });
    importErrors[source] = result.problems.filter((p) => p.severity === "error");
  }
  const contracts = readdirSync(join(dir, "definitions")).filter((f) => f.endsWith(".yaml")).length;
  const compiled = await compile("definitions", "generated", dir);
  for (const file of compiled.files ?? []) {
    mkdirSync(dirname(join(dir, "generated", file.path)), { recursive: true });
    writeFileSync(join(dir, "generated", file.path), file.text);
  }
  const compileErrors = compiled.diagnostics.filter((d) => d.severity === "error");
  return { dir, importErrors, contracts, compileErrors, tools: compiled.tools };
}
