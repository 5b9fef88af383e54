/**
 * One conformance run on each MCP SDK line: the committed 2.x tree as it is,
 * and the same contracts generated for 1.x into a scratch folder under
 * .tmp/ (inside the repository, so its imports resolve from node_modules).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../../generator/pipeline.js";
import type { LineResults } from "./report.js";
import { COMMITTED_TREE, serveTree } from "./server.js";
import { runServerSuite } from "./suite.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const LINES = ["SDK 2.x", "SDK 1.x"] as const;

async function generateSdk1Tree(): Promise<{ tree: string; remove(): void }> {
  const scratch = join(ROOT, ".tmp", `mcp-conformance-sdk1-${process.pid}`);
  const out = join(scratch, "generated");
  rmSync(scratch, { recursive: true, force: true });
  const result = await run({ definitions: "test/mcp-conformance/definitions", out, mode: "generate", cwd: ROOT, cache: false, mcpSdk: 1 });
  if (!result.ok) throw new Error(`generating the conformance fixtures for SDK 1.x failed: ${JSON.stringify(result.diagnostics)}`);
  return { tree: out, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

async function runAgainst(tree: string, name: string): Promise<LineResults[number]["results"]> {
  const server = await serveTree(tree, name);
  try {
    return await runServerSuite(server.url);
  } finally {
    await server.close();
  }
}

/** The whole suite against the fixture server generated for each line, one line after the other. */
export async function runOnBothLines(): Promise<LineResults> {
  const sdk1 = await generateSdk1Tree();
  try {
    const sdk2Results = await runAgainst(COMMITTED_TREE, "toolc-conformance-sdk2");
    const sdk1Results = await runAgainst(sdk1.tree, "toolc-conformance-sdk1");
    return [
      { line: LINES[0], results: sdk2Results },
      { line: LINES[1], results: sdk1Results },
    ];
  } finally {
    sdk1.remove();
  }
}
