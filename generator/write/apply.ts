/**
 * Applies an output plan all at once or not at all.
 *
 * Every new text is first written to a staging folder beside the output
 * folder. Then each change is switched in by renames, recorded in a journal:
 * an existing file is moved into the staging folder (kept as a backup), the
 * staged file is moved into its place; a stale file is moved out the same
 * way. If any step fails (a directory in the way, a read-only file, a full
 * disk), the journal is undone in reverse and the staging folder removed, so
 * the output folder is byte for byte what it was, with no temp files left.
 * Only when every step succeeded are the backups deleted.
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import type { EmittedFile } from "../ir.js";
import { contentOf } from "../pipeline/packed-files.js";
import { targetOf, type OutputLayout, type OutputPlan } from "./output.js";

/** A write that failed, and was rolled back: where, and why in plain words. */
export class WriteError extends Error {
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = "WriteError";
    this.path = path;
    this.reason = reason;
  }
}

type Step = { kind: "moved"; from: string; to: string } | { kind: "created-dir"; dir: string };

const REASONS: Record<string, string> = {
  EISDIR: "a directory is in the way",
  ENOTDIR: "a file is in the way where a folder is needed",
  EEXIST: "something is in the way",
  ENOTEMPTY: "a folder that is not empty is in the way",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted (read-only or locked)",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EBUSY: "the file is busy or locked",
  EMFILE: "too many files are open",
  ENAMETOOLONG: "the path is too long",
};

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return `${REASONS[code] ?? "the file system refused"} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs one file-system step; a failure becomes a WriteError naming the output path it was for. */
function attempt<T>(displayPath: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw new WriteError(displayPath, reasonOf(error));
  }
}

/** Creates `dir` and its missing parents, journaling the top one created so a rollback removes it. */
function ensureDir(dir: string, journal: Step[], displayPath: string): void {
  const created = attempt(displayPath, () => mkdirSync(dir, { recursive: true }));
  if (created !== undefined) journal.push({ kind: "created-dir", dir: created });
}

function removeEmptyDirs(dir: string, root: string): void {
  let current = dir;
  while (current.startsWith(root) && current !== root) {
    try {
      if (readdirSync(current).length > 0) return;
      rmdirSync(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}

/** Undoes the journal, newest step first. Best effort: each step is tried even if an earlier one failed. */
function rollBack(journal: Step[]): void {
  for (const step of [...journal].reverse()) {
    try {
      if (step.kind === "moved") renameSync(step.to, step.from);
      else rmSync(step.dir, { recursive: true, force: true });
    } catch {
      // Keep undoing the rest; what could not be undone is the lesser harm.
    }
  }
}

/** The staging folder: beside the output folder (same file system, so renames never copy), never inside it. */
function stagingDirFor(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}.toolc-staging-${process.pid}`);
}

interface Staged {
  readonly staging: string;
  /** Absolute target, and where its new text is staged. */
  readonly files: { readonly target: string; readonly staged: string }[];
}

/** Writes every new text into the staging folder; nothing in the output or tests folder is touched yet. */
function stage(plan: OutputPlan, layout: OutputLayout, display: (target: string) => string, written: OnWritten | undefined): Staged {
  const staging = stagingDirFor(layout.out);
  rmSync(staging, { recursive: true, force: true });
  attempt(display(layout.out), () => mkdirSync(join(staging, "new"), { recursive: true }));
  const files: { target: string; staged: string }[] = [];
  for (const [i, file] of [...plan.added, ...plan.changed].entries()) {
    const staged = join(staging, "new", String(i));
    const target = targetOf(layout, file);
    const content = contentOf(file);
    attempt(display(target), () => writeFileSync(staged, content));
    written?.(file, content);
    files.push({ target, staged });
  }
  return { staging, files };
}

/** Moves the file at `target` into the backups, if there is one. A folder there is never moved: it is not ours. */
function backUp(target: string, backup: string, journal: Step[], displayPath: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = lstatSync(target).isDirectory();
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return;
    throw new WriteError(displayPath, reasonOf(error));
  }
  if (isDirectory) throw new WriteError(displayPath, `${REASONS["EISDIR"]} (EISDIR)`);
  attempt(displayPath, () => renameSync(target, backup));
  journal.push({ kind: "moved", from: target, to: backup });
}

/** Switches every staged file and stale removal in, journaling each rename. */
function switchIn(plan: OutputPlan, staged: Staged, journal: Step[], display: (target: string) => string): void {
  const backups = join(staged.staging, "old");
  attempt(display(staged.staging), () => mkdirSync(backups, { recursive: true }));
  let n = 0;
  for (const { target, staged: from } of staged.files) {
    ensureDir(dirname(target), journal, display(target));
    backUp(target, join(backups, String(n++)), journal, display(target));
    attempt(display(target), () => renameSync(from, target));
    journal.push({ kind: "moved", from, to: target });
  }
  for (const target of plan.stale) backUp(target, join(backups, String(n++)), journal, display(target));
}

/** Told of each file's content as it is staged (a packed file's inflated bytes), so a caller that hashes it inflates nothing again. */
export type OnWritten = (file: EmittedFile, content: string | Uint8Array) => void;

/**
 * Applies a plan: all of it, or (on any failure) none of it, leaving the
 * output and tests folders exactly as they were and throwing a WriteError.
 */
export function applyOutput(plan: OutputPlan, layout: OutputLayout, written?: OnWritten): void {
  if (plan.added.length === 0 && plan.changed.length === 0 && plan.stale.length === 0) return;
  const display = (target: string): string => (relative(process.cwd(), target) || ".").split(sep).join("/");
  const journal: Step[] = [];
  let staged: Staged | undefined;
  try {
    ensureDir(layout.out, journal, display(layout.out));
    staged = stage(plan, layout, display, written);
    switchIn(plan, staged, journal, display);
  } catch (error) {
    rollBack(journal);
    rmSync(staged?.staging ?? stagingDirFor(layout.out), { recursive: true, force: true });
    throw error instanceof WriteError ? error : new WriteError(display(layout.out), reasonOf(error));
  }
  rmSync(staged.staging, { recursive: true, force: true });
  for (const target of plan.stale) {
    const root = [layout.out, layout.tests, layout.docs].find((dir) => dir !== undefined && target.startsWith(dir + sep)) ?? layout.out;
    removeEmptyDirs(dirname(target), root);
  }
}
