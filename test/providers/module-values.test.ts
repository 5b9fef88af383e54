/**
 * providers.ts writes a provider's schema only where it differs from the
 * served one, and refers to the contract's `inputSchema` where it is the
 * same. The exports must still be, at run time, exactly the schemas the
 * provider catalog computes (what providers.ts used to hold as literals):
 * the generated module is evaluated for the demo and the GitHub MCP tools,
 * and each provider schema serialized (key order included) against the
 * catalog's.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importContracts } from "../../generator/import/index.js";
import { compile } from "../../generator/pipeline/run.js";
import { providerCatalog, type ProviderEntry } from "../../generator/providers/catalog.js";
import { ROOT } from "../compiler/helpers.js";

interface ProviderExports {
  readonly openai: { readonly tools: { function: { name: string; parameters: unknown } }[]; readonly responsesTools: { name: string; parameters: unknown }[] };
  readonly anthropic: { readonly tools: { name: string; input_schema: unknown }[] };
  readonly gemini: { readonly functionDeclarations: { name: string; parametersJsonSchema: unknown }[] };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function githubDefinitions(): { cwd: string; definitions: string } {
  const cwd = mkdtempSync(join(tmpdir(), "toolc-provider-values-"));
  dirs.push(cwd);
  importContracts({ source: join(ROOT, "test/corpus/github-mcp-toolsnaps"), out: "definitions", cwd });
  return { cwd, definitions: "definitions" };
}

/** Compiles the definitions, writes the output folder to a temporary project and evaluates its providers.ts. */
async function generated(cwd: string, definitions: string): Promise<{ exports: ProviderExports; text: string; entries: readonly ProviderEntry[] }> {
  const { files, ir, diagnostics } = await compile(definitions, "generated", cwd);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const out = mkdtempSync(join(tmpdir(), "toolc-provider-module-"));
  dirs.push(out);
  symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"), "dir");
  for (const file of files!) {
    if (file.root !== undefined) continue;
    mkdirSync(dirname(join(out, "generated", file.path)), { recursive: true });
    writeFileSync(join(out, "generated", file.path), file.text);
  }
  const text = files!.find((f) => f.path === "providers.ts")!.text;
  const exports = (await import(pathToFileURL(join(out, "generated/providers.ts")).href)) as ProviderExports;
  return { exports, text, entries: providerCatalog(ir!.tools).entries };
}

const SETS = [
  { label: "demo definitions", load: () => ({ cwd: ROOT, definitions: "definitions" }), references: 2 },
  { label: "GitHub MCP tools", load: githubDefinitions, references: 100 },
];

describe.each(SETS)("providers.ts of the $label", ({ load, references }) => {
  it("exports each provider's schemas exactly as the catalog computes them, key order included", async () => {
    const { cwd, definitions } = load();
    const { exports, text, entries } = await generated(cwd, definitions);
    const json = (value: unknown): string => JSON.stringify(value);
    const byName = <T extends { name: string }>(list: readonly T[]): Map<string, T> => new Map(list.map((t) => [t.name, t]));
    const openai = byName(exports.openai.tools.map((t) => t.function));
    const responses = byName(exports.openai.responsesTools);
    const anthropic = byName(exports.anthropic.tools);
    const gemini = byName(exports.gemini.functionDeclarations);
    let served = 0;
    for (const e of entries) {
      const name = e.tool.name;
      const input = json(e.tool.inputSchema);
      if (e.openai) {
        expect(json(openai.get(name)?.parameters), `openai ${name}`).toBe(json(e.openai.parameters));
        expect(json(responses.get(name)?.parameters), `openai responses ${name}`).toBe(json(e.openai.parameters));
        if (json(e.openai.parameters) === input) served++;
      }
      if (e.anthropic) {
        expect(json(anthropic.get(name)?.input_schema), `anthropic ${name}`).toBe(json(e.anthropic.inputSchema));
        if (json(e.anthropic.inputSchema) === input) served++;
      }
      if (e.gemini) {
        expect(json(gemini.get(name)?.parametersJsonSchema), `gemini ${name}`).toBe(json(e.gemini));
        if (json(e.gemini) === input) served++;
      }
    }
    expect([openai.size, anthropic.size, gemini.size]).toEqual([
      entries.filter((e) => e.openai).length,
      entries.filter((e) => e.anthropic).length,
      entries.filter((e) => e.gemini).length,
    ]);
    // Every provider schema that is the served one is a reference to it, not a second copy.
    expect(served).toBeGreaterThanOrEqual(references);
    expect(text.match(/Contract\.inputSchema\b/g)?.length ?? 0).toBe(served);
  });
});
