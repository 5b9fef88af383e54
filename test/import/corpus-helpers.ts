/** What the corpus proof needs besides the comparison: MCP's annotation defaults and a strict tsc run. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "../compiler/helpers.js";

export { TYPESCRIPTS } from "../helpers/typescripts.js";

/** tsc --noEmit under the strictest options the project supports; "" when clean. */
export function tscStrict(bin: string, entry: string): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-import-tsc-"));
  const compilerOptions = {
    strict: true, noEmit: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noUnusedLocals: true,
    target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [entry] }));
  try {
    execFileSync(process.execPath, [bin, "-p", join(dir, "tsconfig.json")], { encoding: "utf8", cwd: ROOT });
    return "";
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

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
