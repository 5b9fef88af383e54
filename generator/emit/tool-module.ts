/**
 * The per-tool module `tools/<name>.ts`: the tool's types (input as sent,
 * input after defaults, output, rejection reasons). Types only, so it costs
 * nothing at run time; the contract constant lives in contracts.ts.
 */
import type { EmittedFile, ToolIR } from "../ir.js";
import { FileBuilder } from "../printer/file-builder.js";
import { headerComment } from "../printer/header.js";
import { toolTypeStatements } from "./types.js";
import { toolFileName } from "./ts-names.js";

export function emitToolModule(tool: ToolIR): EmittedFile {
  const path = `tools/${toolFileName(tool)}.ts`;
  const builder = new FileBuilder(path, headerComment(tool.source));
  toolTypeStatements(tool, builder);
  return { path, text: builder.toText() };
}
