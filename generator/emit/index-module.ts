/**
 * `index.ts`, the generated API: the contracts map, the `Handlers` type, and
 * `execute`, `createServer` and `createClient` bound to this project's
 * contracts, plus every type a caller needs. Nothing here needs Node's types;
 * the HTTP entry is in `http.ts` (see http-module.ts).
 */
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { ContractIR, EmittedFile, ToolIR } from "../ir.js";
import { INDEX_API_NAMES, INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES, toolExportNames } from "../normalize/names.js";
import { FileBuilder, type ExportFromStatement, type Statement } from "./file-builder.js";
import { headerComment } from "./header.js";
import { literal } from "./literal.js";
import { contractConstName } from "./contracts-module.js";
import { toolTypeNames } from "./types.js";
import { PRINT_WIDTH } from "./types/layout.js";
import { propertyName } from "./types/text.js";

const RUNTIME = "./runtime/api.js";
/** Every contract constant is in one module, so a server loads one file for all of them. */
const CONTRACTS = "./contracts.js";

function exportStatements(ir: ContractIR): ExportFromStatement[] {
  const typeModules = ir.typeFiles.map((f) => ({
    kind: "exportFrom" as const,
    typeOnly: true,
    from: `./types/${f.module}.js`,
    names: f.types.map((t) => t.name),
  }));
  const toolModules = ir.tools.map((tool) => {
    const names = toolTypeNames(tool);
    return {
      kind: "exportFrom" as const,
      typeOnly: true,
      from: `./tools/${tool.fileName}.js`,
      names: [names.input, names.resolvedInput, names.output, names.reason],
    };
  });
  const contractConstants = { kind: "exportFrom" as const, from: CONTRACTS, names: ir.tools.map(contractConstName) };
  return [
    ...typeModules,
    ...toolModules,
    contractConstants,
    { kind: "exportFrom", from: RUNTIME, names: [...INDEX_RUNTIME_VALUES] },
    { kind: "exportFrom", typeOnly: true, from: RUNTIME, names: [...INDEX_RUNTIME_TYPES] },
  ];
}

function contractsStatement(tools: readonly ToolIR[], locals: readonly string[]): Statement {
  const entries = tools.map((tool, i) => `  ${propertyName(tool.name)}: ${locals[i]},\n`).join("");
  return `/** Every tool's compiled contract, by MCP tool name, in tools/list order. */
export const contracts = {
${entries}} as const;`;
}

/** `GetOrderHandler`: one tool's handler type, for handlers written or wrapped on their own. */
function handlerTypes(tools: readonly ToolIR[], rt: Record<string, string>): string[] {
  return tools.map((tool) => {
    const head = `export type ${toolExportNames(tool.baseName).handler} = ${rt.HandlerFor}<`;
    const argument = `Contracts[${JSON.stringify(tool.name)}]`;
    const oneLine = `${head}${argument}>;`;
    const alias = oneLine.length <= PRINT_WIDTH ? oneLine : `${head}\n  ${argument}\n>;`;
    return `/** A handler for \`${tool.name}\`. */\n${alias}`;
  });
}

function boundApi(rt: Record<string, string>): string[] {
  return [
    `/** The tool names this project declares. */
export type ToolName = keyof Contracts;`,
    `/** Handlers by tool name; input arrives validated with defaults applied, and the return value is validated too. A tool without a handler is not served. */
export type Handlers = ${rt.HandlersFor}<Contracts>;`,
    `/** The result of calling \`K\`: its output, or a failure envelope with its declared rejection reasons. */
export type ResultOf<K extends ToolName> = ${rt.ToolResult}<
  ${rt.OutputOf}<Contracts[K]>,
  ${rt.ReasonOf}<Contracts[K]>
>;`,
    `/** Runs one call through its contract: validate input, run the handler, validate output. Never throws. */
export function execute<K extends ToolName>(
  tool: K,
  input: unknown,
  handlers: Handlers,
  options?: ${rt.ExecuteOptions},
): Promise<ResultOf<K>> {
  return ${rt.executeByName}(contracts, tool, input, handlers, options);
}`,
    `/**
 * An MCP server (the SDK's low-level \`Server\`) serving every tool that has a handler.
 * On MCP SDK 2.x, hand \`() => createServer(handlers)\` to \`serveStdio\` to serve protocol 2026-07-28 and 2025-era clients over stdio.
 */
export function createServer(
  handlers: Handlers,
  options?: ${rt.ServerOptions},
): ${rt.Server} {
  return ${rt.createToolServer}(contracts, handlers, options, serverDefaults);
}`,
    `/** A typed client over an SDK \`Client\`: validates input before sending and output on receipt. */
export function createClient(client: ${rt.Client}): ${rt.ToolClient}<Contracts> {
  return ${rt.createToolClient}(contracts, client);
}`,
    `/** Checks on connect that the server serves these contracts: each tool missing, or at another version or schema hash, is reported by name. */
export function verifyServer(client: ${rt.Client}): Promise<${rt.DriftReport}> {
  return ${rt.checkToolDrift}(contracts, client);
}`,
  ];
}

/** The server's defaults as the project had them when it was generated: package.json's name and version, the config's `mcp.cache`. */
function serverDefaultsStatement(defaults: ServerDefaultsSetting, type: string): Statement {
  const data = literal(defaults);
  return `/** What \`createServer\` says about itself unless its options do: from package.json and toolc.config.yaml when this was generated. */
const serverDefaults: ${type} = ${data};`;
}

export function emitIndexModule(ir: ContractIR, server: ServerDefaultsSetting = {}): EmittedFile {
  const builder = new FileBuilder("index.ts", headerComment("the definitions folder"));
  builder.reserve(...INDEX_API_NAMES);
  const locals = ir.tools.map((tool) => builder.importValue(contractConstName(tool), CONTRACTS));
  const rt: Record<string, string> = {};
  for (const name of ["executeByName"]) rt[name] = builder.importValue(name, "./runtime/dispatch.js");
  for (const name of ["createToolServer", "createToolClient", "checkToolDrift"]) rt[name] = builder.importValue(name, RUNTIME);
  for (const name of ["HandlerFor", "HandlersFor", "ToolResult", "OutputOf", "ReasonOf", "ExecuteOptions", "ServerOptions", "ServerDefaults", "ToolClient", "DriftReport"]) rt[name] = builder.importType(name, RUNTIME);
  // Through the SDK port, so the index is the same for either SDK line.
  rt.Server = builder.importType("Server", "./runtime/sdk.js");
  rt.Client = builder.importType("Client", "./runtime/sdk.js");
  builder.add(...exportStatements(ir), contractsStatement(ir.tools, locals));
  builder.add({ kind: "typeAlias", name: "Contracts", type: "typeof contracts", docs: ["The type of `contracts`."] });
  builder.reserve(...ir.tools.map((tool) => toolExportNames(tool.baseName).handler));
  builder.add(serverDefaultsStatement(server, rt.ServerDefaults), ...handlerTypes(ir.tools, rt), ...boundApi(rt));
  return { path: "index.ts", text: builder.toText(), format: false };
}
