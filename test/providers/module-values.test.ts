/**
 * providers.ts writes no provider schema: each tool's refers to its
 * contract's served `inputSchema`, as it is where the provider's form is the
 * served schema, else through the runtime function that derives the form
 * from it at load (runtime/provider-dialects.ts, the functions the compiler
 * computes the forms with). The exports must still be, at run time, exactly
 * the schemas the provider catalog computes at compile time (what
 * providers.ts used to hold as literals): the generated module is evaluated
 * for the demo, the conformance fixtures, the GitHub MCP tools, the MCP
 * reference servers and OpenAPI descriptions heavy in allOf, oneOf and
 * discriminators, and each provider schema serialized (key order included)
 * against the catalog's.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importContracts } from "../../generator/import/index.js";
import { compile } from "../../generator/pipeline/run.js";
import { providerCatalog, type ProviderEntry } from "../../generator/providers/catalog.js";
import { ROOT } from "../compiler/helpers.js";
import { importSpec, scratchProject } from "../import/openapi/helpers.js";
import { CORPUS as OPENAPI_CORPUS } from "../import/openapi/real-world-specs.js";

interface ProviderExports {
  readonly openai: { readonly tools: { function: { name: string; parameters: unknown } }[]; readonly responsesTools: { name: string; parameters: unknown }[] };
  readonly anthropic: { readonly tools: { name: string; input_schema: unknown }[] };
  readonly gemini: { readonly functionDeclarations: { name: string; parametersJsonSchema: unknown }[] };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function imported(...sources: string[]): () => { cwd: string; definitions: string } {
  return () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolc-provider-values-"));
    dirs.push(cwd);
    for (const source of sources) importContracts({ source: join(ROOT, source), out: "definitions", cwd });
    return { cwd, definitions: "definitions" };
  };
}

function openapi(file: string): () => Promise<{ cwd: string; definitions: string }> {
  return async () => {
    const cwd = scratchProject("provider-values");
    dirs.push(cwd);
    await importSpec(join(OPENAPI_CORPUS, file), undefined, {}, cwd);
    return { cwd, definitions: "definitions" };
  };
}

const referenceServers = readdirSync(join(ROOT, "test/corpus/mcp-reference-servers"))
  .filter((f) => f.endsWith(".tools.json"))
  .sort()
  .map((f) => `test/corpus/mcp-reference-servers/${f}`);

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
  const text = files!
    .filter((f) => f.path === "providers.ts" || f.path.startsWith("providers/"))
    .map((f) => f.text)
    .join("\n");
  const exports = (await import(pathToFileURL(join(out, "generated/providers.ts")).href)) as ProviderExports;
  return { exports, text, entries: providerCatalog(ir!.tools).entries };
}

const SETS = [
  { label: "demo definitions", load: () => ({ cwd: ROOT, definitions: "definitions" }) },
  { label: "MCP conformance fixtures", load: () => ({ cwd: ROOT, definitions: "test/mcp-conformance/definitions" }) },
  { label: "GitHub MCP tools", load: imported("test/corpus/github-mcp-toolsnaps") },
  { label: "MCP reference servers", load: imported(...referenceServers) },
  { label: "ReadMe's polymorphism description", load: openapi("readme/polymorphism.json") },
  { label: "ReadMe's discriminators description", load: openapi("readme/discriminators.json") },
  { label: "Twilio Verify", load: openapi("twilio/twilio_verify_v2.json") },
  { label: "ShipEngine", load: openapi("shipengine/openapi.yaml") },
];

/** How often each runtime function that derives a provider's form is called in providers.ts, over all sets. */
const forms = new Map<string, number>();

describe.each(SETS)("providers.ts of the $label", ({ load }) => {
  it("exports each provider's schemas exactly as the catalog computes them, key order included, writing none", async () => {
    const { cwd, definitions } = await load();
    const { exports, text, entries } = await generated(cwd, definitions);
    const json = (value: unknown): string => JSON.stringify(value);
    const byName = <T extends { name: string }>(list: readonly T[]): Map<string, T> => new Map(list.map((t) => [t.name, t]));
    const openai = byName(exports.openai.tools.map((t) => t.function));
    const responses = byName(exports.openai.responsesTools);
    const anthropic = byName(exports.anthropic.tools);
    const gemini = byName(exports.gemini.functionDeclarations);
    for (const e of entries) {
      const name = e.tool.name;
      if (e.openai) {
        expect(json(openai.get(name)?.parameters), `openai ${name}`).toBe(json(e.openai.parameters));
        expect(json(responses.get(name)?.parameters), `openai responses ${name}`).toBe(json(e.openai.parameters));
      }
      if (e.anthropic) expect(json(anthropic.get(name)?.input_schema), `anthropic ${name}`).toBe(json(e.anthropic.inputSchema));
      if (e.gemini) expect(json(gemini.get(name)?.parametersJsonSchema), `gemini ${name}`).toBe(json(e.gemini));
      // The name and description are the contract's, first, the description key only where it has one (a Responses tool is built from the Chat one at load).
      const head = (tool: object | undefined) =>
        json(tool === undefined ? undefined : Object.entries(tool).slice(0, e.tool.description === undefined ? 1 : 2)) +
        String(tool !== undefined && "description" in tool);
      const expected =
        json(Object.entries({ name, ...(e.tool.description === undefined ? {} : { description: e.tool.description }) })) +
        String(e.tool.description !== undefined);
      if (e.openai) expect(head(openai.get(name)), `openai ${name}`).toBe(expected);
      if (e.anthropic) expect(head(anthropic.get(name)), `anthropic ${name}`).toBe(expected);
      if (e.gemini) expect(head(gemini.get(name)), `gemini ${name}`).toBe(expected);
    }
    // No provider writes a tool's description: each comes from the contract at load (runtime/provider-entries.ts).
    for (const e of entries) if (e.tool.description !== undefined) expect(text.includes(json(e.tool.description)), e.tool.name).toBe(false);
    const listed = [entries.filter((e) => e.openai).length, entries.filter((e) => e.anthropic).length, entries.filter((e) => e.gemini).length];
    expect([openai.size, anthropic.size, gemini.size]).toEqual(listed);
    expect(entries.length).toBeGreaterThan(0);
    // Each provider's schema of each tool is one reference to the served schema, and no schema is written out.
    expect(text.match(/Contract\.inputSchema\b/g)?.length ?? 0).toBe(listed[0]! + listed[1]! + listed[2]!);
    expect(text).not.toMatch(/\b(?:parameters|input_schema|parametersJsonSchema): \{/);
    for (const [form] of text.matchAll(/\b(?:openaiStrictParameters|anthropicStrictSchema|geminiParameters|unannotatedSchema)(?=\()/g))
      forms.set(form, (forms.get(form) ?? 0) + 1);
  }, 180_000);
});

describe("the sets above", () => {
  it("derive every form at run time somewhere: OpenAI's and Anthropic's strict forms, Gemini's and the unannotated one", () => {
    expect([...forms.keys()].sort()).toEqual(["anthropicStrictSchema", "geminiParameters", "openaiStrictParameters", "unannotatedSchema"]);
  });
});
