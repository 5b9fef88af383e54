/**
 * The proof that `toolc import` works on tools nobody here wrote: every
 * GitHub MCP tool snapshot and every tool of the MCP reference servers is
 * imported, compiled by the real pipeline, type-checked under --strict with
 * each supported TypeScript, and served back over MCP, where each schema and
 * annotation set must mean what the original meant.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";
import { expectedAnnotations } from "./corpus-helpers.js";
import { SETS } from "./corpus-sets.js";
import { draftSensitiveKeywords, semanticallyEqual } from "./semantic.js";

/**
 * Tools that cannot round-trip, with the reason. Empty: every corpus tool
 * does. A tool that starts failing, or one listed here that starts passing,
 * fails the test, so this list stays true.
 */
const EXPECTED_EXCEPTIONS: Record<string, string> = {};

async function listServed(generatedIndex: string): Promise<Tool[]> {
  const generated = (await import(generatedIndex)) as { contracts: Record<string, unknown>; createServer: (h: object) => Server };
  // Stub handlers: tools/list serves only tools that have one.
  const handlers = Object.fromEntries(Object.keys(generated.contracts).map((k) => [k, async () => ({})]));
  const server = generated.createServer(handlers);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "corpus-proof", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

/** Why `served` does not mean what `original` meant, or undefined when it does. */
function mismatch(original: Tool, served: Tool | undefined): string | undefined {
  if (!served) return "not served";
  if (!semanticallyEqual(original.inputSchema as never, served.inputSchema as never)) return "inputSchema differs";
  const outputOriginal = original.outputSchema ?? { type: "object", additionalProperties: true };
  if (!semanticallyEqual(outputOriginal as never, served.outputSchema as never)) return "outputSchema differs";
  if (served.description !== original.description) return "description differs";
  if (served.title !== (original.title ?? original.annotations?.title)) return "title differs";
  const expected = expectedAnnotations(original);
  const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, (served.annotations as Record<string, unknown>)[k]]));
  if (JSON.stringify(actual) !== JSON.stringify(expected)) return `annotations differ: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`;
  return undefined;
}

// The global setup imports and compiles each set once (importSet in corpus-sets.ts) and type-checks the output.
describe.each(SETS.map((set, index) => ({ ...set, index })))("$label", (set) => {
  const originals = set.originals();
  const imported = () => typecheckFixture("imported")[set.index]!;
  let served: Tool[] = [];

  it(`imports all ${set.expectedTools} tools with no errors`, () => {
    expect(originals).toHaveLength(set.expectedTools);
    const { importErrors, contracts } = imported();
    expect(Object.keys(importErrors)).toEqual(set.sources);
    for (const source of set.sources) expect(importErrors[source]).toEqual([]);
    expect(contracts).toBe(set.expectedTools);
  });

  it("compiles with the real pipeline", () => {
    expect(imported().compileErrors).toEqual([]);
    expect(imported().tools).toBe(set.expectedTools);
  });

  it.each(TYPESCRIPTS)("type-checks under every strict flag with TypeScript $version", ({ version }) => {
    expect(tscOutput("consumer", version, `import/${set.index}`)).toBe("");
  });

  it("serves every schema back, semantically equal to the original", async () => {
    served = await listServed(join(imported().dir, "generated/index.ts"));
    expect(served).toHaveLength(set.expectedTools);
    const byName = new Map(served.map((t) => [t.name, t]));
    const failures: Record<string, string> = {};
    for (const original of originals) {
      expect(draftSensitiveKeywords(original.inputSchema as never).concat(draftSensitiveKeywords((original.outputSchema ?? {}) as never))).toEqual([]);
      const why = mismatch(original, byName.get(original.name));
      if (why) failures[original.name] = why;
    }
    const expected = Object.fromEntries(Object.keys(EXPECTED_EXCEPTIONS).filter((n) => originals.some((t) => t.name === n)).map((n) => [n, expect.any(String)]));
    expect(failures).toEqual(expected);
  });
});
