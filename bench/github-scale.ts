/**
 * GitHub's published REST description (1,223 operations) at scale: imported
 * with `toolc import openapi` into a temp project, then `toolc generate`
 * cold (no build cache). Prints the generated folder's size, file count and
 * largest file, each command's wall time and peak RSS (from the child's
 * rusage), and the size of the contracts the import wrote.
 *
 * Run: `npm run build && npx tsx bench/github-scale.ts` (KEEP=1 keeps the
 * folder; CPU_PROF=1 writes `--cpu-prof` profiles of both commands there).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { ROOT, tempProject } from "./lib/project.js";

const TOOLC = join(ROOT, "bin/toolc.js");

/** The figures of 831078e (the round's base), measured on the same machine at a load average of 5–20: the import's CPU seconds, generate's peak RSS. */
const BEFORE_RUN = { importCpuS: 14.3, generatePeakMb: 689 } as const;

interface Run {
  readonly ms: number;
  /** User + system CPU seconds: on a shared machine, wall time says more about the neighbours. */
  readonly cpuS: number;
  readonly peakMb: number;
}

/** One cold toolc process; the peak RSS is the child's own (`ru_maxrss`, via /usr/bin/time). */
function timed(dir: string, args: string[], profile: string | undefined): Run {
  const node = profile === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", join(dir, "profiles"), "--cpu-prof-name", `${profile}.cpuprofile`];
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S %M", process.execPath, ...node, TOOLC, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`toolc ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const lines = r.stderr.trim().split("\n");
  const [user, sys, rss] = lines[lines.length - 1]!.split(" ").map(Number);
  return { ms, cpuS: user! + sys!, peakMb: rss! / 1024 };
}

interface Tree {
  bytes: number;
  files: number;
  largest: { path: string; bytes: number };
  byTop: Map<string, number>;
}

function tree(root: string): Tree {
  const t: Tree = { bytes: 0, files: 0, largest: { path: "", bytes: 0 }, byTop: new Map() };
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const size = statSync(p).size;
        const rel = relative(root, p);
        t.bytes += size;
        t.files++;
        if (size > t.largest.bytes) t.largest = { path: rel, bytes: size };
        const top = rel.includes("/") ? `${rel.split("/")[0]}/` : rel;
        t.byTop.set(top, (t.byTop.get(top) ?? 0) + size);
      }
    }
  };
  walk(root);
  return t;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * The folder as 831078e generated it (MB, this bench on 2026-12-07), printed beside this run's figures so a
 * change to the layout shows what it saved. `schemas/` is gone since the served schemas' one source is
 * `contracts.ts` (`schemasJson: true` writes them again).
 */
const BEFORE = {
  commit: "831078e",
  total: 70.3,
  files: 4965,
  largest: "contracts.ts 6.8 MB",
  parts: {
    "validators/": 20.3,
    "schemas/": 17.2,
    "chunks/": 14.9,
    "contracts.ts": 6.8,
    "providers.ts": 5.9,
    "tools/": 3.8,
    "index.ts": 0.7,
    "runtime/": 0.4,
  } as Record<string, number>,
};
const TARGET = { total: "≤ 15 MB", largest: "≤ 1 MB" };

const dir = tempProject("github-scale");
const spec = join(dir, "github.json");
writeFileSync(spec, gunzipSync(readFileSync(join(ROOT, "test/import/openapi/fixtures/github/api.github.com.json.gz"))));
const profile = process.env.CPU_PROF === "1";
const imported = timed(dir, ["import", "openapi", spec], profile ? "import" : undefined);
const definitions = tree(join(dir, "definitions"));
const generated = timed(dir, ["generate"], profile ? "generate" : undefined);
const out = tree(join(dir, "generated"));
console.log(
  `import:   ${(imported.ms / 1000).toFixed(1)} s, peak ${imported.peakMb.toFixed(0)} MB; definitions ${mb(definitions.bytes)}, ${definitions.files} files`,
);
console.log(`generate: ${(generated.ms / 1000).toFixed(1)} s (${generated.cpuS.toFixed(1)} s CPU), peak ${generated.peakMb.toFixed(0)} MB`);
console.log(
  `side by side: import ${imported.cpuS.toFixed(1)} s CPU against ${BEFORE_RUN.importCpuS} s before (${(imported.cpuS / BEFORE_RUN.importCpuS).toFixed(2)}×); ` +
    `generate peak ${generated.peakMb.toFixed(0)} MB against ${BEFORE_RUN.generatePeakMb} MB before (${(generated.peakMb / BEFORE_RUN.generatePeakMb).toFixed(2)}×), ${(generated.peakMb / 400).toFixed(2)}× the 400 MB target`,
);
const rows: [string, string, string, string][] = [
  ["generated/", `${BEFORE.total.toFixed(1)} MB, ${BEFORE.files} files`, `${mb(out.bytes)}, ${out.files} files`, TARGET.total],
  ["largest file", BEFORE.largest, `${out.largest.path} ${mb(out.largest.bytes)}`, TARGET.largest],
];
const parts = new Set([
  ...Object.keys(BEFORE.parts),
  ...[...out.byTop]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([top]) => top),
]);
for (const top of parts) {
  const before = BEFORE.parts[top];
  const now = out.byTop.get(top);
  rows.push([`  ${top}`, before === undefined ? "-" : `${before.toFixed(1)} MB`, now === undefined ? "-" : mb(now), ""]);
}
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), [`part`, `before (${BEFORE.commit})`, "now"][i]!.length));
const line = (r: readonly string[]): string => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padStart(widths[1]!)}  ${r[2]!.padStart(widths[2]!)}  ${r[3]}`;
console.log(line(["part", `before (${BEFORE.commit})`, "now", "target"]));
for (const r of rows) console.log(line(r));
if (process.env.KEEP === "1" || profile) console.log(`kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
