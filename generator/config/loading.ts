/**
 * Deferred loading: whether a tool's definition goes into every model
 * request (eager) or is found by the provider's tool search (deferred).
 * A contract says so with `loading:`; the config's `loading:` section gives
 * the default for the rest, by folder:
 *
 *   loading:
 *     default: eager
 *     deferred: ["definitions/github/**"]
 *     eager: ["definitions/github/issues/**"]
 *
 * The contract's own key wins, then an `eager` glob, then a `deferred` glob,
 * then `default`. The schema (config.schema.json, contract.schema.json)
 * checks the values with located errors; normalize resolves each tool once
 * (`loadingOf`), so every target reads the same answer from the IR.
 */
import { posix } from "node:path";
import type { ToolLoading } from "../ir.js";
import { globPattern } from "./diagnostics-ignore.js";

/** The config's section as written (see config.schema.json). */
export interface LoadingConfigValues {
  readonly default?: ToolLoading;
  readonly deferred?: readonly string[];
  readonly eager?: readonly string[];
}

/**
 * The section resolved for normalize: plain data, since it crosses to worker
 * threads and keys the build cache. Globs stay as written (relative to the
 * config's folder); `definitions` is the definitions folder relative to that
 * folder, posix, so a tool's `source` can be matched against them.
 */
export interface LoadingSetting {
  readonly default: ToolLoading;
  readonly deferred: readonly string[];
  readonly eager: readonly string[];
  readonly definitions: string;
}

export function loadingSetting(values: LoadingConfigValues | undefined, definitionsFromRoot: string): LoadingSetting | undefined {
  if (values === undefined) return undefined;
  return { default: values.default ?? "eager", deferred: values.deferred ?? [], eager: values.eager ?? [], definitions: definitionsFromRoot };
}

/** A tool's loading: its contract's `loading`, else the config's globs and default, else eager. */
export function loadingOf(written: ToolLoading | undefined, source: string, setting: LoadingSetting | undefined): ToolLoading {
  if (written !== undefined) return written;
  if (setting === undefined) return "eager";
  const path = posix.join(setting.definitions, source);
  const matches = (globs: readonly string[]): boolean => globs.some((glob) => globPattern(glob).test(path));
  if (matches(setting.eager)) return "eager";
  if (matches(setting.deferred)) return "deferred";
  return setting.default;
}
