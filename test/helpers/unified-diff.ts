/**
 * Unified diffs (the `diff` package, as `toolc check --diff` prints them) of
 * two sets of files, for tests that compare whole trees: a failure shows the
 * lines that differ, not every file of both sides.
 */
import { readFileSync } from "node:fs";
import { createTwoFilesPatch } from "diff";
import type { Difference } from "../../generator/write/output.js";

const PATCH_OPTIONS = { headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true } } as const;

/** A unified diff of every file that differs between `expected` and `actual` (path → text); "" when they are the same. */
export function treeDiff(expected: Readonly<Record<string, string>>, actual: Readonly<Record<string, string>>): string {
  const paths = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  return paths
    .filter((path) => expected[path] !== actual[path])
    .map((path) => {
      if (actual[path] === undefined) return `missing: ${path}\n`;
      if (expected[path] === undefined) return `unexpected: ${path}\n`;
      return createTwoFilesPatch(`expected/${path}`, `actual/${path}`, expected[path], actual[path], "", "", PATCH_OPTIONS);
    })
    .join("");
}

/** Files (with `path` and `text`) as a path → text map for treeDiff. */
export function textsByPath(files: readonly { readonly path: string; readonly text: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((files ?? []).map((f) => [f.path, f.text]));
}

/** What `toolc check` found, as a unified diff of each file on disk against what toolc would write; "" when nothing differs. */
export function differencesDiff(differences: readonly Difference[]): string {
  return differences
    .map((d) => {
      if (d.expected === undefined) return `${d.status}: ${d.path}\n`;
      const onDisk = d.status === "missing" ? "" : readFileSync(d.target, "utf8");
      return createTwoFilesPatch(`on disk/${d.path}`, `compiled/${d.path}`, onDisk, d.expected, "", "", PATCH_OPTIONS);
    })
    .join("");
}
