/**
 * The consumer matrix: every fixture output under every TypeScript version
 * and every configuration consumers use (ESM and CommonJS packages;
 * NodeNext, Node16 and bundler resolution; skipLibCheck on and off). The
 * fixtures are the demo output, the same for MCP SDK 2.x, test/fixtures/
 * billing, test/fixtures/content (content kinds, `$schema`, icons; SDK 2.x),
 * test/fixtures/outputs (outputs that are an array, a string and a union,
 * with their contract tests), test/fixtures/auth (scopes, a confirmed tool
 * and the resource server, whose runtime/auth.ts imports jose; SDK 2.x),
 * a sample imported from the MCP reference servers (whose open
 * inputs once gave a contract test an unused helper), and billing with its
 * tools' code grouped (`toolsPerChunk: 2`, with validators two tools
 * share). Copies of the demo output with strict-flag errors, a Node
 * global and a missing reference directive go into the same programs, so
 * each program shows it can fail.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { resolveSettings } from "../../generator/config/settings.js";
import { importContracts } from "../../generator/import/index.js";
import { compile, type CompileTargets } from "../../generator/pipeline/run.js";
import { STRICTEST } from "../helpers/typescripts.js";
import type { TscCheck, TscProgram } from "./programs.js";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface Configuration {
  readonly name: string;
  /** The package trees compiled: `esm` (package type module) and/or `cjs` (type commonjs). */
  readonly trees: readonly ("esm" | "cjs")[];
  readonly options: Record<string, unknown>;
  /** Leave out the generated vitest files (checking vitest's and vite's own declarations is most of a skipLibCheck-off run). */
  readonly withoutTests?: boolean;
  /** Leave out the Streamable HTTP entry (http.ts, runtime/http.ts, its Host/Origin checks runtime/http-guard.ts, and the SDK port's runtime/sdk-http.ts), the only Node-specific modules. */
  readonly withoutHttp?: boolean;
  /** Compile only this file of each fixture (and what it imports) instead of the whole trees. */
  readonly entry?: string;
  /** Only these fixtures (default: all). */
  readonly fixtures?: readonly Fixture[];
  /**
   * Leave the view wrappers (views/<tool>.ts) out of the CommonJS tree: they import the extension's
   * ES-module-only package, which a CommonJS file under module node16 cannot import (TS1479; nodenext can).
   * A view is browser code, built as an ES module (docs/apps.md).
   */
  readonly withoutCjsViews?: boolean;
}

/**
 * With skipLibCheck off, the MCP SDK's own declarations need the DOM lib
 * (its transport types name `HeadersInit`), so those configurations have it,
 * as does TypeScript's default lib. A CommonJS package cannot have
 * verbatimModuleSyntax: it rejects every ES import or export in a CommonJS
 * .ts file (TS1287, TS1295), the consumer's own as much as toolc's.
 */
export const CONFIGURATIONS: readonly Configuration[] = [
  {
    name: "NodeNext, ESM package, skipLibCheck off, declarations emitted",
    trees: ["esm"],
    withoutTests: true,
    options: { module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM"], skipLibCheck: false, declaration: true, emitDeclarationOnly: true, types: ["node"] },
  },
  {
    name: "NodeNext, CommonJS package, skipLibCheck off, declarations emitted",
    trees: ["cjs"],
    withoutTests: true,
    options: { module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM"], skipLibCheck: false, declaration: true, emitDeclarationOnly: true, types: ["node"], verbatimModuleSyntax: false },
  },
  {
    // One program for both packages, so without verbatimModuleSyntax (the NodeNext ESM program has it).
    name: "Node16, ESM and CommonJS packages, vitest files included, skipLibCheck on",
    trees: ["esm", "cjs"],
    withoutCjsViews: true,
    options: { module: "Node16", moduleResolution: "Node16", skipLibCheck: true, noEmit: true, types: ["node"], verbatimModuleSyntax: false },
  },
  {
    // No `types`, so no @types package is loaded, as for a browser bundle: the API, contracts,
    // validators and runtime must not need Node. Only the HTTP entry (which references Node's
    // types itself) and the vitest files (whose declarations reference them) are left out.
    name: "bundler resolution, DOM lib, no Node types, skipLibCheck on",
    trees: ["esm"],
    withoutTests: true,
    withoutHttp: true,
    options: { module: "ESNext", moduleResolution: "bundler", lib: ["ES2023", "DOM"], types: [], skipLibCheck: true, noEmit: true },
  },
  {
    // The HTTP entry brings in Node's types itself, so an HTTP server needs no `types` entry for it. The
    // reference directive that does it counts for the whole program, so this one holds one HTTP entry.
    name: "the HTTP entry on its own, NodeNext, no types listed",
    trees: ["esm"],
    entry: "http.ts",
    fixtures: ["demo"],
    options: { module: "NodeNext", moduleResolution: "NodeNext", types: [], skipLibCheck: true, noEmit: true },
  },
];

/** The folders compiled: each fixture's output, under each package tree. */
export const FIXTURES = ["demo", "billing", "corpus", "sdk2", "content", "outputs", "auth", "grouped"] as const;

export type Fixture = (typeof FIXTURES)[number];

/** Edits that each break one strict flag, made in a copy of the demo output. */
export const BREAKAGES = [
  { code: "TS1294", file: "runtime/json.ts", add: "export class Parameter { constructor(readonly x: number) {} }\n" },
  { code: "TS6133", file: "runtime/dispatch.ts", add: "function unusedHelper(): void {}\n" },
  { code: "TS2532", file: "runtime/policy.ts", add: "export function first(xs: number[]): number { return xs[0] + 1; }\n" },
  { code: "TS4111", file: "runtime/wire.ts", add: "export function read(r: Record<string, number>): number | undefined { return r.key; }\n" },
  { code: "TS1484", file: "index.ts", add: 'import { ToolName as Name } from "./index.js";\nexport const names: Name[] = [];\n' },
];

interface Broken {
  /** The configuration that must catch it. */
  readonly configuration: number;
  /** In a program of its own (with that configuration's options), when the fixtures' files would hide the error. */
  readonly ownProgram?: boolean;
  readonly edit: (demo: string) => void;
}

/**
 * The broken copies of the demo output: strict-flag errors (caught by the
 * NodeNext ESM program), a Node global outside the HTTP entry (the program
 * without Node's types), and the HTTP entry without its reference directive
 * (the configuration that has no `types`, in a program of its own, since the
 * clean HTTP entry's directive would bring in Node's types for it).
 */
export const BROKEN = {
  strict: { configuration: 0, edit: (demo) => BREAKAGES.forEach((b) => append(join(demo, b.file), b.add)) },
  nodeGlobal: { configuration: 3, edit: (demo) => append(join(demo, "runtime/errors.ts"), "export const env = process.env;\n") },
  httpReference: {
    configuration: 4,
    ownProgram: true,
    edit: (demo) => writeFileSync(join(demo, "http.ts"), readFileSync(join(demo, "http.ts"), "utf8").replace('/// <reference types="node" />', "")),
  },
} satisfies Record<string, Broken>;

export type BrokenCopy = keyof typeof BROKEN;

/** The program a broken copy is in, and its check there. */
export function brokenCheck(name: BrokenCopy): { program: string; check: string } {
  const broken: Broken = BROKEN[name];
  return { program: `matrix${broken.configuration}${broken.ownProgram ? `.${name}` : ""}`, check: `broken/${name}` };
}

function append(path: string, text: string): void {
  writeFileSync(path, readFileSync(path, "utf8") + text);
}

async function writeOutput(definitions: string, cwd: string, into: string, targets: CompileTargets = {}): Promise<void> {
  const compiled = await compile(definitions, "generated", cwd, targets);
  const errors = compiled.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || compiled.files === undefined) throw new Error(`compile failed: ${JSON.stringify(errors)}`);
  for (const file of compiled.files) {
    const path = join(into, file.root === "tests" ? "tests" : "", file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
}

/**
 * Two of the reference servers' tool sets (14 tools, several with open
 * inputs and no invalid examples), imported as a consumer would with
 * `toolc import`, then compiled.
 */
const CORPUS_SAMPLE = ["server-everything.tools.json", "server-sequential-thinking.tools.json"];

async function corpusOutput(into: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "toolc-tsc-corpus-"));
  const reference = join(ROOT, "test/corpus/mcp-reference-servers");
  for (const file of CORPUS_SAMPLE) {
    const result = importContracts({ source: join(reference, file), out: "definitions", cwd: work });
    if (result.problems.some((p) => p.severity === "error")) throw new Error(`import of ${file} failed`);
  }
  await writeOutput("definitions", work, into);
  rmSync(work, { recursive: true, force: true });
}

/**
 * Billing with its tools' code grouped two to a module (toolsPerChunk: 2): the contracts' loaders call a group
 * module's functions. A twin of list-invoices (the same schemas) makes its validators shared: the group functions
 * that load them from chunks/shared-<n>.ts are async.
 */
async function groupedOutput(base: string, into: string): Promise<void> {
  const definitions = join(base, "grouped-definitions");
  cpSync(join(ROOT, "test/fixtures/billing"), definitions, { recursive: true });
  const listInvoices = readFileSync(join(definitions, "list_invoices.yaml"), "utf8");
  writeFileSync(join(definitions, "list_archived_invoices.yaml"), listInvoices.replace("name: billing.list-invoices", "name: billing.list-archived-invoices"));
  await writeOutput(definitions, ROOT, into, { targets: { mcp: 2 } });
  if (!readdirSync(join(into, "chunks")).some((f) => /^shared-\d+\.ts$/.test(f))) throw new Error("the grouped fixture has no shared validators");
}

/** Writes the fixture trees (esm/, cjs/) and the broken copies (broken/<name>/esm/demo) under `base`. */
export async function writeMatrixFixtures(base: string): Promise<void> {
  const esm = join(base, "esm");
  cpSync(join(ROOT, "generated"), join(esm, "demo"), { recursive: true });
  await writeOutput(join(ROOT, "test/fixtures/billing"), ROOT, join(esm, "billing"));
  await corpusOutput(join(esm, "corpus"));
  // The demo for MCP SDK 2.x, with its contract tests (which use that line's client).
  await writeOutput("definitions", ROOT, join(esm, "sdk2"), { mcpSdk: 2, tests: "generated/tests" });
  await writeOutput(join(ROOT, "test/fixtures/content"), ROOT, join(esm, "content"), { mcpSdk: 2, tests: "generated/tests" });
  await writeOutput(join(ROOT, "test/fixtures/outputs"), ROOT, join(esm, "outputs"), { tests: "generated/tests" });
  // The OAuth resource server and confirmed calls: runtime/auth.ts and the auth entry of http.ts, which import jose.
  const auth = (await resolveSettings(join(ROOT, "test/fixtures/auth"), {})).settings?.auth;
  if (auth === undefined) throw new Error("test/fixtures/auth/toolc.config.yaml has no auth section");
  await writeOutput(join(ROOT, "test/fixtures/auth/definitions"), ROOT, join(esm, "auth"), { mcpSdk: 2, auth });
  await groupedOutput(base, join(esm, "grouped"));
  writeFileSync(join(esm, "package.json"), '{ "type": "module" }\n');
  cpSync(esm, join(base, "cjs"), { recursive: true });
  writeFileSync(join(base, "cjs", "package.json"), '{ "type": "commonjs" }\n');
  for (const [name, broken] of Object.entries(BROKEN)) {
    const tree = join(base, "broken", name, "esm");
    cpSync(join(esm, "demo"), join(tree, "demo"), { recursive: true });
    writeFileSync(join(tree, "package.json"), '{ "type": "module" }\n');
    broken.edit(join(tree, "demo"));
  }
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The root files of one fixture folder (in package tree `tree`) under a configuration. */
function rootFiles(folder: string, config: Configuration, tree: "esm" | "cjs"): string[] {
  if (config.entry !== undefined) return [join(folder, config.entry)];
  // Only the Node adapter (http.ts, and runtime/http.ts) needs Node: the border, the fetch entry and the SDK ports do not.
  const http = new Set(["http.ts"]);
  return tsFiles(folder).filter((file) => {
    const parts = relative(folder, file).split("/");
    if (config.withoutTests && parts.includes("tests")) return false;
    if (config.withoutCjsViews && tree === "cjs" && parts[0] === "views" && parts.length > 1) return false;
    return !(config.withoutHttp && http.has(parts.at(-1) as string));
  });
}

/** The check name of a fixture folder in a tree, as tests look it up. */
export function matrixCheck(tree: string, fixture: string): string {
  return `${tree}/${fixture}`;
}

/** One program per configuration, over every fixture folder and the broken copies it must catch (a few in programs of their own). */
export function matrixPrograms(base: string): TscProgram[] {
  const programs = new Map<string, TscProgram>();
  CONFIGURATIONS.forEach((config, i) => {
    const checks: TscCheck[] = config.trees.flatMap((tree) =>
      (config.fixtures ?? FIXTURES).map((fixture) => {
        const folder = join(base, tree, fixture);
        return { name: matrixCheck(tree, fixture), files: rootFiles(folder, config, tree), owns: [folder] };
      }),
    );
    const options = { target: "ES2022", lib: ["ES2023"], ...STRICTEST, ...config.options, rootDir: base };
    programs.set(`matrix${i}`, { name: `matrix${i}`, options, checks, base });
    for (const name of Object.keys(BROKEN) as BrokenCopy[]) {
      if (BROKEN[name].configuration !== i) continue;
      const folder = join(base, "broken", name, "esm", "demo");
      const { program, check } = brokenCheck(name);
      const into = programs.get(program) ?? { name: program, options, checks: [], base };
      programs.set(program, { ...into, checks: [...into.checks, { name: check, files: rootFiles(folder, config, "esm"), owns: [folder] }] });
    }
  });
  return [...programs.values()];
}
