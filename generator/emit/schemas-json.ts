/**
 * The contract-metadata target: what tools/list serves for each tool, and the
 * policy the executor applies, as plain JSON for tools and other languages.
 */
import type { EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { headerLine } from "../printer/header.js";
import { toolFileName } from "./ts-names.js";

/** The tool exactly as listed over MCP. */
export function listedTool(tool: ToolIR): JsonObject {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.icons === undefined ? {} : { icons: tool.icons as unknown as JsonObject[] }),
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: { ...tool.annotations },
    _meta: tool.meta,
  };
}

export function policyOf(tool: ToolIR): JsonObject {
  return {
    effect: tool.effect,
    idempotent: tool.idempotent,
    timeoutMs: tool.timeoutMs,
    retry: { ...tool.retry },
    ...(tool.idempotencyKey === undefined ? {} : { idempotencyKey: tool.idempotencyKey }),
    errors: Object.fromEntries(tool.errors.map((e) => [e.code, e.description])),
    ...(tool.content === undefined ? {} : { content: [...tool.content] }),
    ...(tool.scopes === undefined ? {} : { scopes: [...tool.scopes] }),
    ...(tool.confirm === undefined ? {} : { confirm: true }),
  };
}

export function emitSchemaJson(tool: ToolIR): EmittedFile {
  const document = { $comment: headerLine(tool.source), tool: listedTool(tool), policy: policyOf(tool) };
  return { path: `schemas/${toolFileName(tool)}.json`, text: `${JSON.stringify(document, null, 2)}\n` };
}
