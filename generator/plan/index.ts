/**
 * The plan of one run: the config file, the flags and the defaults resolved
 * once into absolute folders, the normalize options and each target's
 * options. generate, check, watch, `toolc docs`, `toolc diff` and the
 * catalog all start from a plan, so they read the same definitions with the
 * same options; nothing below derives a setting again.
 *
 * config/settings.ts reads and checks the config file and the flags
 * (`Settings`, with located diagnostics); this module turns them into the
 * plan. The library entry (`planFromOptions`) takes the same plan from
 * paths relative to a folder, for callers without a config file.
 */
import { relative, resolve, sep } from "node:path";
import type { AuthSetting } from "../config/auth.js";
import type { ContractTestsPlan, DocsTarget, Plan, RunInTests } from "../core/plan.js";
import type { LoadingSetting } from "../config/loading.js";
import type { McpSdkLine } from "../config/mcp-sdk.js";
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import { resolveSettings, type DocsSettings, type SettingFlags, type Settings } from "../config/settings.js";
import { diffConfigOf, EMPTY_DIFF_CONFIG } from "../diff/config.js";
import type { EmitOptions } from "../emit/index.js";
import { fetchTarget } from "../emit/fetch-target.js";
import { httpTarget, type EntryOptions } from "../emit/http-target.js";
import { providersTarget, type ProvidersOptions } from "../emit/providers/target.js";
import type { CompileOptions } from "../pipeline/compile-tool.js";
import type { Diagnostic } from "../ir.js";
import { normalizeOptionsOf, type NormalizeOptions } from "../normalize/access.js";
import { TARGETS } from "../targets/registry.js";

export type { ContractTestsPlan, Plan };
import type { OutputLayout } from "../write/output.js";

export interface PlanResult {
  readonly plan?: Plan;
  readonly diagnostics: readonly Diagnostic[];
  /** A usage problem with the flags (exit status 2). */
  readonly usage?: string;
}

/** The catalog's target: the settings' `docs` (or `docs` given), the config's `diff:` rules for its changelog, the plan's normalize options. */
function catalogOf(
  settings: Settings,
  docs: DocsSettings | undefined,
  normalize: NormalizeOptions,
): { catalog?: DocsTarget; diagnostics: readonly Diagnostic[] } {
  if (docs === undefined) return { diagnostics: [] };
  const diff = docs.changelog.length === 0 ? { config: EMPTY_DIFF_CONFIG, diagnostics: [] } : diffConfigOf(settings.config);
  if (diff.diagnostics.length > 0) return { diagnostics: diff.diagnostics };
  const catalog: DocsTarget = {
    out: docs.out,
    title: docs.title,
    root: settings.root,
    changelog: docs.changelog,
    diffConfig: diff.config,
    normalize,
    ...(settings.configFile === undefined ? {} : { configFile: settings.configFile }),
  };
  return { catalog, diagnostics: [] };
}

/** Each target's config section, parsed by the target itself (targets/registry.ts); a target whose key is absent is off. */
function targetOptionsOf(settings: Settings): { options: Record<string, unknown>; diagnostics: readonly Diagnostic[] } {
  const config = settings.config;
  const options: Record<string, unknown> = {};
  const diagnostics: Diagnostic[] = [];
  if (config === undefined) return { options, diagnostics };
  for (const target of TARGETS) {
    const section = target.config === undefined ? undefined : (config.values as Record<string, unknown>)[target.config.key];
    if (target.config === undefined || section === undefined) continue;
    const parsed = target.config.parse(section, { root: settings.root, locate: (path, at) => config.locatePath(path, at) });
    diagnostics.push(...parsed.diagnostics);
    if (parsed.options !== undefined) options[target.name] = parsed.options;
  }
  return { options, diagnostics };
}

/**
 * The plan of resolved settings. `docs` replaces the settings' catalog
 * (`toolc docs` with its own flags); the catalog's `diff:` rules are checked
 * here, so a bad section stops every command alike.
 */
export function planOf(settings: Settings, cwd: string, docs: DocsSettings | undefined = settings.docs): PlanResult {
  const normalize = normalizeOptionsOf(settings);
  const catalog = catalogOf(settings, docs, normalize);
  if (catalog.diagnostics.length > 0) return { diagnostics: catalog.diagnostics };
  const targets = targetOptionsOf(settings);
  if (targets.diagnostics.length > 0) return { diagnostics: targets.diagnostics };
  const plan: Plan = {
    root: settings.root,
    cwd,
    ...(settings.configFile === undefined ? {} : { configFile: settings.configFile }),
    ...(settings.config === undefined ? {} : { config: settings.config }),
    definitions: settings.definitions,
    out: settings.out,
    normalize,
    ...(settings.tests === undefined
      ? {}
      : { tests: { dir: settings.tests, runInTests: settings.runInTests, ...(settings.handlers === undefined ? {} : { handlers: settings.handlers }) } }),
    mcpSdk: settings.mcpSdk,
    server: settings.server,
    providers: settings.providers,
    ...(settings.auth === undefined ? {} : { auth: settings.auth }),
    ...(catalog.catalog === undefined ? {} : { catalog: catalog.catalog }),
    ignore: settings.ignore ?? [],
    targets: targets.options,
  };
  return { plan, diagnostics: [] };
}

/** The config file, the flags and the defaults as one plan, or why there is none. */
export async function resolvePlan(cwd: string, flags: SettingFlags): Promise<PlanResult> {
  const resolved = await resolveSettings(cwd, flags);
  if (!resolved.settings) return resolved;
  return planOf(resolved.settings, cwd);
}

/** A plan from folders relative to `cwd`, for the library API and tests: no config file is read. */
export interface PlanOptions {
  readonly definitions: string;
  readonly out: string;
  /** Diagnostics print paths relative to this folder; the working directory when absent. */
  readonly cwd?: string;
  readonly tests?: string;
  readonly handlers?: string;
  readonly runInTests?: readonly RunInTests[];
  readonly mcpSdk?: McpSdkLine;
  readonly server?: ServerDefaultsSetting;
  readonly providers?: boolean;
  readonly auth?: AuthSetting;
  /** The config's `loading:` section as settings resolve it (config/loading.ts). */
  readonly loading?: LoadingSetting;
  readonly docs?: DocsTarget;
  /** Options of targets with a config section of their own, by target name, as their parsers give them. */
  readonly targets?: Readonly<Record<string, unknown>>;
}

export function planFromOptions(options: PlanOptions): Plan {
  const cwd = options.cwd ?? process.cwd();
  const providers = options.providers !== false;
  return {
    root: cwd,
    cwd,
    definitions: resolve(cwd, options.definitions),
    out: resolve(cwd, options.out),
    normalize: normalizeOptionsOf({
      providers,
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      ...(options.loading === undefined ? {} : { loading: options.loading }),
    }),
    ...(options.tests === undefined
      ? {}
      : {
          tests: {
            dir: resolve(cwd, options.tests),
            runInTests: options.runInTests ?? [],
            ...(options.handlers === undefined ? {} : { handlers: resolve(cwd, options.handlers) }),
          },
        }),
    ...(options.mcpSdk === undefined ? {} : { mcpSdk: options.mcpSdk }),
    ...(options.server === undefined ? {} : { server: options.server }),
    providers,
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.docs === undefined ? {} : { catalog: options.docs }),
    ignore: [],
    targets: options.targets ?? {},
  };
}

const posixRelative = (from: string, to: string): string => relative(from, to).split(sep).join("/") || ".";

/**
 * What the per-tool emitters and the shared files read of the plan: the one
 * shape that crosses to worker threads and keys the build cache, so it holds
 * plain data only. Contract tests reach the output folder and the handlers
 * module by posix paths relative to the tests folder.
 */
export function emitOptionsOf(plan: Plan): EmitOptions {
  const targets = { ...plan.targets, ...derivedTargetOptions(plan) };
  const sdk = {
    ...(plan.mcpSdk === undefined ? {} : { mcpSdk: plan.mcpSdk }),
    ...(plan.server === undefined ? {} : { server: plan.server }),
    ...(Object.keys(targets).length === 0 ? {} : { targets }),
  };
  const tests = plan.tests;
  if (tests === undefined) return sdk;
  const handlers =
    tests.handlers === undefined
      ? {}
      : { handlersModule: posixRelative(tests.dir, tests.handlers), ...(tests.runInTests.length === 0 ? {} : { runInTests: tests.runInTests }) };
  return { tests: { outFromTests: posixRelative(tests.dir, plan.out), ...handlers }, ...sdk };
}

/**
 * The options of the targets without a config section of their own, from the
 * core settings they share with normalize: the providers target is off with
 * `providers: false` (normalize drops its lints on the same setting), the
 * HTTP and fetch entries carry the `auth:` section's resource server
 * (normalize applies its default scopes).
 */
function derivedTargetOptions(plan: Plan): Record<string, unknown> {
  const entry: EntryOptions | undefined = plan.auth === undefined ? undefined : { auth: plan.auth };
  return {
    ...(plan.providers === false ? { [providersTarget.name]: false satisfies ProvidersOptions } : {}),
    ...(entry === undefined ? {} : { [httpTarget.name]: entry, [fetchTarget.name]: entry }),
  };
}

/** What the compile reads of the plan: its normalize options, and the emit options. */
export function compileOptionsOf(plan: Plan): CompileOptions {
  return { normalize: plan.normalize, emit: emitOptionsOf(plan) };
}

/** The folders the run writes: the output, the contract tests', the catalog's. */
export function layoutOf(plan: Plan): OutputLayout {
  return {
    out: plan.out,
    ...(plan.tests === undefined ? {} : { tests: plan.tests.dir }),
    ...(plan.catalog === undefined ? {} : { docs: plan.catalog.out }),
  };
}
