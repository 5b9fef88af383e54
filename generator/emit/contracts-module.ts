/**
 * `contracts.ts`: every tool's compiled contract constant, joining the served
 * schemas, the policy and the loader of its precompiled validators.
 *
 * One module rather than one per tool: a server imports all of them before
 * it can answer tools/list, and Node pays a fixed cost per module loaded
 * (about twice the cost of evaluating one large module holding the same
 * data, at 500 tools). The text is written here already formatted, the way
 * the validators are, because the file grows with the number of tools and
 * changes whenever any contract does: running prettier over it on every edit
 * would cost seconds.
 */
import type { ContractIR, EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { toolExportNames } from "../normalize/names.js";
import { CHUNKS_FOLDER } from "./copies.js";
import { code, FileBuilder, joinCode, typeSymbol, type Code } from "../printer/file-builder.js";
import { headerComment } from "../printer/header.js";
import { jsDoc, literal } from "../printer/literal.js";
import { policyOf } from "./schemas-json.js";
import { toolTypeNames } from "./types.js";

const TOOL_CONTRACT = typeSymbol("ToolContract", "./runtime/contract.js");

/** `GetOrder` → `getOrderContract`. */
export function contractConstName(tool: ToolIR): string {
  return toolExportNames(tool.baseName).contract;
}

/** The contract's data: everything but the validators, in the field order the runtime documents. */
function contractData(tool: ToolIR): JsonObject {
  const policy = policyOf(tool);
  return {
    name: tool.name,
    version: tool.version,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.icons === undefined ? {} : { icons: tool.icons as unknown as JsonObject[] }),
    effect: tool.effect,
    idempotent: tool.idempotent,
    timeoutMs: tool.timeoutMs,
    retry: tool.retry as unknown as JsonObject,
    ...(tool.idempotencyKey === undefined ? {} : { idempotencyKey: tool.idempotencyKey }),
    errors: policy.errors ?? {},
    ...(tool.content === undefined ? {} : { content: [...tool.content] }),
    ...(tool.scopes === undefined ? {} : { scopes: [...tool.scopes] }),
    ...(tool.confirm === undefined ? {} : { confirm: true }),
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations as unknown as JsonObject,
    meta: tool.meta as JsonObject,
    sensitive: tool.sensitive as unknown as JsonObject,
    ...(tool.mcpHeaders === undefined || tool.mcpHeaders.length === 0 ? {} : { mcpHeaders: tool.mcpHeaders as unknown as JsonObject[] }),
  };
}

/**
 * One contract constant. Its validators are a loader, not an import: a server
 * then starts, and answers tools/list, without loading any validator code;
 * the runtime loads a tool's module on its first call. That module is
 * `chunks/<tool>.js`: its schema-aware copies, with the validators re-exported,
 * so a first call loads one module.
 */
function contractStatement(tool: ToolIR): Code {
  const names = toolTypeNames(tool);
  const from = `./tools/${tool.fileName}.js`;
  const typeArguments = [names.input, names.resolvedInput, names.output, names.reason].map((name) => typeSymbol(name, from));
  // Declared content kinds narrow ctx.attach for this tool's handler; without them, any kind type-checks.
  const kinds = tool.content === undefined ? "" : `, ${tool.content.map((k) => literal(k)).join(" | ")}`;
  const type = code`${TOOL_CONTRACT}<${joinCode(typeArguments, ", ")}${kinds}>`;
  const data = literal(contractData(tool));
  const loader = `  validators: () => import(${literal(`./${CHUNKS_FOLDER}/${tool.fileName}.js`)}),\n}`;
  return code`${jsDoc([`The compiled contract of \`${tool.name}\` (version ${tool.version}).`])!}
export const ${contractConstName(tool)}: ${type} = ${data.slice(0, -1)}${loader};`;
}

export function emitContractsModule(ir: ContractIR): EmittedFile {
  // Imports in the order the contracts use them: the runtime's type, then each tool's types.
  const file = new FileBuilder("contracts.ts", headerComment("the definitions folder"), { importOrder: "used", wrap: false });
  file.reserve(...ir.tools.map(contractConstName));
  file.add(...ir.tools.map(contractStatement));
  return { path: file.path, text: file.toText() };
}
