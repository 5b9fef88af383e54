/**
 * The per-tool module `tools/<name>.ts`: the tool's types and its contract
 * constant, which joins the served schemas, the policy and the precompiled
 * validators into the object the runtime executes.
 */
import { StructureKind, VariableDeclarationKind, type VariableStatementStructure } from "ts-morph";
import type { EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { FileBuilder } from "./file-builder.js";
import { headerComment } from "./header.js";
import { policyOf } from "./schemas-json.js";
import { toolTypeStatements, type ToolTypeNames } from "./types.js";
import { escapeComment } from "./types/jsdoc.js";

/** `GetOrder` → `getOrderContract`. */
export function contractConstName(tool: ToolIR): string {
  return `${tool.baseName[0].toLowerCase()}${tool.baseName.slice(1)}Contract`;
}

/**
 * JSON is a valid JS expression, and every value from YAML reaches the code
 * only through JSON.stringify. One exception needs care: in an object
 * literal, a `"__proto__"` key sets the prototype instead of adding a
 * property, so it is written as a computed key, which adds one.
 */
export function literal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/"__proto__":/g, '["__proto__"]:');
}

/**
 * A loader, not an import: a server then starts, and answers tools/list,
 * without loading the validator code of every tool; the runtime loads a
 * tool's module on its first call.
 */
function validatorsLoader(tool: ToolIR): string {
  return `() => import(${literal(`../validators/${tool.fileName}.js`)})`;
}

function contractFields(tool: ToolIR): string {
  const policy = policyOf(tool) as JsonObject;
  const fields: [string, string][] = [
    ["name", literal(tool.name)],
    ["version", literal(tool.version)],
    ...(tool.title === undefined ? [] : ([["title", literal(tool.title)]] as [string, string][])),
    ...(tool.description === undefined ? [] : ([["description", literal(tool.description)]] as [string, string][])),
    ["effect", literal(tool.effect)],
    ["idempotent", literal(tool.idempotent)],
    ["timeoutMs", literal(tool.timeoutMs)],
    ["retry", literal(tool.retry)],
    ...(tool.idempotencyKey === undefined ? [] : ([["idempotencyKey", literal(tool.idempotencyKey)]] as [string, string][])),
    ["errors", literal(policy.errors)],
    ["inputSchema", literal(tool.inputSchema)],
    ["outputSchema", literal(tool.outputSchema)],
    ["annotations", literal(tool.annotations)],
    ["meta", literal(tool.meta)],
    ["sensitive", literal(tool.sensitive)],
    ["validators", validatorsLoader(tool)],
  ];
  return `{\n${fields.map(([k, v]) => `${k}: ${v},`).join("\n")}\n}`;
}

function contractStatement(tool: ToolIR, names: ToolTypeNames, contractType: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`The compiled contract of \`${escapeComment(tool.name)}\` (version ${tool.version}).`],
    declarations: [
      {
        name: contractConstName(tool),
        type: `${contractType}<${names.input}, ${names.resolvedInput}, ${names.output}, ${names.reason}>`,
        initializer: contractFields(tool),
      },
    ],
  };
}

export function emitToolModule(tool: ToolIR): EmittedFile {
  const path = `tools/${tool.fileName}.ts`;
  const builder = new FileBuilder(path, headerComment(tool.source));
  builder.reserve(contractConstName(tool));
  const names = toolTypeStatements(tool, builder);
  const contractType = builder.importType("ToolContract", "../runtime/contract.js");
  builder.add(contractStatement(tool, names, contractType));
  return { path, text: builder.toText(), format: true };
}
