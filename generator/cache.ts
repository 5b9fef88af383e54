/**
 * A content-addressed build cache, so that `generate` on 1,000 tools does not
 * redo normalize, Ajv compilation and emission for tools that did
 * not change. Every key hashes everything the cached value depends on:
 * toolc's own code and its dependencies' versions (the fingerprint), the
 * run options, and the input texts. A value
 * found under a key is therefore exactly what a fresh run would produce, and
 * a cache that is missing, stale or corrupt only costs time, never output.
 *
 * It lives outside the output folder (node_modules/.cache/toolc of the
 * nearest project, or the OS temp folder), so it is never committed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashText } from "./hash.js";
import { TOOLC_VERSION } from "./version.js";

/** Bump when the layout of cache entries changes. */
const LAYOUT = "toolc-cache-1";
/** Packages whose version can change generated text (not prettier: generate runs no formatter, and the runtime sources are kept formatted in the repository). */
const OUTPUT_DEPENDENCIES = ["ajv", "yaml"];

export { hashText };

function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(full));
    else if (/\.(js|ts|json)$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

function dependencyVersion(root: string, name: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "absent";
  }
}

let fingerprint: string | undefined;

/**
 * toolc's identity for caching: its version, the hash of its own code (the
 * folder this module runs from, plus the runtime sources it copies and its
 * meta-schema), and the versions of the packages that shape output. Hashing
 * the code, not only the version, keeps a development build from reusing
 * entries an older build made.
 */
export function toolcFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const codeDir = dirname(fileURLToPath(import.meta.url));
  const root = dirname(codeDir);
  const files = [...filesBelow(codeDir), ...filesBelow(join(root, "generator", "runtime")), ...filesBelow(join(root, "schema"))];
  const parts = [LAYOUT, TOOLC_VERSION];
  for (const file of [...new Set(files)]) parts.push(file.slice(root.length), readFileSync(file, "utf8"));
  for (const name of OUTPUT_DEPENDENCIES) parts.push(name, dependencyVersion(root, name));
  fingerprint = hashText(...parts);
  return fingerprint;
}

/** The nearest folder at or above `start` that has node_modules, else none. */
function projectCacheDir(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "toolc");
    if (dirname(dir) === dir) return undefined;
  }
}

export interface BuildCache {
  readonly dir: string;
  /** `check` reads the cache but never writes to it. */
  readonly readonly: boolean;
}

/** TOOLC_CACHE_DIR overrides the location; TOOLC_NO_CACHE=1 turns the cache off. */
export function openCache(outDir: string, readonly: boolean): BuildCache | undefined {
  if (process.env.TOOLC_NO_CACHE === "1") return undefined;
  const base = process.env.TOOLC_CACHE_DIR ?? projectCacheDir(outDir) ?? join(tmpdir(), "toolc-cache");
  // One folder per output folder, so pruning after one project's run never
  // touches another's entries.
  return { dir: join(base, hashText(outDir).slice(0, 16)), readonly };
}

function entryPath(cache: BuildCache, kind: string, key: string): string {
  return join(cache.dir, kind, `${key}.json`);
}

/** A parsed entry, or undefined when it is absent or unreadable (both mean: recompute). */
export function readEntry<T>(cache: BuildCache | undefined, kind: string, key: string): T | undefined {
  if (!cache) return undefined;
  try {
    return JSON.parse(readFileSync(entryPath(cache, kind, key), "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Writes atomically, so a concurrent run never reads half an entry. Failures are ignored: the cache is an optimization. */
export function writeEntry(cache: BuildCache | undefined, kind: string, key: string, value: unknown): void {
  if (!cache || cache.readonly) return;
  const target = entryPath(cache, kind, key);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, JSON.stringify(value));
    renameSync(temp, target);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Removes entries of `kind` not in `keep`, so the cache holds one generation and does not grow without bound. */
export function pruneEntries(cache: BuildCache | undefined, kind: string, keep: ReadonlySet<string>): void {
  if (!cache || cache.readonly) return;
  const dir = join(cache.dir, kind);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!keep.has(name.replace(/\.json$/, ""))) rmSync(join(dir, name), { force: true });
  }
}
