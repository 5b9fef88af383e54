/** Pairs of contract folders for `toolc diff` tests: the demo definitions as base, and a copy with edits as head. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffCommand } from "../../generator/commands/diff.js";
import type { ContractSide } from "../../generator/diff/sources.js";
import type { YamlSource } from "../../generator/load/index.js";
import { parseYamlSource } from "../../generator/load/yaml-source.js";
import { normalize } from "../../generator/normalize/index.js";

export const DEMO = new URL("../../definitions/", import.meta.url).pathname;

/** file → [search, replacement] pairs, or the whole new text (null deletes the file). */
export type Edits = Record<string, readonly (readonly [string, string])[] | string | null>;

export function applyEdits(dir: string, edits: Edits): void {
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    if (edit === null) {
      rmSync(path);
      continue;
    }
    if (typeof edit === "string") {
      writeFileSync(path, edit);
      continue;
    }
    let text = readFileSync(path, "utf8");
    for (const [search, replacement] of edit) {
      if (!text.includes(search)) throw new Error(`edit of ${file}: ${JSON.stringify(search)} not found`);
      text = text.replace(search, replacement);
    }
    writeFileSync(path, text);
  }
}

/** A temp folder holding base/ (the demo, with `baseEdits`) and head/ (the demo with `edits`). */
export function pairFolder(edits: Edits, baseEdits: Edits = {}): string {
  const root = mkdtempSync(join(tmpdir(), "toolc-diff-"));
  cpSync(DEMO, join(root, "base"), { recursive: true });
  cpSync(DEMO, join(root, "head"), { recursive: true });
  applyEdits(join(root, "base"), baseEdits);
  applyEdits(join(root, "head"), edits);
  return root;
}

export interface DiffRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function runDiff(cwd: string, args: readonly string[]): Promise<DiffRun> {
  let out = "";
  let err = "";
  const code = await diffCommand(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, cwd);
  return { code, out, err };
}

/** Diffs the demo (with `baseEdits`, for a tool the demo lacks) against the demo with `edits`, as JSON. */
export async function diffEdits(edits: Edits, extra: readonly string[] = [], baseEdits: Edits = {}): Promise<DiffRun & { report: JsonReport; lineAt: (change: JsonChange) => string }> {
  const root = pairFolder(edits, baseEdits);
  try {
    const run = await runDiff(root, ["--base", "base", "--definitions", "head", "--format", "json", ...extra]);
    const report = (run.out === "" ? { changes: [], unversioned: [] } : JSON.parse(run.out)) as JsonReport;
    // The text of the line each change points at, read before the folder goes.
    const lines = new Map<string, string[]>();
    for (const c of report.changes) lines.set(c.file, readFileSync(join(root, c.file), "utf8").split("\n"));
    return { ...run, report, lineAt: (c) => lines.get(c.file)?.[c.line - 1] ?? "" };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export interface JsonChange {
  tool: string;
  direction: string;
  file: string;
  line: number;
  col: number;
  level: "breaking" | "warning" | "info";
  rule: string;
  message: string;
  field?: string;
  type?: string;
  affects: { tool: string; direction: string; level: string }[];
}

export interface JsonReport {
  changes: JsonChange[];
  unversioned: string[];
  summary?: { breaking: number; warning: number; info: number };
}

/**
 * A side built from texts the way `toolc diff` builds one, but kept even when
 * normalize reports errors: for contract features that arrive with the
 * protocol's 2026-07-28 revision (non-object output roots, `x-mcp-header`),
 * whose diff rules must hold before the rest of the compiler accepts them.
 */
export function looseSide(texts: readonly { source: string; text: string }[]): ContractSide {
  const files = texts.map((t) => parseYamlSource(t.text, t.source, t.source).file);
  const { ir } = normalize({ files, diagnostics: [] });
  const bySource = new Map(files.map((f) => [f.source, f]));
  const typeFiles = new Map<string, YamlSource>();
  for (const typeFile of ir.typeFiles) for (const type of typeFile.types) typeFiles.set(type.name, bySource.get(typeFile.source) as YamlSource);
  return { ir, files: bySource, typeFiles };
}
