/**
 * `toolc init`: sets up an existing npm project. It writes the config, an
 * example contract with a handler and a stdio server that compile against
 * it, the scripts and dependencies, and marks toolc's folders as generated
 * (.gitattributes) and as not the project's to format (.prettierignore).
 * It never overwrites a file: a second run changes nothing, and every run
 * says what it did and what it left alone.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { Io } from "../commands/io.js";
import { CONFIG_FILE } from "../config/load.js";
import { declaresVitest, DEFAULT_TESTS, resolveSettings, type McpSdkLine, type Settings } from "../config/settings.js";
import { mcpSdkLine } from "../config/mcp-sdk.js";
import { serverDefaults } from "../config/server-defaults.js";
import { formatDiagnostic } from "../diagnostics.js";
import { addLines, createIfAbsent, type Action, type NewFile } from "./files.js";
import { mergePackageJson, type PackageWants } from "./package-json.js";
import { configText, EXAMPLE_TOOL, EXAMPLE_VIEW, exampleContractText, exampleViewText, handlersText, serverText, tsconfigText } from "./templates.js";

/** Where a fresh setup puts things: the output inside src/, so builds with `rootDir: src` compile it. */
const FRESH = { definitions: "definitions", out: "src/generated", handlers: "src/handlers.ts", server: "src/server.ts" } as const;

const posix = (path: string): string => path.split(sep).join("/");

/** A relative module specifier from one file to another, with the .js extension NodeNext expects. */
function specifier(fromFile: string, toFile: string): string {
  const path = posix(relative(dirname(fromFile), toFile)).replace(/\.ts$/, ".js");
  return path.startsWith(".") ? path : `./${path}`;
}

/** The versions toolc is tested with, from its own package.json. */
function testedVersions(): Record<string, string> {
  const own = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Record<string, Record<string, string> | undefined>;
  return { ...own["devDependencies"], ...own["peerDependencies"], ...own["dependencies"] };
}

/** The run-time dependencies of each MCP SDK line's generated code. */
const SDK_PACKAGES: Record<McpSdkLine, readonly string[]> = {
  1: ["@modelcontextprotocol/sdk"],
  // The Node adapter is the SDK's own mount of its HTTP entry, which the generated http.ts uses.
  2: ["@modelcontextprotocol/server", "@modelcontextprotocol/client", "@modelcontextprotocol/node"],
};

/** Node's types for the Node that runs init, whatever toolc itself was tested with: @types/node's major follows Node's. */
export function nodeTypesRange(nodeVersion: string = process.versions.node): string {
  return `^${nodeVersion.split(".")[0]}`;
}

/** The newest TypeScript line toolc is tested with, as its own devDependencies name it (`npm:typescript@7.0.2`). */
function newestTypeScript(tested: Record<string, string>): string {
  const aliased = /^npm:typescript@(.+)$/.exec(tested["typescript-7"] ?? "")?.[1];
  return aliased ?? tested["typescript"] ?? "*";
}

function hasDependency(pkg: Record<string, unknown>, name: string): boolean {
  return ["dependencies", "devDependencies", "peerDependencies"].some((f) => {
    const deps = pkg[f];
    return deps !== null && typeof deps === "object" && Object.hasOwn(deps, name);
  });
}

function hasScript(pkg: Record<string, unknown>, name: string): boolean {
  const scripts = pkg["scripts"];
  return scripts !== null && typeof scripts === "object" && Object.hasOwn(scripts, name);
}

const CODE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * Whether the project has code of its own: a source file under src/ or the handlers' folder, or a
 * `main` entry that exists (`npm init -y` names index.js without creating it). The output folder
 * is toolc's, not the project's.
 */
function hasCode(root: string, pkg: Record<string, unknown>, settings: Settings): boolean {
  const main = pkg["main"];
  if (typeof main === "string" && existsSync(join(root, main))) return true;
  const folders = new Set([join(root, "src"), dirname(settings.handlers ?? join(root, FRESH.handlers))]);
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder, { recursive: true }).map(String);
    } catch {
      continue;
    }
    if (names.some((n) => CODE_FILE.test(n) && !join(folder, n).startsWith(settings.out + sep))) return true;
  }
  return false;
}

/** The ext-apps release the generated view wrappers are tested with (test/apps-runtimes pins it; test/cli/init-view.test.ts checks they agree). */
export const EXT_APPS_VERSION = "2.0.4";

function packageWants(line: McpSdkLine, pkg: Record<string, unknown>, esm: boolean, view: boolean): PackageWants {
  const tested = testedVersions();
  const version = (name: string): string => tested[name] ?? "*";
  // A project without a build gets tsc and the compiler; one with its own build keeps it, and needs neither.
  const startsBuild = !hasScript(pkg, "build");
  const compiler: Record<string, string> = startsBuild && !hasDependency(pkg, "typescript") ? { typescript: newestTypeScript(tested) } : {};
  return {
    scripts: { prebuild: "toolc generate", check: "toolc check" },
    ...(startsBuild ? { defaultScripts: { build: "tsc" } } : {}),
    // The generated validators are compiled ahead of time, so the SDK is the one run-time dependency.
    dependencies: Object.fromEntries(SDK_PACKAGES[line].map((name) => [name, version(name)])),
    // Node's types: the server starter and the generated HTTP entry use them.
    // A view's typed wrapper (views/<tool>.ts) imports the extension's App, which the project's tsc must find.
    devDependencies: { "@types/node": nodeTypesRange(), ...compiler, ...(view ? { "@modelcontextprotocol/ext-apps": EXT_APPS_VERSION } : {}) },
    esm,
  };
}

/** The deepest folder holding both `a` and `b`. */
function commonFolder(a: string, b: string): string {
  const left = a.split(sep);
  const right = b.split(sep);
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i++;
  return left.slice(0, i).join(sep) || sep;
}

/** tsconfig.json for `tsc`: rooted at the folder that holds the handlers, the server and the output, so dist/ mirrors it. */
function tsconfigFile(root: string, settings: Settings, handlers: string): NewFile {
  const sources = commonFolder(dirname(handlers), settings.out);
  const rel = (p: string): string => posix(relative(root, p)) || ".";
  const inside = sources.startsWith(root + sep);
  const include = inside ? [rel(sources)] : [rel(dirname(handlers)), rel(settings.out)];
  return { path: join(root, "tsconfig.json"), text: tsconfigText({ rootDir: inside ? rel(sources) : ".", include }) };
}

function hasContracts(dir: string): boolean {
  try {
    return readdirSync(dir, { recursive: true }).some((name) => /\.ya?ml$/.test(String(name)));
  } catch {
    return false;
  }
}

/** The settings init works with: the existing config's, or the fresh layout it is about to write. */
async function layout(root: string, io: Io): Promise<Settings | undefined> {
  if (!existsSync(join(root, CONFIG_FILE))) {
    return {
      root,
      definitions: join(root, FRESH.definitions),
      out: join(root, FRESH.out),
      handlers: join(root, FRESH.handlers),
      mcpSdk: mcpSdkLine(root),
      server: serverDefaults(root, undefined),
      providers: true,
      runInTests: [],
    };
  }
  const resolved = await resolveSettings(root, { config: CONFIG_FILE });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) io.err(`toolc init: ${resolved.usage}\n`);
  return resolved.settings;
}

/** The config, the example contract and the starters, as files to create where absent. */
function starterFiles(
  root: string,
  settings: Settings,
  pkg: Record<string, unknown>,
  options: InitOptions,
): { files: NewFile[]; skipped: Action[]; handlers: string | undefined } {
  const files: NewFile[] = [];
  const configPath = join(root, CONFIG_FILE);
  const handlers = settings.handlers ?? join(root, FRESH.handlers);
  const example = join(settings.definitions, `${EXAMPLE_TOOL}.yaml`);
  // The starters go with the example: a project with contracts of its own gets no handler for a tool it does not have.
  const withExample = !hasContracts(settings.definitions) || existsSync(example);
  const rel = (p: string): string => posix(relative(root, p));
  const configHandlers = withExample && !existsSync(handlers) ? { handlers: rel(handlers) } : {};
  files.push({
    path: configPath,
    text: configText({ definitions: rel(settings.definitions), out: rel(settings.out), ...configHandlers, mcpSdk: settings.mcpSdk }),
  });
  files.push(tsconfigFile(root, settings, handlers));
  if (!withExample) {
    const note = `${rel(settings.definitions)}/ already has contracts; write handlers for them (docs/runtime.md)`;
    return {
      files,
      skipped: [{ status: "skipped", path: settings.definitions, detail: `the example contract and the starters: ${note}` }],
      handlers: testedHandlers(root, settings, configHandlers),
    };
  }
  const schema = posix(relative(settings.definitions, join(root, "node_modules/toolc/schema/contract.schema.json")));
  files.push({ path: example, text: exampleContractText(schema, options.view) });
  // The view's HTML beside the contract that names it: without the contract, nothing would serve it.
  if (options.view && !existsSync(example)) files.push({ path: join(settings.definitions, EXAMPLE_VIEW), text: exampleViewText() });
  const index = join(settings.out, "index.ts");
  files.push({ path: handlers, text: handlersText(specifier(handlers, index)) });
  const server = join(dirname(handlers), "server.ts");
  const name = typeof pkg["name"] === "string" ? pkg["name"] : "tools";
  const version = typeof pkg["version"] === "string" ? pkg["version"] : "0.1.0";
  files.push({ path: server, text: serverText(specifier(server, index), specifier(server, handlers), name, version, settings.mcpSdk) });
  const kept: Action[] =
    options.view && existsSync(example)
      ? [{ status: "skipped", path: example, detail: "--view: the contract exists, so no view was added; add a ui: section by hand (docs/apps.md)" }]
      : [];
  return { files, skipped: kept, handlers: testedHandlers(root, settings, configHandlers) };
}

/** The handlers module the contract tests run, as the config names it (an existing config's, or the one init writes); undefined for none. */
function testedHandlers(root: string, settings: Settings, written: { handlers?: string }): string | undefined {
  if (existsSync(join(root, CONFIG_FILE))) return settings.handlers === undefined ? undefined : posix(relative(root, settings.handlers));
  return written.handlers;
}

/** toolc's folders as root-anchored patterns; folders outside the project are left out. */
function ownedFolders(root: string, settings: Settings): string[] {
  const tests = settings.tests ?? join(root, DEFAULT_TESTS);
  return [settings.out, tests].map((p) => posix(relative(root, p))).filter((p) => p !== "" && !p.startsWith(".."));
}

function updatePackageJson(path: string, wants: PackageWants): Action[] {
  const merged = mergePackageJson(readFileSync(path, "utf8"), wants);
  if (merged.text !== undefined) writeFileSync(path, merged.text);
  const added = merged.changes.filter((c) => c.added).map((c) => c.what);
  const left = merged.changes.filter((c) => !c.added).map((c): Action => ({ status: "kept", path, detail: c.what }));
  const own: Action =
    added.length > 0 ? { status: "updated", path, detail: added.join("; ") } : { status: "unchanged", path, detail: "has toolc's scripts and dependencies" };
  return [own, ...left];
}

/** toolc itself must be a devDependency, or prebuild's `toolc generate` and the `$schema` paths find nothing. */
function toolcDeclared(pkg: Record<string, unknown>, path: string): Action[] {
  return hasDependency(pkg, "toolc")
    ? []
    : [
        {
          status: "kept",
          path,
          detail:
            "toolc is not a devDependency: npm i -D PATH/toolc-0.1.0.tgz (packed from a clone: toolc is not on the registry yet), so prebuild and the $schema lines find it",
        },
      ];
}

function printActions(actions: readonly Action[], root: string, io: Io): void {
  for (const a of actions) io.out(`  ${a.status.padEnd(9)} ${posix(relative(root, a.path)) || "."}${a.detail === undefined ? "" : `: ${a.detail}`}\n`);
}

export interface InitOptions {
  /** `--view`: the example contract gets a minimal MCP Apps view (docs/apps.md). */
  readonly view: boolean;
}

export async function initCommand(root: string, io: Io, options: InitOptions = { view: false }): Promise<number> {
  const pkgPath = join(root, "package.json");
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as Record<string, unknown>;
  } catch (e) {
    const why = existsSync(pkgPath)
      ? `package.json is not valid JSON (${e instanceof Error ? e.message : String(e)})`
      : "no package.json here; run toolc init in your project's root (npm init creates one)";
    io.err(`toolc init: ${why}\n`);
    return 2;
  }
  const freshConfig = !existsSync(join(root, CONFIG_FILE));
  const settings = await layout(root, io);
  if (!settings) return (io.err("toolc init: fix toolc.config.yaml first; nothing was changed\n"), 1);
  const { files, skipped, handlers } = starterFiles(root, settings, pkg, options);
  // Decided before the starters are written: they are ES modules whatever the project's code is.
  const esm = !hasCode(root, pkg, settings);
  const actions: Action[] = [];
  for (const file of files) actions.push(await createIfAbsent(file));
  actions.push(...skipped, ...updatePackageJson(pkgPath, packageWants(settings.mcpSdk, pkg, esm, options.view)), ...toolcDeclared(pkg, pkgPath));
  const folders = ownedFolders(root, settings);
  actions.push(
    addLines(
      join(root, ".gitattributes"),
      folders.map((f) => `${f}/** linguist-generated=true`),
      "# Written by toolc: collapse its output in diffs and leave it out of language statistics",
    ),
  );
  actions.push(
    addLines(
      join(root, ".prettierignore"),
      folders.map((f) => `/${f}/`),
      "# toolc's output has toolc's own fixed format; `toolc check` keeps it exact",
    ),
  );
  const changed = actions.some((a) => a.status === "created" || a.status === "updated");
  io.out(changed ? "toolc init:\n" : "toolc init: nothing to do; the project is set up\n");
  printActions(actions, root, io);
  if (freshConfig && !declaresVitest(root)) {
    io.out(`Contract tests: off while vitest is not in package.json; after npm i -D vitest they go to ${DEFAULT_TESTS}/.\n`);
  }
  if (handlers !== undefined) {
    io.out(
      `Contract tests: they run every example through the real handlers in ${handlers} (the config's \`handlers\`), so those calls really happen; a destructive or confirmed tool's handler runs only when \`runInTests\` lists it (docs/contract-tests.md).\n`,
    );
  }
  if (changed) io.out("Next: npm install, then npm run build (prebuild runs toolc generate). In CI: npm run check.\n");
  return 0;
}
