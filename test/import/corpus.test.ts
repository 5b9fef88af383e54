/**
 * The proof that `toolc import` works on tools nobody here wrote: every
 * GitHub MCP tool snapshot and every tool of the MCP reference servers is
 * imported, compiled by the real pipeline, type-checked under --strict with
 * each supported TypeScript, and served back over MCP, where each schema and
 * annotation set must mean what the original meant.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../generator/pipeline.js";
import { importContracts } from "../../generator/import/index.js";
import { ROOT } from "../compiler/helpers.js";
import { draftSensitiveKeywords, semanticallyEqual } from "./semantic.js";
import { expectedAnnotations, tscStrict, TYPESCRIPTS } from "./corpus-helpers.js";

const CORPUS = join(ROOT, "../shared/corpus");
const GITHUB = join(CORPUS, "github-mcp-toolsnaps");
const REFERENCE = join(CORPUS, "mcp-reference-servers");

/**
 * Tools that cannot round-trip, with the reason. Empty: every corpus tool
 * does. A tool that starts failing, or one listed here that starts passing,
 * fails the test, so this list stays true.
 */
const EXPECTED_EXCEPTIONS: Record<string, string> = {};

interface CorpusSet {
  readonly label: string;
  readonly sources: readonly string[];
  readonly expectedTools: number;
  readonly originals: () => Tool[];
}

function githubTools(): Tool[] {
  return readdirSync(GITHUB).filter((f) => f.endsWith(".snap")).map((f) => JSON.parse(readFileSync(join(GITHUB, f), "utf8")) as Tool);
}

function referenceFiles(): string[] {
  return readdirSync(REFERENCE).filter((f) => f.endsWith(".tools.json")).sort().map((f) => join(REFERENCE, f));
}

function referenceTools(): Tool[] {
  return referenceFiles().flatMap((f) => (JSON.parse(readFileSync(f, "utf8")) as { tools: Tool[] }).tools);
}

const SETS: CorpusSet[] = [
  { label: "GitHub MCP server snapshots", sources: [GITHUB], expectedTools: 117, originals: githubTools },
  { label: "MCP reference servers", sources: referenceFiles(), expectedTools: 37, originals: referenceTools },
];

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

describe.each(SETS)("$label", (set) => {
  const dir = mkdtempSync(join(tmpdir(), "toolc-import-corpus-"));
  const originals = set.originals();
  let served: Tool[] = [];

  beforeAll(async () => {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  });

  it(`imports all ${set.expectedTools} tools with no errors`, () => {
    expect(originals).toHaveLength(set.expectedTools);
    for (const source of set.sources) {
      const result = importContracts({ source, out: "definitions", cwd: dir });
      expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
    }
    expect(readdirSync(join(dir, "definitions")).filter((f) => f.endsWith(".yaml"))).toHaveLength(set.expectedTools);
  });

  it("compiles with the real pipeline", async () => {
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(compiled.tools).toBe(set.expectedTools);
    for (const file of compiled.files ?? []) {
      mkdirSync(dirname(join(dir, "generated", file.path)), { recursive: true });
      writeFileSync(join(dir, "generated", file.path), file.text);
    }
  });

  it.each(TYPESCRIPTS)("type-checks under --strict with TypeScript $version", ({ bin }) => {
    expect(tscStrict(bin, join(dir, "generated/index.ts"))).toBe("");
  });

  it("serves every schema back, semantically equal to the original", async () => {
    served = await listServed(join(dir, "generated/index.ts"));
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
