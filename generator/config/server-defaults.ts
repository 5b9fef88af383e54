/**
 * What the generated server says about itself when the application does not:
 * its name and version, read from the project's package.json when the code
 * is generated (so the output depends only on the project's files), and the
 * caching hint of its tool list from `mcp.cache` in toolc.config.yaml.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A cacheable result's freshness hint (MCP 2026-07-28, SEP-2549), as the config writes it. */
export interface CacheHintSetting {
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

/** Defaults baked into the generated `index.ts`; `ServerOptions` overrides each at run time. */
export interface ServerDefaultsSetting {
  readonly name?: string;
  readonly version?: string;
  readonly cache?: CacheHintSetting;
}

/** The `name` and `version` of the package.json in `root`, where it has them as non-empty strings. */
export function packageIdentity(root: string): { name?: string; version?: string } {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  } catch {
    return {};
  }
  if (typeof pkg !== "object" || pkg === null) return {};
  const { name, version } = pkg as { name?: unknown; version?: unknown };
  return {
    ...(typeof name === "string" && name !== "" ? { name } : {}),
    ...(typeof version === "string" && version !== "" ? { version } : {}),
  };
}

export function serverDefaults(root: string, cache: CacheHintSetting | undefined): ServerDefaultsSetting {
  return { ...packageIdentity(root), ...(cache === undefined ? {} : { cache }) };
}
