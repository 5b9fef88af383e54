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
 * real Ajv; the generated file holds only literal tables and the loops over them.
 */
import { posix } from "node:path";
import type { EmittedFile, ToolIR } from "../ir.js";
import { type ContractCases, contractCases } from "./contract-tests/cases.js";
import {
  badOutputsBlock,
  caseTables,
  DECLARED,
  examplesBlock,
  helpers,
  negativesBlock,
  realHandlersBlock,
  toolConstants,
  toolsListBlock,
  type Names,
} from "./contract-tests/sections.js";
import { FileBuilder } from "./file-builder.js";
import { headerComment } from "./header.js";
import { literal } from "./literal.js";

export interface ContractTestOptions {
  /**
   * The output folder as a posix path relative to the tests folder (default
   * "..", a `tests/` folder inside the output folder). Tests usually live
   * elsewhere, out of the folder the consumer's build compiles.
   */
  readonly outFromTests?: string;
  /** The consumer's handlers module, as a posix path relative to the tests folder. */
  readonly handlersModule?: string;
  /** The MCP SDK line whose Client and in-memory transport the tests use; 1 when absent. */
  readonly mcpSdk?: 1 | 2;
}

/** Where each SDK line keeps the client and the in-memory transport. */
const SDK_MODULES = {
  1: { Client: "@modelcontextprotocol/sdk/client/index.js", InMemoryTransport: "@modelcontextprotocol/sdk/inMemory.js" },
  2: { Client: "@modelcontextprotocol/client", InMemoryTransport: "@modelcontextprotocol/client" },
} as const;

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

/** The generated index as a test file imports it. */
export function indexSpecifier(options: ContractTestOptions): string {
  return relativeSpecifier(posix.join(options.outFromTests ?? "..", "index.js"));
}

/** Whether a block validates directly (not through execute): inputs without an output, and --handlers' output check. */
function validatesDirectly(cases: ContractCases, options: ContractTestOptions): boolean {
  if (cases.validInputOnly.length > 0) return true;
  return options.handlersModule !== undefined && cases.valid.length > 0;
}

function importNames(file: FileBuilder, options: ContractTestOptions, cases: ContractCases): Names {
  const index = indexSpecifier(options);
  const sdk = SDK_MODULES[options.mcpSdk ?? 1];
  return {
    describe: file.importValue("describe", "vitest"),
    expect: file.importValue("expect", "vitest"),
    it: file.importValue("it", "vitest"),
    vi: file.importValue("vi", "vitest"),
    contracts: file.importValue("contracts", index),
    execute: file.importValue("execute", index),
    ...(validatesDirectly(cases, options) ? { loadValidators: file.importValue("loadValidators", index) } : {}),
    createServer: file.importValue("createServer", index),
    Handlers: file.importType("Handlers", index),
    Client: file.importValue("Client", sdk.Client),
    InMemoryTransport: file.importValue("InMemoryTransport", sdk.InMemoryTransport),
    ...(options.handlersModule === undefined ? {} : { handlers: file.importValue("handlers", handlersSpecifier(options.handlersModule)) }),
  };
}

function fileComment(tool: ToolIR, options: ContractTestOptions): string {
  const lines = [
    `Contract tests for \`${tool.name}\` (version ${tool.version}), run by vitest. They need no handler:`,
    "a spy stands in for it. The cases were derived from the contract and checked with its",
    "validators when this file was generated; regenerate rather than edit.",
  ];
  if (options.handlersModule !== undefined) lines.push("Examples also run through the real handlers (generated with --handlers).");
  // The tool name is the only value from YAML here; a comment cannot hold "*/" safely, so it is escaped.
  return `/*\n${lines.map((l) => ` * ${l.replace(/\*\//g, "*\\/")}`).join("\n")}\n */`;
}

export function emitContractTests(tool: ToolIR, options: ContractTestOptions = {}): EmittedFile {
  const path = `${tool.fileName}.test.ts`;
  const file = new FileBuilder(path, headerComment(tool.source));
  file.reserve(...DECLARED);
  const cases = contractCases(tool);
  const names = importNames(file, options, cases);
  const blocks = [
    examplesBlock(cases, names),
    negativesBlock(cases, names),
    badOutputsBlock(cases, names),
    toolsListBlock(names),
    realHandlersBlock(cases, names),
  ].filter((b): b is string => b !== undefined);
  file.add(
    `${fileComment(tool, options)}\n${toolConstants(tool.name, names)}`,
    ...caseTables(cases),
    ...helpers(names, blocks.join("\n")),
    `${names.describe}(${literal(`${tool.name} contract`)}, () => {\n${blocks.join("\n\n")}\n});`,
  );
  return { path, root: "tests", text: file.toText(), format: true };
}
