/**
 * Reads a `--cpu-prof` profile and prints where the time went: self time per
 * function, inclusive time per function (each function counted once per
 * sample, however deep its recursion), and self time per source file.
 *
 * Run: `npx tsx bench/lib/cpuprofile.ts <file.cpuprofile> [top=40] [filter]`
 * (`filter`: only functions whose "name file" contains it, for a closer look).
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly self: Map<string, number>;
  readonly inclusive: Map<string, number>;
  readonly byFile: Map<string, number>;
}

/** A script's path from its package: `ajv/dist/…` for a dependency, `dist/…` for toolc's own build. */
function shortPath(url: string): string {
  const path = url.replace(/^file:\/\//, "");
  const dependency = path.lastIndexOf("/node_modules/");
  if (dependency >= 0) return path.slice(dependency + "/node_modules/".length);
  const own = path.lastIndexOf("/dist/");
  return own >= 0 ? path.slice(own + 1) : path;
}

/** "name file:line". */
function frameKey(f: CallFrame): string {
  return `${f.functionName || "(anonymous)"} ${shortPath(f.url)}:${f.lineNumber + 1}`;
}

function fileOf(f: CallFrame): string {
  return f.url === "" ? `(${f.functionName})` : shortPath(f.url);
}

export function summarize(profile: Profile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ms = new Map<number, number>();
  profile.samples.forEach((id, i) => ms.set(id, (ms.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFile = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);
  for (const [id, t] of ms) {
    const node = byId.get(id)!;
    add(self, frameKey(node.callFrame), t);
    add(byFile, fileOf(node.callFrame), t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = frameKey(byId.get(cur)!.callFrame);
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, t);
      }
    }
  }
  return { totalMs: (profile.endTime - profile.startTime) / 1000, self, inclusive, byFile };
}

function top(m: Map<string, number>, n: number, filter: string | undefined): string[] {
  return [...m]
    .filter(([k]) => filter === undefined || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${(v / 1000).toFixed(2).padStart(8)} s  ${k}`);
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ""))) {
  const [file, n = "40", filter] = process.argv.slice(2);
  if (file === undefined) throw new Error("usage: cpuprofile.ts <file.cpuprofile> [top] [filter]");
  const s = summarize(JSON.parse(readFileSync(file, "utf8")) as Profile);
  console.log(`total ${(s.totalMs / 1000).toFixed(2)} s`);
  console.log("\n== self ==");
  for (const l of top(s.self, Number(n), filter)) console.log(l);
  console.log("\n== inclusive ==");
  for (const l of top(s.inclusive, Number(n), filter)) console.log(l);
  console.log("\n== self by file ==");
  for (const l of top(s.byFile, Number(n), filter)) console.log(l);
}
