/**
 * The config the base side of `toolc diff` is normalized with. A tool
 * without `scopes` of its own needs the config's `auth.defaultScopes`, so a
 * default added in the head's config is a scope added to every such tool:
 * the base must be read with its own default, not the head's. A `git:REF`
 * base is read with the config of that commit, found there the way generate
 * finds one on disk (`--config`'s path, else the first toolc.config.yaml from
 * the working folder up to the nearest package.json). A folder base has no
 * commit to read a config from, so it is read with the current one. The
 * same holds for the config's `rateLimit` and `loading:` defaults.
 */
import { execFileSync } from "node:child_process";
import { posix, relative, resolve, sep } from "node:path";
import { CONFIG_FILE, parseConfig, type ConfigValues } from "../config/load.js";
import type { Diagnostic } from "../ir.js";
import { loadingSetting } from "../config/loading.js";
import { rateLimitOf } from "../config/rate-limit.js";
import { DEFAULT_DEFINITIONS } from "../config/settings.js";
import { normalizeOptionsOf, type NormalizeOptions } from "../normalize/access.js";

/** Git's output; light, unlike sources.ts, so the catalog's cache key can find a base's config without loading the compiler. */
function git(args: readonly string[], cwd: string): Buffer {
  return execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
}

export interface BaseOptions {
  readonly options: NormalizeOptions;
  /** Why the base commit's config could not be read; the diff cannot go on without it. */
  readonly diagnostics: readonly Diagnostic[];
}

function existsAt(ref: string, path: string, cwd: string): boolean {
  try {
    git(["cat-file", "-e", `${ref}:${path}`], cwd);
    return true;
  } catch {
    return false;
  }
}

const parentOf = (dir: string): string => dir.replace(/[^/]+\/$/, "");

/**
 * Where the config is at `ref`, relative to the repository's root: a path,
 * `undefined` when the commit has none, or `"outside"` when `--config` names
 * a file outside the repository, which no commit holds.
 */
export function configPathAt(ref: string, cwd: string, configFlag: string | undefined): string | undefined | "outside" {
  // The working folder relative to the root, as "packages/api/" (empty at the root).
  const prefix = git(["rev-parse", "--show-prefix"], cwd).toString("utf8").trim();
  if (configFlag !== undefined) {
    const path = posix.normalize(prefix + relative(cwd, resolve(cwd, configFlag)).split(sep).join("/"));
    if (path.startsWith("../") || posix.isAbsolute(path)) return "outside";
    return existsAt(ref, path, cwd) ? path : undefined;
  }
  for (let dir = prefix; ; dir = parentOf(dir)) {
    if (existsAt(ref, `${dir}${CONFIG_FILE}`, cwd)) return `${dir}${CONFIG_FILE}`;
    if (dir === "" || existsAt(ref, `${dir}package.json`, cwd)) return undefined;
  }
}

/**
 * What normalize reads of a config, through the derivation generate uses:
 * `providers`, whether auth is on with its default scopes, the default
 * `rateLimit`, and the `loading:` globs, matched against the folder the head
 * reads (the base is read from the same path in the commit).
 */
function configOptions(values: ConfigValues, head: NormalizeOptions): NormalizeOptions {
  const auth = values.auth;
  const loading = loadingSetting(values.loading, head.loading?.definitions ?? posix.normalize(values.definitions ?? DEFAULT_DEFINITIONS));
  return normalizeOptionsOf({
    ...(values.providers === undefined ? {} : { providers: values.providers }),
    ...(auth === undefined ? {} : { auth: { defaultScopes: auth.defaultScopes ?? [], server: {} } }),
    ...(values.rateLimit === undefined ? {} : { rateLimit: rateLimitOf(values.rateLimit) }),
    ...(loading === undefined ? {} : { loading }),
  });
}

/** The options for the base side of `--base base`; `head` are the head side's, from the current config. */
export async function baseNormalizeOptions(base: string, cwd: string, configFlag: string | undefined, head: NormalizeOptions): Promise<BaseOptions> {
  if (!base.startsWith("git:")) return { options: head, diagnostics: [] };
  const ref = base.slice("git:".length);
  let path: ReturnType<typeof configPathAt>;
  try {
    git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
    path = configPathAt(ref, cwd, configFlag);
  } catch {
    // Not a commit, or not a repository: reading the base's definitions says so.
    return { options: head, diagnostics: [] };
  }
  if (path === "outside") return { options: head, diagnostics: [] };
  if (path === undefined) return { options: normalizeOptionsOf({}), diagnostics: [] };
  const display = `${ref}:${path}`;
  const { config, diagnostics } = await parseConfig(git(["cat-file", "blob", display], cwd).toString("utf8"), display, display);
  if (config === undefined) return { options: normalizeOptionsOf({}), diagnostics };
  return { options: configOptions(config.values, head), diagnostics: [] };
}
