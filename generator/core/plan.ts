/**
 * The plan of one run as the layers below the pipeline see it: plain,
 * resolved data (absolute folders, the normalize options, each target's
 * options) that plan/index.ts resolves once from the config file, the flags
 * and the defaults. It lives in core so a target can read the plan (its
 * run-level files, its run key) without importing the pipeline that builds
 * it: types only, no code.
 */
import type { AuthSetting } from "../config/auth.js";
import type { IgnoreRule } from "../config/diagnostics-ignore.js";
import type { LoadedConfig } from "../config/load.js";
import type { McpSdkLine } from "../config/mcp-sdk.js";
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { DiffConfig } from "../diff/config.js";
import type { SourceLocation } from "../ir.js";
import type { NormalizeOptions } from "../normalize/access.js";

/** What `runInTests` may list: destructive tools (`effect: destructive`), confirmed tools (`confirm: true`). */
export type RunInTests = "destructive" | "confirmed";

/** One base as the config or the command line wrote it. */
export interface ChangelogBase {
  /** `git:REF`, or a folder (absolute, or relative to the project folder). */
  readonly base: string;
  /** Where the config wrote it; absent for a flag. */
  readonly at?: SourceLocation;
}

/** The catalog's part of the plan (`docs:` in the config, or `toolc docs`' flags). */
export interface DocsTarget {
  /** The catalog's folder, absolute. */
  readonly out: string;
  readonly title: string;
  /** The project folder, absolute: git runs here, and paths are shown relative to it. */
  readonly root: string;
  /** Newest first. */
  readonly changelog: readonly ChangelogBase[];
  /** The config's `diff:` section, which the changelog applies as `toolc diff` does. */
  readonly diffConfig: DiffConfig;
  /** The project's normalize options (normalizeOptionsOf the settings), as generate compiles with them. */
  readonly normalize: NormalizeOptions;
  /** The config file, absolute; a `git:REF` base is normalized with this file as that commit has it, as `toolc diff` does. */
  readonly configFile?: string;
}

/** The contract tests' target: where they go, and what they run. */
export interface ContractTestsPlan {
  /** Absolute folder. */
  readonly dir: string;
  /** Absolute path of the module exporting `handlers`; examples then run through it too. */
  readonly handlers?: string;
  /** The kinds of tool whose handlers the contract tests run besides read and write tools; empty by default. */
  readonly runInTests: readonly RunInTests[];
}

export interface Plan {
  /** The project folder: the config file's folder, else the working directory. */
  readonly root: string;
  /** Diagnostics and differences print paths relative to this folder. */
  readonly cwd: string;
  /** The config file as read, absolute path and values; absent without one. */
  readonly configFile?: string;
  readonly config?: LoadedConfig;
  /** Absolute folders. */
  readonly definitions: string;
  readonly out: string;
  /** What normalize reads of the settings, derived once: every reader of the definitions gets these. */
  readonly normalize: NormalizeOptions;
  /** Contract tests; none when absent. */
  readonly tests?: ContractTestsPlan;
  /** The MCP SDK line generated code targets; 1 when absent (the CLI always resolves one). */
  readonly mcpSdk?: McpSdkLine;
  /** The generated server's defaults (package.json name and version, `mcp.cache`). */
  readonly server?: ServerDefaultsSetting;
  /** `false`: no provider exports and no provider lints. */
  readonly providers: boolean;
  /** The config's `auth:` section; none when absent. */
  readonly auth?: AuthSetting;
  /** The tool catalog, written and checked with the rest of the output; none when absent. */
  readonly catalog?: DocsTarget;
  /** The warnings the config's `diagnostics.ignore` silences. */
  readonly ignore: readonly IgnoreRule[];
  /** The options of each target with a config section of its own (Target.config), by target name; only those configured. */
  readonly targets: Readonly<Record<string, unknown>>;
}
