/**
 * The demo contracts generated for one MCP SDK line into .tmp/ (inside the
 * repository, so the output resolves the SDK packages from node_modules),
 * through the same pipeline `toolc generate --mcp-sdk N` runs.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../../generator/pipeline/run.js";
import { root } from "../helpers.js";

export type SdkLine = 1 | 2;

/** Where line `line`'s output goes, relative to the repository root; per process, so parallel runs do not collide. */
export function lineOut(line: SdkLine): string {
  return `.tmp/mcp-sdk-${line}-${process.pid}/generated`;
}

/** Removes what `generateForLine` wrote. */
export function removeLineOutputs(): void {
  for (const line of [1, 2] as const) rmSync(join(root, lineOut(line), ".."), { recursive: true, force: true });
}

export async function generateForLine(line: SdkLine): Promise<string> {
  const out = lineOut(line);
  rmSync(join(root, out), { recursive: true, force: true });
  const result = await run({ definitions: "definitions", out, mode: "generate", cwd: root, cache: false, mcpSdk: line });
  if (!result.ok) throw new Error(`generating for SDK ${line} failed: ${JSON.stringify(result.diagnostics)}`);
  return join(root, out);
}
