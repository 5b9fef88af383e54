/**
 * `codemode.ts`: the tools as async functions for agents that write code.
 * `CodeModeApi` has one method per tool, typed by the contract (input as
 * sent, output as returned) with the tool's description, rejections and an
 * example as JSDoc; a failed call throws `ToolCallError` with the envelope.
 * Each function goes through a `ToolCaller`: the executor in process
 * (`createCodeMode`), the typed MCP client to a remote server
 * (`createRemoteCodeMode`), or a sandbox's messages to a host that runs the
 * executor (`codeModeHost` on the host, runtime/codemode.js `codeModeFunctions`
 * over `codeModeTools` inside). `codeModeDeclarations` is the same API as
 * one `.d.ts` text for the model's context (declarations.ts).
 */
import type { ContractIR, EmittedFile, ToolIR } from "../../ir.js";
import { code, FileBuilder, joinCode, typeSymbol, valueSymbol, type Code } from "../../printer/file-builder.js";
import { headerComment } from "../../printer/header.js";
import { jsDoc, literal, propertyKey } from "../../printer/literal.js";
import { runtimeSpecifier, runtimeValue } from "../../emit/runtime-symbols.js";
import { codeModeDeclarations, codeModeFunctionName } from "./declarations.js";
import type { CodeModeOptions } from "./config.js";
import { toolExportNames, toolTypeName } from "../../emit/ts-names.js";

const CODEMODE_RUNTIME = runtimeSpecifier("codemode");
const API_RUNTIME = runtimeSpecifier("api");
const INDEX = "./index.js";

/** Every name codemode.ts declares: an import never takes one of them. */
const DECLARED = [
  "CodeModeApi",
  "codeModeTools",
  "codeModeApi",
  "createCodeMode",
  "codeModeHost",
  "createRemoteCodeMode",
  "codeModeDeclarations",
  "cloudflareCodeMode",
];

function methodDocs(tool: ToolIR): string[] {
  const lines: string[] = [];
  const text = tool.description ?? tool.title;
  if (text !== undefined) lines.push(...text.trim().split("\n"), "");
  lines.push(`Calls \`${tool.name}\` (effect: ${tool.effect}${tool.confirm === true ? ", confirmed by the user" : ""}).`);
  for (const e of tool.errors) lines.push(`@throws {ToolCallError} REJECTED, reason ${e.code}: ${e.description}`);
  lines.push("@throws {ToolCallError} INVALID_INPUT with the issues to fix, or another code of the envelope.");
  for (const example of tool.examples.filter((e) => e.invalid === undefined && e.rejected === undefined))
    lines.push(`@example ${example.name}`, `await api.${codeModeFunctionName(tool)}(${literal(example.input)});`);
  return lines;
}

function apiInterface(ir: ContractIR): Code {
  const members = ir.tools.map((tool) => {
    const names = toolExportNames(toolTypeName(tool));
    const signature = code`  ${propertyKey(codeModeFunctionName(tool))}(input: ${typeSymbol(names.input, INDEX)}): Promise<${typeSymbol(names.output, INDEX)}>;`;
    return code`  ${jsDoc(methodDocs(tool), "  ")!}\n${signature}`;
  });
  return code`/** The tools as async functions, for code a model writes: each resolves to the tool's output or throws ToolCallError with the failure envelope. */
export interface CodeModeApi {
${joinCode(members, "\n\n")}
}`;
}

function functionTable(ir: ContractIR): Code {
  const rows = ir.tools.map((tool) => `  ${propertyKey(codeModeFunctionName(tool))}: ${literal(tool.name)},`);
  return code`/** Each function's tool: what a sandbox builds its functions from (runtime/codemode.js \`codeModeFunctions\`). */
export const codeModeTools = {
${rows.join("\n")}
} as const satisfies { readonly [F in keyof CodeModeApi]: ${typeSymbol("ToolName", INDEX)} };`;
}

/** The declaration text as one string literal per line, so the generated module reads as the text does. */
function declarationLines(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${literal(line)},`)
    .join("\n");
}

export function emitCodeModeModule(ir: ContractIR, options: CodeModeOptions): EmittedFile {
  const file = new FileBuilder("codemode.ts", headerComment("the definitions folder"));
  file.reserve(...DECLARED);
  const caller = typeSymbol("ToolCaller", CODEMODE_RUNTIME);
  const handlers = typeSymbol("Handlers", INDEX);
  const executeOptions = typeSymbol("ExecuteOptions", API_RUNTIME);
  const functions = runtimeValue("codemode", "codeModeFunctions");
  file.add(
    file.print({ kind: "exportFrom", names: ["ToolCallError"], from: CODEMODE_RUNTIME }),
    file.print({ kind: "exportFrom", typeOnly: true, names: ["ToolCaller"], from: CODEMODE_RUNTIME }),
    apiInterface(ir),
    functionTable(ir),
    code`/** The API over any caller; a call never reaches a tool but through \`call\`. */
export function codeModeApi(call: ${caller}): CodeModeApi {
  return ${functions}(codeModeTools, call) as unknown as CodeModeApi;
}`,
    code`/**
 * The host's side of a sandbox: runs a call that crossed the boundary through the executor (validation,
 * envelope, confirmation, scopes, the loop guard in \`options.guard\`). The tool name is untrusted too: an
 * unknown one is a FAILED envelope.
 */
export function codeModeHost(handlers: ${handlers}, options?: ${executeOptions}): ${caller} {
  return (tool, input) => ${valueSymbol("execute", INDEX)}(tool as ${typeSymbol("ToolName", INDEX)}, input, handlers, options);
}`,
    code`/** In process: every call goes through the executor, as \`execute\` does. */
export function createCodeMode(handlers: ${handlers}, options?: ${executeOptions}): CodeModeApi {
  return codeModeApi(codeModeHost(handlers, options));
}`,
    code`/** Through the typed MCP client (\`createClient\`) to a remote server, whose executor is the border; \`options\` go with every call. */
export function createRemoteCodeMode(client: ${typeSymbol("ToolClient", API_RUNTIME)}<${typeSymbol("Contracts", INDEX)}>, options?: ${typeSymbol("CallOptions", API_RUNTIME)}): CodeModeApi {
  return codeModeApi(${runtimeValue("codemode", "clientCaller")}(client, options));
}`,
    code`/** The API as one \`.d.ts\` text (no imports) for the model's context: the global \`${options.namespace}\`, its types and ToolCallError. */
export const codeModeDeclarations: string = [
${declarationLines(codeModeDeclarations(ir, options.namespace))}
].join("\\n");`,
    code`/** \`@cloudflare/codemode\`: a \`ToolProvider\` whose tools go through \`call\` (\`codeModeHost\` on the host), typed by \`codeModeDeclarations\`. */
export function cloudflareCodeMode(call: ${caller}): { name: ${literal(options.namespace)}; types: string; tools: Record<string, { execute(args: unknown): Promise<unknown> }> } {
  return { name: ${literal(options.namespace)}, types: codeModeDeclarations, tools: ${runtimeValue("codemode", "codeModeToolRecord")}(codeModeTools, call) };
}`,
  );
  return { path: file.path, text: file.toText() };
}
