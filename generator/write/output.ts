/**
 * Compares emitted files with the output folder and plans the difference:
 * files to add, to change, and files toolc generated earlier that no contract
 * produces any more. Writing happens only after the whole run succeeded, and
 * all at once or not at all (apply.ts).
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { GENERATED_MARKER, generatedSpecifier } from "../printer/header.js";
import { RUNTIME_MARKER } from "../emit/runtime-files.js";
import type { EmittedFile } from "../ir.js";

/** Where emitted files go: the output folder, and the contract tests' folder when there is one. */
export interface OutputLayout {
  /** Absolute path of the output folder. */
  readonly out: string;
  /** Absolute path of the contract tests' folder. */
  readonly tests?: string;
  /** Absolute path of the catalog's folder (`docs.out`); toolc owns it, as it owns the output folder. */
  readonly docs?: string;
}

type Root = EmittedFile["root"];

export interface OutputPlan {
  readonly added: readonly EmittedFile[];
  readonly changed: readonly EmittedFile[];
  /** Absolute paths of the files already up to date. */
  readonly unchanged: readonly string[];
  /** Absolute paths of previously generated files that no contract produces now. */
  readonly stale: readonly string[];
  /** Absolute paths of files in the output folder that toolc did not write. */
  readonly foreign: readonly string[];
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Every file below `dir`, absolute; dotfiles and dot-folders (.gitkeep, .DS_Store) are not counted. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

/** The import line every contract test written against `layout.out` starts with. */
function testsImportOf(layout: OutputLayout): string | undefined {
  if (layout.tests === undefined) return undefined;
  const outFromTests = toPosix(relative(layout.tests, layout.out)) || ".";
  return ` from ${JSON.stringify(generatedSpecifier(outFromTests, "index.js"))};`;
}

/**
 * Whether toolc wrote the file, for this output: anything in the output
 * folder with toolc's header; in the tests folder, only a test written
 * against this output folder. A test for another output (another project
 * sharing the folder, an earlier run with other folders) is not this run's
 * to remove.
 */
function isGenerated(path: string, testsImport: string | undefined): boolean {
  const head = readIfExists(path)?.slice(0, 600) ?? "";
  if (testsImport !== undefined) return head.includes(GENERATED_MARKER) && head.includes(testsImport);
  return head.includes(GENERATED_MARKER) || head.startsWith(`// ${RUNTIME_MARKER}`);
}

/** The absolute path a file is written to. */
export function targetOf(layout: OutputLayout, file: { path: string; root?: Root }): string {
  if (file.root === "tests") {
    if (layout.tests === undefined) throw new Error(`contract test ${file.path} emitted without a tests folder`);
    return join(layout.tests, file.path);
  }
  if (file.root === "docs") {
    if (layout.docs === undefined) throw new Error(`catalog page ${file.path} emitted without a catalog folder`);
    return join(layout.docs, file.path);
  }
  return join(layout.out, file.path);
}

/** Files on disk that no emitted file accounts for: toolc's own (stale) and, in the output folder, anyone else's (foreign). */
function leftovers(layout: OutputLayout, produced: ReadonlySet<string>): { stale: string[]; foreign: string[] } {
  const stale: string[] = [];
  const foreign: string[] = [];
  const seen = new Set<string>();
  const testsImport = testsImportOf(layout);
  for (const [dir, owned] of [
    [layout.out, true],
    [layout.tests, false],
    [layout.docs, true],
  ] as const) {
    if (dir === undefined) continue;
    for (const path of listFiles(dir)) {
      if (produced.has(path) || seen.has(path)) continue;
      seen.add(path);
      if (isGenerated(path, owned ? undefined : testsImport)) stale.push(path);
      else if (owned) foreign.push(path);
    }
  }
  return { stale, foreign };
}

export function planOutput(files: readonly EmittedFile[], layout: OutputLayout): OutputPlan {
  const added: EmittedFile[] = [];
  const changed: EmittedFile[] = [];
  const unchanged: string[] = [];
  for (const file of files) {
    const target = targetOf(layout, file);
    const current = readIfExists(target);
    if (current === undefined) added.push(file);
    else if (current !== file.text) changed.push(file);
    else unchanged.push(target);
  }
  return { added, changed, unchanged, ...leftovers(layout, new Set(files.map((f) => targetOf(layout, f)))) };
}

/**
 * The plan when every expected file is on disk with the expected content
 * hash and nothing stale is left: all unchanged (foreign files are only
 * reported). Undefined as soon as one file differs, so the caller falls back
 * to comparing real text.
 */
export function planByHash(
  files: readonly { path: string; root?: Root; hash: string }[],
  layout: OutputLayout,
  hash: (text: string) => string,
): OutputPlan | undefined {
  const targets: string[] = [];
  for (const file of files) {
    const target = targetOf(layout, file);
    const current = readIfExists(target);
    if (current === undefined || hash(current) !== file.hash) return undefined;
    targets.push(target);
  }
  const { stale, foreign } = leftovers(layout, new Set(targets));
  if (stale.length > 0) return undefined;
  return { added: [], changed: [], unchanged: targets, stale: [], foreign };
}

export type DifferenceStatus = "missing" | "changed" | "stale" | "foreign";

export interface Difference {
  /** Relative to the folder the run was started in, posix separators. */
  readonly path: string;
  readonly status: DifferenceStatus;
  /** Absolute path on disk. */
  readonly target: string;
  /** What toolc would write there; absent for stale and foreign files. */
  readonly expected?: string;
}

/** Every way the folders differ from what toolc would write, sorted by path. Foreign files are listed, never touched. */
export function differences(plan: OutputPlan, layout: OutputLayout, cwd: string): Difference[] {
  const display = (target: string): string => toPosix(relative(cwd, target)) || target;
  const emitted =
    (status: DifferenceStatus) =>
    (f: EmittedFile): Difference => {
      const target = targetOf(layout, f);
      // Read when shown: a generate computes the differences too, and a compile's files may be held packed (pipeline/packed-files.ts).
      return {
        path: display(target),
        status,
        target,
        get expected() {
          return f.text;
        },
      };
    };
  const onDisk =
    (status: DifferenceStatus) =>
    (target: string): Difference => ({ path: display(target), status, target });
  return [
    ...plan.added.map(emitted("missing")),
    ...plan.changed.map(emitted("changed")),
    ...plan.stale.map(onDisk("stale")),
    ...plan.foreign.map(onDisk("foreign")),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
