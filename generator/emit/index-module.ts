/**
 * `index.ts`, the generated API: the contracts map, the `Handlers` type, and
 * `execute`, `createServer` and `createClient` bound to this project's
 * contracts, plus every type a caller needs. Nothing here needs Node's types;
 * the HTTP entry is in `http.ts` (see http-module.ts).
 */
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { ContractIR, EmittedFile, ToolIR } from "../ir.js";
import { code, FileBuilder, typeSymbol, valueSymbol, type Code, type ExportFromStatement, type ImportSymbol } from "../printer/file-builder.js";
import { runtimeSpecifier, runtimeValue, type RuntimeExport } from "./runtime-symbols.js";
import { headerComment } from "../printer/header.js";
import { fittedLiteral, jsDoc, PRINT_WIDTH, propertyKey, unbreakableEntry } from "../printer/literal.js";
import { contractConstName } from "./contracts-module.js";
import { toolTypeNames } from "./types.js";
import { INDEX_API_NAMES, INDEX_RUNTIME_TYPES, INDEX_RUNTIME_VALUES, localTypeName, toolExportNames, toolFileName, toolTypeName } from "./ts-names.js";

const RUNTIME = runtimeSpecifier("api");
/** Every contract constant is in one module, so a server loads one file for all of them. */
const CONTRACTS = "./contracts.js";

const apiValue = (name: RuntimeExport<"api">): ImportSymbol => runtimeValue("api", name);
const runtimeType = (name: string): ImportSymbol => typeSymbol(name, RUNTIME);
const EXECUTE_BY_NAME = runtimeValue("dispatch", "executeByName");
const HANDLER_FOR = runtimeType("HandlerFor");
// Through the SDK port, so the index is the same for either SDK line.
const SERVER = typeSymbol("Server", "./runtime/sdk.js");
const CLIENT = typeSymbol("Client", "./runtime/sdk.js");

/** The local `$defs` type names a tool's module exports beside its four types (emit/types.ts), once each. */
function localTypeNames(tool: ToolIR): string[] {
  const origins = [...Object.values(tool.inputDefs), ...Object.values(tool.outputDefs)];
  return [...new Set(origins.flatMap((origin) => (origin.kind === "local" ? [localTypeName(tool, origin)] : [])))];
}

/**
 * The tools whose modules' every export the index may re-export with
 * `export type *`: all but those with a local `$defs` type whose name is
 * another name the index exports (a named type, another tool's type or
 * local type, the index's own), which two `export type *` would make
 * ambiguous (TS2308); those keep the list of their four types.
 */
function wholeToolModules(ir: ContractIR): Set<ToolIR> {
  const owners = new Map<string, number>();
  const claim = (name: string) => owners.set(name, (owners.get(name) ?? 0) + 1);
  for (const name of [...INDEX_API_NAMES, ...INDEX_RUNTIME_VALUES, ...INDEX_RUNTIME_TYPES]) claim(name);
  for (const type of ir.typeFiles.flatMap((f) => f.types)) claim(type.name);
  const locals = new Map(ir.tools.map((tool) => [tool, localTypeNames(tool)]));
  for (const tool of ir.tools) {
    for (const name of Object.values(toolExportNames(toolTypeName(tool)))) claim(name);
    for (const name of locals.get(tool)!) claim(name);
  }
  return new Set(ir.tools.filter((tool) => locals.get(tool)!.every((name) => owners.get(name) === 1)));
}

/**
 * The index's re-exports: the named types, each tool's types, the contract
 * constants and the runtime's API. A tool's module exports types only (its
 * four, and its local `$defs` types), so the index re-exports it whole,
 * `export type * from`, one short line a tool rather than its four long
 * names (0.29 MB of GitHub's 1,223 tools, #42); contracts.ts exports only the
 * contract constants, so `export *` re-exports them.
 */
function exportStatements(ir: ContractIR): (ExportFromStatement | string)[] {
  const typeModules = ir.typeFiles.map((f) => ({
    kind: "exportFrom" as const,
    typeOnly: true,
    from: `./types/${f.module}.js`,
    names: f.types.map((t) => t.name),
  }));
  const whole = wholeToolModules(ir);
  const toolModules = ir.tools.map((tool): ExportFromStatement | string => {
    const from = `./tools/${toolFileName(tool)}.js`;
    if (whole.has(tool)) return `export type * from ${JSON.stringify(from)};`;
    const names = toolTypeNames(tool);
    return { kind: "exportFrom", typeOnly: true, from, names: [names.input, names.resolvedInput, names.output, names.reason] };
  });
  return [
    ...typeModules,
    ...toolModules,
    `export * from ${JSON.stringify(CONTRACTS)};`,
    { kind: "exportFrom", from: RUNTIME, names: [...INDEX_RUNTIME_VALUES] },
    { kind: "exportFrom", typeOnly: true, from: RUNTIME, names: [...INDEX_RUNTIME_TYPES] },
  ];
}

function contractsStatement(tools: readonly ToolIR[], file: FileBuilder): Code {
  const entries = tools.map((tool) => `${unbreakableEntry("  ", propertyKey(tool.name), file.use(valueSymbol(contractConstName(tool), CONTRACTS)))},\n`);
  return code`${jsDoc(["Every tool's compiled contract, by MCP tool name, in tools/list order."])!}
export const contracts = {
${entries}} as const;`;
}

/**
 * `export type <name> = HandlerFor<<argument>>;` as prettier lays it out: on
 * one line when it fits; else broken inside the angle brackets when the line
 * up to `<` fits; else broken after `=`, the rest on one line when it fits.
 */
function handlerAlias(name: string, handlerFor: string, argument: string): string {
  const head = `export type ${name} = ${handlerFor}<`;
  if (head.length + argument.length + 2 <= PRINT_WIDTH) return `${head}${argument}>;`;
  if (head.length <= PRINT_WIDTH) return `${head}\n  ${argument}\n>;`;
  const rest = `${handlerFor}<${argument}>;`;
  const broken = 2 + rest.length <= PRINT_WIDTH ? rest : `${handlerFor}<\n    ${argument}\n  >;`;
  return `export type ${name} =\n  ${broken}`;
}

/** `GetOrderHandler`: one tool's handler type, for handlers written or wrapped on their own. */
function handlerTypes(tools: readonly ToolIR[], file: FileBuilder): Code[] {
  const handlerFor = file.use(HANDLER_FOR);
  return tools.map((tool) => {
    const alias = handlerAlias(toolExportNames(toolTypeName(tool)).handler, handlerFor, `Contracts[${fittedLiteral(tool.name)}]`);
    return code`${jsDoc([`A handler for \`${tool.name}\`.`])!}\n${alias}`;
  });
}

/** createServer's body: the tool server, and with a view (MCP Apps) its `ui://` resources served beside it (runtime/apps.ts). */
function serverBody(hasViews: boolean): Code {
  const server = code`${apiValue("createToolServer")}(contracts, handlers, options, serverDefaults)`;
  if (!hasViews) return code`return ${server};`;
  return code`return ${runtimeValue("apps", "serveViews")}(
    ${server},
    ${valueSymbol("views", "./views.js")},
  );`;
}

/** The API bound to this project's contracts: its names, its handler and result types, and the functions a server or client calls. */
function boundApi(hasViews: boolean): Code[] {
  return [
    code`${jsDoc(["The tool names this project declares."])!}
export type ToolName = keyof Contracts;`,
    code`${jsDoc(["Handlers by tool name; input arrives validated with defaults applied, and the return value is validated too. A tool without a handler is not served."])!}
export type Handlers = ${runtimeType("HandlersFor")}<Contracts>;`,
    code`${jsDoc(["The result of calling `K`: its output, or a failure envelope with its declared rejection reasons."])!}
export type ResultOf<K extends ToolName> = ${runtimeType("ToolResult")}<
  ${runtimeType("OutputOf")}<Contracts[K]>,
  ${runtimeType("ReasonOf")}<Contracts[K]>
>;`,
    code`${jsDoc(["Runs one call through its contract: validate input, run the handler, validate output. Never throws."])!}
export function execute<K extends ToolName>(
  tool: K,
  input: unknown,
  handlers: Handlers,
  options?: ${runtimeType("ExecuteOptions")},
): Promise<ResultOf<K>> {
  return ${EXECUTE_BY_NAME}(contracts, tool, input, handlers, options);
}`,
    code`${jsDoc([
      "An MCP server (the SDK's low-level `Server`) serving every tool that has a handler.",
      "On MCP SDK 2.x, hand `() => createServer(handlers)` to `serveStdio` to serve protocol 2026-07-28 and 2025-era clients over stdio.",
    ])!}
export function createServer(
  handlers: Handlers,
  options?: ${runtimeType("ServerOptions")},
): ${SERVER} {
  ${serverBody(hasViews)}
}`,
    code`${jsDoc(["A typed client over an SDK `Client`: validates input before sending and output on receipt."])!}
export function createClient(client: ${CLIENT}): ${runtimeType("ToolClient")}<Contracts> {
  return ${apiValue("createToolClient")}(contracts, client);
}`,
    code`${jsDoc(["Checks on connect that the server serves these contracts: each tool missing, or at another version or schema hash, is reported by name."])!}
export function verifyServer(client: ${CLIENT}): Promise<${runtimeType("DriftReport")}> {
  return ${apiValue("checkToolDrift")}(contracts, client);
}`,
  ];
}

/** The server's defaults as the project had them when it was generated: package.json's name and version, the config's `mcp.cache`. */
function serverDefaultsStatement(defaults: ServerDefaultsSetting): Code {
  const doc = jsDoc(["What `createServer` says about itself unless its options do: from package.json and toolc.config.yaml when this was generated."])!;
  return code`${doc}
const serverDefaults: ${runtimeType("ServerDefaults")} = ${fittedLiteral(defaults)};`;
}

export function emitIndexModule(ir: ContractIR, server: ServerDefaultsSetting = {}): EmittedFile {
  const file = new FileBuilder("index.ts", headerComment("the definitions folder"));
  file.reserve(...INDEX_API_NAMES, ...ir.tools.map((tool) => toolExportNames(toolTypeName(tool)).handler));
  file.add(...exportStatements(ir), contractsStatement(ir.tools, file));
  file.add({ kind: "typeAlias", name: "Contracts", type: "typeof contracts", docs: ["The type of `contracts`."] });
  file.add(serverDefaultsStatement(server), ...handlerTypes(ir.tools, file), ...boundApi(ir.tools.some((tool) => tool.ui?.view !== undefined)));
  return { path: file.path, text: file.toText() };
}
