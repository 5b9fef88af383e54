/**
 * One conformance run per protocol generation and MCP SDK line: the
 * committed 2.x tree as it is, and the same contracts generated for 1.x into
 * a scratch folder under .tmp/ (inside the repository, so its imports
 * resolve from node_modules). Each tree is served once, and every generation
 * that covers its line runs against it.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../../generator/pipeline/run.js";
import type { GenerationResults } from "./report.js";
import { GENERATIONS, type Generation, type SdkLine } from "./scenarios.js";
import { COMMITTED_TREE, serveTree } from "./server.js";
import { runServerSuite, type ScenarioResult } from "./suite.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function generateSdk1Tree(): Promise<{ tree: string; remove(): void }> {
  const scratch = join(ROOT, ".tmp", `mcp-conformance-sdk1-${process.pid}`);
  const out = join(scratch, "generated");
  rmSync(scratch, { recursive: true, force: true });
  const result = await run({ definitions: "test/mcp-conformance/definitions", out, mode: "generate", cwd: ROOT, cache: false, mcpSdk: 1 });
  if (!result.ok) throw new Error(`generating the conformance fixtures for SDK 1.x failed: ${JSON.stringify(result.diagnostics)}`);
  return { tree: out, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

/** Each generation that covers `line`, against one server of `tree`: results by protocol. */
async function runAgainst(tree: string, name: string, line: SdkLine, generations: readonly Generation[]): Promise<Map<string, Map<string, ScenarioResult>>> {
  const server = await serveTree(tree, name);
  const byProtocol = new Map<string, Map<string, ScenarioResult>>();
  try {
    for (const generation of generations) {
      if (generation.lines.includes(line)) byProtocol.set(generation.protocol, await runServerSuite(server.url, generation));
    }
    return byProtocol;
  } finally {
    await server.close();
  }
}

/** The suite of every generation against the fixture server generated for each line, one run after the other. */
export async function runGenerations(generations: readonly Generation[] = GENERATIONS): Promise<GenerationResults> {
  const sdk1 = await generateSdk1Tree();
  try {
    const byLine = new Map<SdkLine, Map<string, Map<string, ScenarioResult>>>([
      ["SDK 2.x", await runAgainst(COMMITTED_TREE, "toolc-conformance-sdk2", "SDK 2.x", generations)],
      ["SDK 1.x", await runAgainst(sdk1.tree, "toolc-conformance-sdk1", "SDK 1.x", generations)],
    ]);
    return generations.map((generation) => ({
      generation,
      runs: generation.lines.map((line) => ({ line, results: byLine.get(line)?.get(generation.protocol) ?? new Map() })),
    }));
  } finally {
    sdk1.remove();
  }
}
