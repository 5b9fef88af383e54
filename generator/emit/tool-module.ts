/**
 * The per-tool module `tools/<name>.ts`: the tool's types (input as sent,
 * input after defaults, output, rejection reasons). Types only, so it costs
 * nothing at run time; the contract constant lives in contracts.ts.
 */
import type { EmittedFile, ToolIR } from "../ir.js";
import { FileBuilder } from "./file-builder.js";
import { headerComment } from "./header.js";
import { toolTypeStatements } from "./types.js";

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

export function emitToolModule(tool: ToolIR): EmittedFile {
  const path = `tools/${tool.fileName}.ts`;
  const builder = new FileBuilder(path, headerComment(tool.source));
  toolTypeStatements(tool, builder);
  return { path, text: builder.toText(), format: true };
}
