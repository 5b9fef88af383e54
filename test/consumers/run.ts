/**
 * The consumer matrix: toolc as a user gets it. The packed tarball is
 * installed once into a scratch base (with the SDK, TypeScript 5.9, 6 and 7,
 * esbuild, tsx and vitest linked from this repository's lockfile-pinned
 * node_modules, so nothing is downloaded), and several projects share that
 * base. Each generates, builds its own way, then starts the built server
 * on every Node.js people run (the 20 that runs toolc, then 22, 24 and 26
 * from test/node-runtimes) and calls it over stdio with the SDK's real
 * `Client`: a valid call returns data, an invalid one INVALID_INPUT at the
 * right path, and a transient failure is retried. The projects with contract
 * tests also run `toolc check` on each of them.
 *
 *   npm run runtimes && npm run test:consumers     (KEEP=1 keeps the scratch folder)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { nodeRuntimes, type NodeRuntime } from "../helpers/node-runtimes.js";
import { exerciseServer } from "./client.js";
import { CONTRACT, HANDLERS, serverSource, STRICTEST } from "./fixtures.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const OWN_VERSIONS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;

/**
 * How every project runs toolc, as the README says: `toolc init` (which
 * leaves the handlers and server written here alone, since the project has a
 * contract already), then `toolc generate` as its prebuild would.
 */
const TOOLC_STEPS: readonly (readonly string[])[] = [["init"], ["generate"]];

/** Where init's config puts the contract tests when vitest is a dependency. */
const CONTRACT_TESTS = "test/toolc";

/** Linked into the base besides toolc's own dependencies: what the projects build, run and test with. */
const TOOLING = ["@modelcontextprotocol/sdk", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "@modelcontextprotocol/core", "@modelcontextprotocol/node", "hono", "@hono/node-server", "@types/node", "typescript", "typescript-6", "typescript-7", "esbuild", "tsx", "vitest"];

interface Project {
  readonly name: string;
  readonly packageType: "module" | "commonjs";
  readonly tsconfig: Record<string, unknown>;
  /** Commands after toolc's, each node's arguments (a package's bin and its own), run in the project. */
  readonly build: readonly (readonly string[])[];
  /** How to start the server: node arguments, relative to the project. */
  readonly serve: readonly string[];
  /**
   * A project with vitest as a devDependency (so init turns contract tests on)
   * and a .prettierrc of its own: it also runs the contract tests, `prettier
   * --check .`, and `toolc check` before and after a hand edit of the output.
   */
  readonly vitest?: boolean;
  /**
   * The MCP SDK line: 1 declares \`@modelcontextprotocol/sdk\` in package.json
   * before init, so toolc picks line 1 from it; 2 declares no SDK, so init
   * picks line 2 and adds its packages. Its server starts on that line's
   * stdio transport and is called by that line's client.
   */
  readonly sdk: 1 | 2;
}

const TSC_5_9 = "node_modules/typescript/bin/tsc";
const TSC_6 = "node_modules/typescript-6/bin/tsc";
const TSC_7 = "node_modules/typescript-7/bin/tsc";

/**
 * esbuild through its JS API (its `bin` is a native executable or a JS shim,
 * depending on whether its install script ran). The dependencies stay
 * external, as in most server bundles; the generated code, validators
 * included, is bundled.
 */
const ESBUILD_BUNDLE = `import { build } from "esbuild";
await build({ entryPoints: ["src/server.ts"], bundle: true, platform: "node", format: "esm", packages: "external", outfile: "dist/server.js", logLevel: "warning" });`;

const PROJECTS: readonly Project[] = [
  {
    name: "esm-nodenext-ts7",
    packageType: "module",
    tsconfig: {
      compilerOptions: { ...STRICTEST, verbatimModuleSyntax: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", types: ["node"], skipLibCheck: false, declaration: true, rootDir: "src", outDir: "dist" },
      include: ["src"],
    },
    build: [[TSC_7, "-p", "."]],
    serve: ["dist/server.js"],
    vitest: true,
    sdk: 1,
  },
  {
    // verbatimModuleSyntax is off: in a CommonJS package it rejects every ES import in a .ts file.
    name: "cjs-node16-ts6",
    packageType: "commonjs",
    tsconfig: {
      compilerOptions: { ...STRICTEST, target: "ES2022", module: "Node16", moduleResolution: "Node16", types: ["node"], skipLibCheck: true, rootDir: "src", outDir: "dist" },
      include: ["src"],
    },
    build: [[TSC_6, "-p", "."]],
    serve: ["dist/server.js"],
    sdk: 1,
  },
  {
    name: "esm-bundler-ts5.9-esbuild",
    packageType: "module",
    tsconfig: {
      compilerOptions: { ...STRICTEST, verbatimModuleSyntax: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", types: ["node"], skipLibCheck: true, noEmit: true },
      include: ["src"],
    },
    build: [
      [TSC_5_9, "-p", "."],
      ["--input-type=module", "-e", ESBUILD_BUNDLE],
    ],
    serve: ["dist/server.js"],
    sdk: 1,
  },
  {
    name: "esm-tsx",
    packageType: "module",
    tsconfig: {
      compilerOptions: { ...STRICTEST, verbatimModuleSyntax: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", types: ["node"], skipLibCheck: true, noEmit: true },
      include: ["src"],
    },
    build: [],
    serve: ["node_modules/tsx/dist/cli.mjs", "src/server.ts"],
    sdk: 1,
  },
  {
    // MCP SDK 2.x, chosen by init because package.json names no SDK; contract tests on, so they run with that line's client.
    name: "esm-nodenext-ts5.9-sdk2",
    packageType: "module",
    tsconfig: {
      compilerOptions: { ...STRICTEST, verbatimModuleSyntax: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", types: ["node"], skipLibCheck: true, rootDir: "src", outDir: "dist" },
      include: ["src"],
    },
    build: [[TSC_5_9, "-p", "."]],
    serve: ["dist/server.js"],
    vitest: true,
    sdk: 2,
  },
];

function step(label: string, run: () => void): void {
  const start = Date.now();
  run();
  console.log(`  ok  ${label} (${Date.now() - start} ms)`);
}

function node(cwd: string, args: readonly string[], bin = process.execPath): void {
  try {
    execFileSync(bin, [...args], { cwd, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${bin} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/** `npm pack` of this repository (its prepack script builds dist/ first); returns the tarball path. */
function pack(into: string): string {
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", into], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(out) as { filename: string }[];
  if (info === undefined) throw new Error("npm pack reported no tarball");
  return join(into, info.filename);
}

function link(base: string, name: string): void {
  const target = join(base, "node_modules", name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(ROOT, "node_modules", name), target, "dir");
}

/** Scripts npm runs in a package a consumer installs (from the registry, a tarball, a folder or git): the tarball ships none. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

function assertNoInstallScripts(scripts: Record<string, string>): void {
  const found = INSTALL_SCRIPTS.filter((name) => Object.hasOwn(scripts, name));
  if (found.length > 0) throw new Error(`the packed package.json has install-time scripts a consumer would run: ${found.join(", ")}`);
}

/** The tarball unpacked as node_modules/toolc, its dependencies and the tooling linked beside it, and its bin. */
function installBase(base: string, tarball: string): void {
  const toolc = join(base, "node_modules", "toolc");
  mkdirSync(toolc, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", toolc, "--strip-components=1"]);
  const manifest = JSON.parse(readFileSync(join(toolc, "package.json"), "utf8")) as { dependencies?: Record<string, string>; scripts?: Record<string, string> };
  assertNoInstallScripts(manifest.scripts ?? {});
  for (const name of new Set([...Object.keys(manifest.dependencies ?? {}), ...TOOLING])) link(base, name);
  mkdirSync(join(base, "node_modules", ".bin"));
  symlinkSync("../toolc/bin/toolc.js", join(base, "node_modules", ".bin", "toolc"));
}

function writeProject(dir: string, base: string, project: Project): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "definitions"));
  symlinkSync(join(base, "node_modules"), join(dir, "node_modules"), "dir");
  const devDependencies = project.vitest ? { devDependencies: { vitest: OWN_VERSIONS["vitest"] ?? "*" } } : {};
  const dependencies = project.sdk === 1 ? { dependencies: { "@modelcontextprotocol/sdk": OWN_VERSIONS["@modelcontextprotocol/sdk"] ?? "*" } } : {};
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: project.name, private: true, type: project.packageType, ...dependencies, ...devDependencies }, null, 2)}\n`);
  if (project.vitest) writeFileSync(join(dir, ".prettierrc.json"), `${JSON.stringify({ semi: false, singleQuote: true, useTabs: true })}\n`);
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(project.tsconfig, null, 2)}\n`);
  writeFileSync(join(dir, "definitions", "lookup_item.yaml"), CONTRACT);
  writeFileSync(join(dir, "src", "handlers.ts"), HANDLERS);
  writeFileSync(join(dir, "src", "server.ts"), serverSource(project.sdk));
}

/** `typescript-7 -p .`, `esbuild bundle`: a build command as a person would name it. */
function buildLabel(args: readonly string[]): string {
  if (args.includes(ESBUILD_BUNDLE)) return "esbuild bundle";
  return args.join(" ").replace(/^node_modules\/(\S+?)\/\S*/, "$1");
}

async function runProject(root: string, base: string, project: Project, runtimes: readonly NodeRuntime[]): Promise<void> {
  console.log(project.name);
  const dir = join(root, project.name);
  writeProject(dir, base, project);
  for (const args of TOOLC_STEPS) step(`toolc ${args.join(" ")}`, () => node(dir, ["node_modules/.bin/toolc", ...args]));
  for (const args of project.build) step(buildLabel(args), () => node(dir, args));
  assertSdkLine(dir, project.sdk);
  for (const runtime of runtimes) {
    const start = Date.now();
    await exerciseServer(dir, project.serve, project.sdk, runtime.bin);
    console.log(`  ok  server on Node.js ${runtime.version} over stdio, ${project.sdk === 1 ? "SDK 1 client (2025-11-25)" : "SDK 2 clients on MCP 2026-07-28 and 2025-11-25"}: valid call, INVALID_INPUT at qty, transient failure retried (${Date.now() - start} ms)`);
  }
  if (project.vitest) checkAsCi(dir, runtimes);
}

/** The output targets the project's SDK line and imports nothing from the other; init pinned the line in the config. */
function assertSdkLine(dir: string, sdk: 1 | 2): void {
  const port = readFileSync(join(dir, "src/generated/runtime/sdk.ts"), "utf8");
  const other = sdk === 1 ? /from "@modelcontextprotocol\/(server|client|core)/ : /from "@modelcontextprotocol\/sdk/;
  if (other.test(port) || !readFileSync(join(dir, "toolc.config.yaml"), "utf8").includes(`mcp: { sdk: ${sdk} }`)) {
    throw new Error(`${dir}: expected output and config for MCP SDK ${sdk}`);
  }
}

/** What the project's CI would run besides its build: the contract tests, prettier, and toolc check (which must notice a hand edit). */
function checkAsCi(dir: string, runtimes: readonly NodeRuntime[]): void {
  step(`vitest run ${CONTRACT_TESTS}`, () => node(dir, ["node_modules/vitest/vitest.mjs", "run", CONTRACT_TESTS]));
  // The project formats its own files its own way; what init listed in .prettierignore is left alone.
  writeFileSync(join(dir, ".gitignore"), "node_modules/\ndist/\n");
  step("prettier --write . (the project's own .prettierrc)", () => node(dir, ["node_modules/prettier/bin/prettier.cjs", "--write", "."]));
  step("prettier --check .", () => node(dir, ["node_modules/prettier/bin/prettier.cjs", "--check", "."]));
  for (const { version, bin } of runtimes) step(`toolc check on Node.js ${version}`, () => node(dir, ["node_modules/.bin/toolc", "check"], bin));
  const edited = join(dir, "src/generated/index.ts");
  writeFileSync(edited, `${readFileSync(edited, "utf8")}// edited by hand\n`);
  step("toolc check fails after a hand edit", () => {
    try {
      node(dir, ["node_modules/.bin/toolc", "check"]);
    } catch (e) {
      if (String(e).includes("src/generated/index.ts")) return;
      throw e;
    }
    throw new Error("toolc check passed after a hand edit of src/generated/index.ts");
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "toolc-consumers-"));
  const base = join(root, "base");
  let failed = true;
  try {
    const runtimes = nodeRuntimes();
    console.log(`Node.js ${runtimes.map((r) => r.version).join(", ")}`);
    let tarball = "";
    step("npm pack", () => (tarball = pack(root)));
    step("install the tarball into the shared base", () => installBase(base, tarball));
    for (const project of PROJECTS) await runProject(root, base, project, runtimes);
    failed = false;
    console.log(`consumer matrix: ${PROJECTS.length} projects passed`);
  } finally {
    if (process.env.KEEP || failed) console.log(`scratch folder kept: ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
