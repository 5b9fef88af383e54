/**
 * Everything toolc writes compiles with every TypeScript version it supports
 * (5.9, 6.0, 7.0), under every strict flag consumers use, in ESM and
 * CommonJS packages, with NodeNext, Node16 and bundler resolution, and with
 * skipLibCheck on and off. One `tsc` program per version and configuration
 * covers all the fixture outputs at once, so the matrix stays fast: the demo
 * output, the same for MCP SDK 2.x, test/fixtures/billing, test/fixtures/content (content kinds,
 * `$schema`, icons; SDK 2.x), and a sample imported from the MCP
 * reference servers (whose open inputs once gave a contract test an unused
 * helper). A last test introduces strict-flag errors into a copy and checks
 * that the same programs report them.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importContracts } from "../../generator/import/index.js";
import { compile, type CompileTargets } from "../../generator/pipeline.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { ROOT } from "./helpers.js";
import { STRICTEST as CONSUMER_STRICTEST } from "../consumers/fixtures.js";

const run = promisify(execFile);

/** The strictest flags people use; every configuration below has all of them. */
const STRICTEST = { ...CONSUMER_STRICTEST, verbatimModuleSyntax: true } as const;

interface Configuration {
  readonly name: string;
  /** The package trees compiled: `esm` (package type module) and/or `cjs` (type commonjs). */
  readonly trees: readonly ("esm" | "cjs")[];
  readonly options: Record<string, unknown>;
  /** Leave out the generated vitest files (checking vitest's and vite's own declarations is most of a skipLibCheck-off run). */
  readonly withoutTests?: boolean;
  /** Leave out the Streamable HTTP entry (http.ts, runtime/http.ts and the SDK port's runtime/sdk-http.ts), the only Node-specific modules. */
  readonly withoutHttp?: boolean;
  /** Compile only these files (and what they import) instead of the whole trees. */
  readonly files?: readonly string[];
}

/**
 * With skipLibCheck off, the MCP SDK's own declarations need the DOM lib
 * (its transport types name `HeadersInit`), so those configurations have it,
 * as does TypeScript's default lib. A CommonJS package cannot have
 * verbatimModuleSyntax: it rejects every ES import or export in a CommonJS
 * .ts file (TS1287, TS1295), the consumer's own as much as toolc's.
 */
const CONFIGURATIONS: readonly Configuration[] = [
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
    // The HTTP entry brings in Node's types itself, so an HTTP server needs no `types` entry for it.
    name: "the HTTP entry on its own, NodeNext, no types listed",
    trees: ["esm"],
    files: ["esm/demo/http.ts"],
    options: { module: "NodeNext", moduleResolution: "NodeNext", types: [], skipLibCheck: true, noEmit: true },
  },
];

/** The folders compiled: each fixture's output, under each package tree. */
const FIXTURES = ["demo", "billing", "corpus", "sdk2", "content"] as const;

let root: string;

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
  const reference = join(ROOT, "../shared/corpus/mcp-reference-servers");
  for (const file of CORPUS_SAMPLE) {
    const result = importContracts({ source: join(reference, file), out: "definitions", cwd: work });
    if (result.problems.some((p) => p.severity === "error")) throw new Error(`import of ${file} failed`);
  }
  await writeOutput("definitions", work, into);
  rmSync(work, { recursive: true, force: true });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "toolc-tsc-matrix-"));
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
  const esm = join(root, "esm");
  cpSync(join(ROOT, "generated"), join(esm, "demo"), { recursive: true });
  await writeOutput(join(ROOT, "test/fixtures/billing"), ROOT, join(esm, "billing"));
  await corpusOutput(join(esm, "corpus"));
  // The demo for MCP SDK 2.x, with its contract tests (which use that line's client).
  await writeOutput("definitions", ROOT, join(esm, "sdk2"), { mcpSdk: 2, tests: "generated/tests" });
  // Content kinds, $schema and icons, for MCP SDK 2.x, with the contract tests that attach blocks.
  await writeOutput(join(ROOT, "test/fixtures/content"), ROOT, join(esm, "content"), { mcpSdk: 2, tests: "generated/tests" });
  writeFileSync(join(esm, "package.json"), '{ "type": "module" }\n');
  cpSync(esm, join(root, "cjs"), { recursive: true });
  writeFileSync(join(root, "cjs", "package.json"), '{ "type": "commonjs" }\n');
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs one tsc program over `trees` under `base`; returns its diagnostics ("" when clean). */
async function tsc(bin: string, base: string, config: Configuration, label: string): Promise<string> {
  const tsconfig = join(base, `tsconfig.${label}.json`);
  const compilerOptions = { target: "ES2022", lib: ["ES2023"], ...STRICTEST, ...config.options, rootDir: base, outDir: join(base, `out.${label}`) };
  const include = config.trees.flatMap((tree) => FIXTURES.map((fixture) => `${tree}/${fixture}/**/*.ts`));
  const exclude = [...(config.withoutTests ? ["**/tests/**"] : []), ...(config.withoutHttp ? ["**/http.ts", "**/sdk-http.ts"] : [])];
  const inputs = config.files === undefined ? { include, exclude } : { files: config.files };
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions, ...inputs }));
  try {
    await run(process.execPath, [bin, "-p", tsconfig, "--pretty", "false"], { cwd: base, maxBuffer: 64 * 1024 * 1024 });
    return "";
  } catch (e) {
    return String((e as { stdout?: string }).stdout || e);
  }
}

describe.each(TYPESCRIPTS)("TypeScript $version", ({ version, bin }) => {
  it.each(CONFIGURATIONS.map((c, i) => [c.name, i] as const))("compiles every fixture output: %s", async (_, i) => {
    const config = CONFIGURATIONS[i] as Configuration;
    expect(await tsc(bin, root, config, `${version}.${i}`)).toBe("");
  }, 180_000);
});

/** Edits that each break one strict flag, made in a copy of the demo output. */
const BREAKAGES = [
  { code: "TS1294", file: "runtime/json.ts", add: "export class Parameter { constructor(readonly x: number) {} }\n" },
  { code: "TS6133", file: "runtime/dispatch.ts", add: "function unusedHelper(): void {}\n" },
  { code: "TS2532", file: "runtime/policy.ts", add: "export function first(xs: number[]): number { return xs[0] + 1; }\n" },
  { code: "TS4111", file: "runtime/wire.ts", add: "export function read(r: Record<string, number>): number | undefined { return r.key; }\n" },
  { code: "TS1484", file: "index.ts", add: 'import { ToolName as Name } from "./index.js";\nexport const names: Name[] = [];\n' },
];

describe("the matrix fails when generated code breaks a strict flag or needs Node", () => {
  it.each(TYPESCRIPTS.filter((t) => t.version !== "6.0"))("TypeScript $version reports each breakage", async ({ version, bin }) => {
    const base = mkdtempSync(join(tmpdir(), "toolc-tsc-broken-"));
    symlinkSync(join(ROOT, "node_modules"), join(base, "node_modules"), "dir");
    for (const fixture of FIXTURES) cpSync(join(root, "esm", fixture), join(base, "esm", fixture), { recursive: true });
    writeFileSync(join(base, "esm", "package.json"), '{ "type": "module" }\n');
    for (const b of BREAKAGES) {
      const path = join(base, "esm", "demo", b.file);
      writeFileSync(path, readFileSync(path, "utf8") + b.add);
    }
    const output = await tsc(bin, base, { ...(CONFIGURATIONS[0] as Configuration), trees: ["esm"] }, version);
    for (const b of BREAKAGES) expect(output).toContain(`esm/demo/${b.file}`);
    for (const b of BREAKAGES) expect(output).toContain(`error ${b.code}`);
    // A Node global outside the HTTP entry fails the configuration without Node's types.
    writeFileSync(join(base, "esm", "demo", "runtime", "errors.ts"), readFileSync(join(base, "esm", "demo", "runtime", "errors.ts"), "utf8") + "export const env = process.env;\n");
    const withoutNode = CONFIGURATIONS.find((c) => c.withoutHttp) as Configuration;
    expect(await tsc(bin, base, withoutNode, `${version}.browser`)).toMatch(/esm\/demo\/runtime\/errors\.ts\(\d+,\d+\): error TS\d+: Cannot find name 'process'/);
    // Without its reference directive, the HTTP entry needs a `types` entry after all.
    const http = join(base, "esm", "demo", "http.ts");
    writeFileSync(http, readFileSync(http, "utf8").replace('/// <reference types="node" />', ""));
    const httpAlone = CONFIGURATIONS.find((c) => c.files !== undefined) as Configuration;
    expect(await tsc(bin, base, httpAlone, `${version}.http`)).toMatch(/esm\/demo\/http\.ts\(\d+,\d+\): error TS\d+: Cannot find (name|module) 'node:http'/);
    rmSync(base, { recursive: true, force: true });
  }, 180_000);
});
