/**
 * Every exported provider schema follows that provider's documented rules,
 * checked by test/providers/provider-rules.ts, on the demo definitions, the
 * test fixtures and the GitHub MCP server's tools (imported by `toolc
 * import`). Keywords a provider cannot enforce are named in the description,
 * and a tool that cannot be strict says why, at its contract.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aiSdkEntry, providerCatalog, type ProviderEntry } from "../../generator/providers/catalog.js";
import { importContracts } from "../../generator/import/index.js";
import type { ContractIR, Diagnostic } from "../../generator/ir.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { ROOT } from "../compiler/helpers.js";
import { anthropicStrictViolations, geminiViolations, NAME_RULES, openaiStrictViolations } from "./provider-rules.js";

function compileDir(dir: string): { ir: ContractIR; diagnostics: readonly Diagnostic[] } {
  const { ir, diagnostics } = normalize(loadDefinitions(dir, { displayRoot: ROOT }));
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { ir, diagnostics };
}

function githubCorpus(): { ir: ContractIR; diagnostics: readonly Diagnostic[] } {
  const dir = mkdtempSync(join(tmpdir(), "toolc-providers-"));
  importContracts({ source: join(ROOT, "test/corpus/github-mcp-toolsnaps"), out: "definitions", cwd: dir });
  return compileDir(join(dir, "definitions"));
}

function violations(entries: readonly ProviderEntry[]): string[] {
  return entries.flatMap((e) => [
    ...(e.openai?.strict ? openaiStrictViolations(e.openai.parameters).map((v) => `openai ${e.tool.name} ${v}`) : []),
    ...(e.anthropic?.strict ? anthropicStrictViolations(e.anthropic.inputSchema).map((v) => `anthropic ${e.tool.name} ${v}`) : []),
    ...(e.gemini ? geminiViolations(e.gemini).map((v) => `gemini ${e.tool.name} ${v}`) : []),
    // The AI SDK sends the served schema to whichever provider it calls: a strict tool's must follow both strict subsets.
    ...(aiSdkEntry(e).strict ? [...openaiStrictViolations(e.tool.inputSchema), ...anthropicStrictViolations(e.tool.inputSchema)].map((v) => `ai-sdk ${e.tool.name} ${v}`) : []),
    ...(e.openai && !NAME_RULES.openai.test(e.tool.name) ? [`openai name ${e.tool.name}`] : []),
    ...(e.anthropic && !NAME_RULES.anthropic.test(e.tool.name) ? [`anthropic name ${e.tool.name}`] : []),
    ...(e.gemini && !NAME_RULES.gemini.test(e.tool.name) ? [`gemini name ${e.tool.name}`] : []),
  ]);
}

const SETS = [
  { label: "demo definitions", load: () => compileDir(join(ROOT, "definitions")), minStrict: 3, aiSdkStrict: 0 },
  { label: "billing fixture", load: () => compileDir(join(ROOT, "test/fixtures/billing")), minStrict: 1, aiSdkStrict: 1 },
  { label: "GitHub MCP tools", load: githubCorpus, minStrict: 100, aiSdkStrict: 0 },
];

describe.each(SETS)("$label", ({ load, minStrict, aiSdkStrict }) => {
  const { ir, diagnostics } = load();
  const { entries } = providerCatalog(ir.tools);

  it("exports only schemas that follow each provider's documented rules", () => {
    expect(violations(entries)).toEqual([]);
  });

  // Most contracts have an optional property, which OpenAI's strict form must rewrite: those stay non-strict for the AI SDK.
  it(`makes ${aiSdkStrict} tools strict for the AI SDK, those whose served schema needs no rewriting`, () => {
    expect(entries.filter((e) => aiSdkEntry(e).strict).length).toBe(aiSdkStrict);
  });

  it("exports most tools strict, and warns at the contract for each that is not", () => {
    const strict = entries.filter((e) => e.openai?.strict).length;
    expect(strict).toBeGreaterThanOrEqual(minStrict);
    const notStrict = entries.filter((e) => e.openai && !e.openai.strict).map((e) => e.tool.source);
    const warned = diagnostics.filter((d) => d.code === "TC070").map((d) => d.file);
    expect(warned.length).toBe(notStrict.length);
    for (const source of notStrict) expect(warned.some((file) => file.endsWith(source))).toBe(true);
  });
});

describe("the checkers fail on what the providers reject", () => {
  it("OpenAI: optional properties, open objects, unsupported keywords and formats", () => {
    const schema = { type: "object", properties: { a: { type: "string", minLength: 1, format: "uri" }, b: { type: "object" } }, required: ["a"], additionalProperties: false };
    expect(openaiStrictViolations(schema)).toEqual(["$: not every property is required", "$.a: keyword minLength", "$.a: format uri", "$.b: object without additionalProperties: false"]);
  });
  it("Anthropic: numeric bounds, minItems above 1 and recursion", () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 }, l: { type: "array", minItems: 2, items: { $ref: "#/$defs/T" } } }, additionalProperties: false, $defs: { T: { type: "object", properties: { c: { $ref: "#/$defs/T" } }, additionalProperties: false } } };
    expect(anthropicStrictViolations(schema)).toEqual(["$.n: keyword minimum", "$.l: minItems 2", "$defs.T: recursive"]);
  });
  it("Gemini: pattern and length bounds", () => {
    expect(geminiViolations({ type: "object", properties: { s: { type: "string", pattern: "^a", maxLength: 3 } } })).toEqual(["$.s: keyword pattern", "$.s: keyword maxLength"]);
  });
});
