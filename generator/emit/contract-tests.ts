/**
 * The generated contract tests, `<tool>.test.ts` in the tests folder: one vitest file per
 * tool that runs in the consumer's own CI and needs no handler. It proves, on
 * the shipped code, that the examples hold, that inputs the schema rejects
 * never reach a handler (each reported at the right path), that output the
 * schema rejects never reaches the caller, and that tools/list serves exactly
 * the compiled schemas. With `--handlers`, every example also runs through
 * the consumer's real handler.
 *
 * Every case is worked out here, at generation time, and verified with the
 * real Ajv. The generated file is data: one table of literal cases, handed to
 * the runtime's `runContractTests` (generator/runtime/contract-tests.ts), which
 * declares the vitest suites. toolc writes the text in its own fixed style, so
 * no formatter runs over it.
 */
import { posix } from "node:path";
import type { RunInTests } from "../core/plan.js";
import type { EmittedFile, ToolIR } from "../ir.js";
import { contractCases } from "./contract-tests/cases.js";
import { caseTable } from "./contract-tests/table.js";
import { generatedSpecifier } from "../printer/header.js";
import { code, FileBuilder, joinCode, valueSymbol, type ImportSymbol } from "../printer/file-builder.js";
import { runtimeValue } from "./runtime-symbols.js";
import { headerComment } from "../printer/header.js";
import { plainComment } from "../printer/literal.js";
import { toolFileName } from "./ts-names.js";

export interface ContractTestOptions {
  /**
   * The output folder as a posix path relative to the tests folder (default
   * "..", a `tests/` folder inside the output folder). Tests usually live
   * elsewhere, out of the folder the consumer's build compiles.
   */
  readonly outFromTests?: string;
  /** The consumer's handlers module, as a posix path relative to the tests folder. */
  readonly handlersModule?: string;
  /** The kinds of tool whose real handlers run too (config `runInTests`); by default a destructive or confirmed tool's never does. */
  readonly runInTests?: readonly RunInTests[];
}

export type { RunInTests };

/**
 * Why a tool's real handler does not run in its contract tests, or
 * undefined when it does: a destructive or confirmed tool's handler has
 * effects a test run must not cause unless the project says so.
 */
export function heldBack(tool: ToolIR, options: ContractTestOptions): string | undefined {
  if (options.handlersModule === undefined) return undefined;
  const allowed = options.runInTests ?? [];
  const kinds: RunInTests[] = [];
  if (tool.effect === "destructive" && !allowed.includes("destructive")) kinds.push("destructive");
  if (tool.confirm === true && !allowed.includes("confirmed")) kinds.push("confirmed");
  if (kinds.length === 0) return undefined;
  const what = kinds.length === 2 ? "destructive and confirmed" : kinds[0];
  return `${tool.name} is ${what}; list ${kinds.join(" and ")} in runInTests (toolc.config.yaml) to run its handler here`;
}

const TS_TO_JS: readonly [RegExp, string][] = [
  [/\.tsx?$/, ".js"],
  [/\.mts$/, ".mjs"],
  [/\.cts$/, ".cjs"],
];

/** A relative specifier: "./x" for a path that does not start with a dot. */
function relativeSpecifier(path: string): string {
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The handlers module as a test file imports it: relative to the tests
 * folder, with the extension Node's ESM resolution (and tsc's NodeNext) expects.
 */
export function handlersSpecifier(handlersModule: string): string {
  let specifier = posix.normalize(handlersModule);
  const mapped = TS_TO_JS.find(([pattern]) => pattern.test(specifier));
  if (mapped) specifier = specifier.replace(mapped[0], mapped[1]);
  else if (!/\.[cm]?js$/.test(specifier)) specifier += ".js";
  return relativeSpecifier(specifier);
}

/** The module specifier of a file in the generated folder, as a test file imports it. */
function outputSpecifier(options: ContractTestOptions, file: string): string {
  return generatedSpecifier(options.outFromTests ?? "..", file);
}

/** The generated index as a test file imports it. */
export function indexSpecifier(options: ContractTestOptions): string {
  return outputSpecifier(options, "index.js");
}

/** What a test file imports: the generated API under test (with the consumer's handlers), the runner and vitest. */
interface TestImports {
  readonly api: readonly ImportSymbol[];
  readonly runner: ImportSymbol;
  readonly vitest: readonly ImportSymbol[];
}

function testImports(options: ContractTestOptions): TestImports {
  const index = indexSpecifier(options);
  const handlers = options.handlersModule === undefined ? [] : [valueSymbol("handlers", handlersSpecifier(options.handlersModule))];
  return {
    api: [...["contracts", "execute", "createServer"].map((name) => valueSymbol(name, index)), ...handlers],
    runner: runtimeValue("contract-tests", "runContractTests", `${outputSpecifier(options, "")}/`),
    vitest: ["describe", "expect", "it"].map((name) => valueSymbol(name, "vitest")),
  };
}

/** The imports in the order a reader meets them: the API under test, the runner, the handlers, then vitest. */
function importInReadingOrder(file: FileBuilder, imports: TestImports): void {
  const [contracts, execute, createServer, ...handlers] = imports.api;
  for (const symbol of [contracts!, createServer!, execute!, imports.runner, ...handlers, ...imports.vitest]) file.use(symbol);
}

function fileComment(tool: ToolIR, options: ContractTestOptions): string {
  const lines = [
    `Contract tests for \`${tool.name}\` (version ${tool.version}), run by vitest. They need no handler:`,
    "a spy stands in for it. The cases were derived from the contract and checked with its",
    "validators when this file was generated; regenerate rather than edit.",
  ];
  if (options.handlersModule !== undefined) {
    const held = heldBack(tool, options);
    lines.push(
      held === undefined ? "Examples also run through the real handlers (generated with --handlers)." : `The real handler does not run here: ${held}.`,
    );
  }
  return plainComment(lines);
}

export function emitContractTests(tool: ToolIR, options: ContractTestOptions = {}): EmittedFile {
  const file = new FileBuilder(`${toolFileName(tool)}.test.ts`, headerComment(tool.source), { importOrder: "used" });
  const imports = testImports(options);
  importInReadingOrder(file, imports);
  // A test file declares nothing else, so every import keeps its name and shorthand properties hold.
  const call = code`${imports.runner}({ ${joinCode(imports.vitest, ", ")} }, { ${joinCode(imports.api, ", ")} }, ${caseTable(tool.name, contractCases(tool), heldBack(tool, options))});`;
  file.add(code`${fileComment(tool, options)}\n${call}`);
  return { path: file.path, root: "tests", text: file.toText() };
}
