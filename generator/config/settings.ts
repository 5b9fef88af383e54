/**
 * The settings of one run: toolc.config.yaml, then the command-line flags
 * over it, then defaults. generate, check, watch and import all start here,
 * so they agree on every folder. Config paths are relative to the config
 * file's folder; flag paths are relative to the working directory.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, RateLimitIR, SourceLocation } from "../ir.js";
import { rateLimitOf } from "./rate-limit.js";
import { authSetting, type AuthSetting } from "./auth.js";
import { ignoreRulesOf, type IgnoreRule } from "./diagnostics-ignore.js";
import { findConfig, loadConfig, type ConfigValues, type LoadedConfig } from "./load.js";
import { loadingSetting, type LoadingSetting } from "./loading.js";
import { mcpSdkLine, type McpSdkLine } from "./mcp-sdk.js";
import { serverDefaults, type ServerDefaultsSetting } from "./server-defaults.js";

export type { AuthSetting, McpSdkLine };

export const DEFAULT_DEFINITIONS = "definitions";
export const DEFAULT_OUT = "generated";
/** Contract tests go here unless told otherwise: outside the output folder, and outside `src/`, which builds compile. */
export const DEFAULT_TESTS = "test/toolc";

/** Flags that override the config; paths relative to the working directory. */
export interface SettingFlags {
  readonly config?: string;
  readonly definitions?: string;
  readonly out?: string;
  readonly tests?: string;
  readonly noTests?: boolean;
  readonly handlers?: string;
  /** --mcp-sdk: the MCP SDK line to generate for. */
  readonly mcpSdk?: McpSdkLine;
}

/** The tool catalog, when the config has a `docs` section (or `toolc docs` was given a folder). */
export interface DocsSettings {
  /** Absolute folder. */
  readonly out: string;
  readonly title: string;
  /** The changelog's bases, newest first, each with where the config wrote it. */
  readonly changelog: readonly { readonly base: string; readonly at?: SourceLocation }[];
}

export const DEFAULT_DOCS_TITLE = "Tool catalog";

export interface Settings {
  /** The project folder: the config file's folder, else the working directory. */
  readonly root: string;
  /** Absolute path of the config file read, if any. */
  readonly configFile?: string;
  /** Absolute folders and module. */
  readonly definitions: string;
  readonly out: string;
  /** Where contract tests go; absent: no contract tests. */
  readonly tests?: string;
  readonly handlers?: string;
  /** The kinds of tool whose real handlers the contract tests run besides read and write tools (`runInTests`); empty by default. */
  readonly runInTests: readonly ("destructive" | "confirmed")[];
  /** The MCP SDK line generated code targets: the flag, else `mcp.sdk`, else what package.json depends on. */
  readonly mcpSdk: McpSdkLine;
  /** The generated server's default identity (package.json) and tool-list cache hint (`mcp.cache`). */
  readonly server: ServerDefaultsSetting;
  /** Whether providers.ts (and its lints) is generated: the config's `providers`, default true. */
  readonly providers: boolean;
  /** The config's `loading:` section, resolved against the definitions folder (config/loading.ts); absent without one. */
  readonly loading?: LoadingSetting;
  /** The warnings the config's `diagnostics.ignore` silences, by code and path (config/diagnostics-ignore.ts). */
  readonly ignore?: readonly IgnoreRule[];
  /** Present when the config has an `auth:` section: the HTTP server is an OAuth resource server. */
  readonly auth?: AuthSetting;
  /** The config's `rateLimit`, `per` resolved: every tool's limit unless its contract declares one. */
  readonly rateLimit?: RateLimitIR;
  /** The catalog that generate and check keep fresh; absent when the config has no `docs`, or when --definitions or --out override the config's folders. */
  readonly docs?: DocsSettings;
  /** The config file as read, for sections other commands parse themselves (`diff`). */
  readonly config?: LoadedConfig;
}

/** Settings, or why there are none: located diagnostics about the config file, or a usage problem with the flags. */
export interface SettingsResult {
  readonly settings?: Settings;
  readonly diagnostics: readonly Diagnostic[];
  readonly usage?: string;
}

/** Whether package.json in `root` lists vitest among its dependencies or devDependencies. */
export function declaresVitest(root: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    return ["dependencies", "devDependencies"].some((field) => {
      const deps = pkg[field];
      return deps !== null && typeof deps === "object" && Object.hasOwn(deps, "vitest");
    });
  } catch {
    return false;
  }
}

/** One setting: the flag (relative to cwd), else the config (relative to its folder), else the default. */
export interface Source {
  readonly value: string;
  /** Where the value was written, when it came from the config file. */
  readonly at?: SourceLocation;
}

function pick(
  key: keyof ConfigValues & ("definitions" | "out" | "handlers"),
  flag: string | undefined,
  config: LoadedConfig | undefined,
  cwd: string,
): Source | undefined {
  if (flag !== undefined) return { value: resolve(cwd, flag) };
  const written = config?.values[key];
  if (written !== undefined && config) return { value: resolve(dirname(config.path), written), at: config.locate(key) };
  return undefined;
}

/**
 * The tests folder, or undefined for no contract tests. The config's (or the
 * default) tests folder goes with the config's output folder: tests there
 * import that output, and a run that writes elsewhere (`--out`) must not
 * rewrite them against its own output, nor remove them. So `--out` without
 * `--tests` writes no contract tests.
 */
function testsSource(flags: SettingFlags, config: LoadedConfig | undefined, cwd: string, root: string): Source | undefined {
  if (flags.noTests) return undefined;
  if (flags.tests !== undefined) return { value: resolve(cwd, flags.tests) };
  if (flags.out !== undefined) return undefined;
  const written = config?.values.tests;
  if (written === false) return undefined;
  if (written !== undefined && config) return { value: resolve(dirname(config.path), written), at: config.locate("tests") };
  return declaresVitest(root) ? { value: resolve(root, DEFAULT_TESTS) } : undefined;
}

function docsOf(config: LoadedConfig | undefined): (DocsSettings & { at?: SourceLocation }) | undefined {
  const docs = config?.values.docs;
  if (!config || docs === undefined) return undefined;
  const changelog = (docs.changelog ?? []).map((base, i) => ({ base, at: config.locatePath(["docs", "changelog", i]) }));
  return { out: resolve(dirname(config.path), docs.out), title: docs.title ?? DEFAULT_DOCS_TITLE, changelog, at: config.locatePath(["docs", "out"]) };
}

const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** Folder combinations that would make toolc overwrite or report the wrong files. */
export function layoutProblems(
  root: string,
  definitions: Source,
  out: Source,
  tests: Source | undefined,
  display: (p: string) => string,
  docs?: Source,
): { diagnostics: Diagnostic[]; usage: string[] } {
  const diagnostics: Diagnostic[] = [];
  const usage: string[] = [];
  const report = (source: Source, message: string): void => {
    if (source.at) diagnostics.push(error(source.at, Codes.invalidValue, message));
    else usage.push(message);
  };
  if (out.value === root || inside(root, out.value))
    report(out, `\`out\` must be a folder inside the project, not ${display(out.value)}: toolc owns everything in it`);
  else if (inside(definitions.value, out.value) || inside(out.value, definitions.value))
    report(out, `\`out\` (${display(out.value)}) and \`definitions\` (${display(definitions.value)}) must not contain each other`);
  if (tests && (tests.value === out.value || tests.value === root || inside(tests.value, definitions.value))) {
    report(tests, `\`tests\` must be a folder of its own, not ${display(tests.value)}`);
  }
  if (docs) {
    const clash = [out, definitions, ...(tests ? [tests] : [])].find((other) => inside(docs.value, other.value) || inside(other.value, docs.value));
    if (docs.value === root || inside(root, docs.value) || clash)
      report(docs, `\`docs.out\` must be a folder of its own inside the project, not ${display(docs.value)}: toolc owns everything in it`);
  }
  return { diagnostics, usage };
}

export async function resolveSettings(cwd: string, flags: SettingFlags): Promise<SettingsResult> {
  const configPath = flags.config === undefined ? findConfig(cwd) : resolve(cwd, flags.config);
  let config: LoadedConfig | undefined;
  if (configPath !== undefined) {
    const loaded = await loadConfig(configPath, cwd);
    if (!loaded.config) return { diagnostics: loaded.diagnostics };
    config = loaded.config;
  }
  const root = config ? dirname(config.path) : cwd;
  const definitions = pick("definitions", flags.definitions, config, cwd) ?? { value: resolve(root, DEFAULT_DEFINITIONS) };
  const out = pick("out", flags.out, config, cwd) ?? { value: resolve(root, DEFAULT_OUT) };
  const handlers = pick("handlers", flags.handlers, config, cwd);
  const tests = testsSource(flags, config, cwd, root);
  const display = (p: string): string => (isAbsolute(p) ? relative(cwd, p).split(sep).join("/") || "." : p);
  // The config's catalog is of the config's definitions, beside its output: a run told to read or write
  // other folders (--definitions, --out) neither rewrites that catalog from them nor deletes its pages.
  const docs = flags.definitions === undefined && flags.out === undefined ? docsOf(config) : undefined;
  const problems = layoutProblems(root, definitions, out, tests, display, docs && { value: docs.out, ...(docs.at ? { at: docs.at } : {}) });
  if (problems.diagnostics.length > 0 || problems.usage.length > 0)
    return { diagnostics: problems.diagnostics, ...(problems.usage.length > 0 ? { usage: problems.usage.join("\n") } : {}) };
  const mcpSdk = flags.mcpSdk ?? config?.values.mcp?.sdk ?? mcpSdkLine(root);
  const auth =
    config?.values.auth === undefined
      ? undefined
      : authSetting(config.values.auth, mcpSdk, config.values.mcp?.cache?.cacheScope, (path) => config.locatePath(["auth", ...path]));
  if (auth !== undefined && auth.diagnostics.length > 0) return { diagnostics: auth.diagnostics };
  const ignore = ignoreRulesOf(config);
  if (ignore.diagnostics.length > 0) return { diagnostics: ignore.diagnostics };
  const loading = loadingSetting(config?.values.loading, relative(root, definitions.value).split(sep).join("/"));
  const settings: Settings = {
    root,
    ...(config ? { configFile: config.path, config } : {}),
    definitions: definitions.value,
    out: out.value,
    ...(tests ? { tests: tests.value } : {}),
    ...(handlers ? { handlers: handlers.value } : {}),
    runInTests: config?.values.runInTests ?? [],
    mcpSdk,
    server: serverDefaults(root, config?.values.mcp?.cache),
    providers: config?.values.providers ?? true,
    ...(loading === undefined ? {} : { loading }),
    ...(ignore.rules.length === 0 ? {} : { ignore: ignore.rules }),
    ...(auth?.setting === undefined ? {} : { auth: auth.setting }),
    ...(config?.values.rateLimit === undefined ? {} : { rateLimit: rateLimitOf(config.values.rateLimit) }),
    ...(docs ? { docs: { out: docs.out, title: docs.title, changelog: docs.changelog } } : {}),
  };
  return { settings, diagnostics: [] };
}
