/** What the corpus proof needs besides the comparison: MCP's annotation defaults. */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * The annotations a client could rely on before the import, with MCP's
 * defaults filled in (readOnlyHint false, destructiveHint true,
 * idempotentHint false, openWorldHint true). destructiveHint and
 * idempotentHint mean something only when readOnlyHint is false (MCP
 * schema), so on a read-only tool they are compared only when stated.
 */
export function expectedAnnotations(tool: Tool): Record<string, boolean> {
  const a = tool.annotations ?? {};
  const readOnly = a.readOnlyHint ?? false;
  const out: Record<string, boolean> = { readOnlyHint: readOnly, openWorldHint: a.openWorldHint ?? true };
  if (!readOnly) out.destructiveHint = a.destructiveHint ?? true;
  if (!readOnly || a.idempotentHint !== undefined) out.idempotentHint = a.idempotentHint ?? false;
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
}
