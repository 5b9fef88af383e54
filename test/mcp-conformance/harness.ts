/**
 * One conformance run per protocol generation and column: the committed 2.x
 * tree as it is, the same contracts generated for 1.x into a scratch folder
 * under .tmp/ (inside the repository, so its imports resolve from
 * node_modules), both behind Node's `createHttpHandler`, and the 2.x tree
 * through `createFetchHandler` on Node, workerd, Deno and Bun. Each server is
 * started once, and every generation that covers its column runs against
 * it, one server after the other.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../../generator/pipeline/run.js";
import type { GenerationResults } from "./report.js";
import { columnsOf, GENERATIONS, type Column, type Generation } from "./scenarios.js";
import { COMMITTED_TREE, serveFetchOn, serveFetchOnNode, serveFetchOnWorkerd, serveTree, type RunningServer } from "./server.js";
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

/** Each generation run in `column`, against one server: results by protocol. */
async function runAgainst(start: () => Promise<RunningServer>, column: Column, generations: readonly Generation[]): Promise<Map<string, Map<string, ScenarioResult>>> {
  const server = await start();
  const byProtocol = new Map<string, Map<string, ScenarioResult>>();
  try {
    for (const generation of generations) {
      if (columnsOf(generation).includes(column)) byProtocol.set(generation.protocol, await runServerSuite(server.url, generation));
    }
    return byProtocol;
  } finally {
    await server.close();
  }
}

/** The suite of every generation against the fixture server in each column, one run after the other. */
export async function runGenerations(generations: readonly Generation[] = GENERATIONS): Promise<GenerationResults> {
  const sdk1 = await generateSdk1Tree();
  try {
    // One after the other: some 2026-07-28 checks wait on notifications with a deadline, which a busy machine can miss.
    const byColumn = new Map<Column, Map<string, Map<string, ScenarioResult>>>([
      ["SDK 2.x", await runAgainst(() => serveTree(COMMITTED_TREE, "toolc-conformance-sdk2"), "SDK 2.x", generations)],
      ["SDK 1.x", await runAgainst(() => serveTree(sdk1.tree, "toolc-conformance-sdk1"), "SDK 1.x", generations)],
      ["SDK 2.x, fetch on Node", await runAgainst(serveFetchOnNode, "SDK 2.x, fetch on Node", generations)],
      ["SDK 2.x, fetch on workerd", await runAgainst(serveFetchOnWorkerd, "SDK 2.x, fetch on workerd", generations)],
      ["SDK 2.x, fetch on Deno", await runAgainst(() => serveFetchOn("deno"), "SDK 2.x, fetch on Deno", generations)],
      ["SDK 2.x, fetch on Bun", await runAgainst(() => serveFetchOn("bun"), "SDK 2.x, fetch on Bun", generations)],
    ]);
    return generations.map((generation) => ({
      generation,
      runs: columnsOf(generation).map((line) => ({ line, results: byColumn.get(line)?.get(generation.protocol) ?? new Map() })),
    }));
  } finally {
    sdk1.remove();
  }
}
