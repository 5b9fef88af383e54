/**
 * What deferred loading saves: the size of the tool definitions a model
 * request carries, and of those the model reads up front, with every tool
 * eager and with every tool deferred, for Anthropic's Messages API, the
 * OpenAI Responses API and the AI SDK. Tokens are estimated as characters
 * / 4 of the JSON, the same for every surface (docs/surfaces.md).
 *
 * Eager and deferred come from one generated providers.ts: a deferred
 * tool's definition is its eager one with the provider's flag, so the eager
 * request is the tools without the flag, and the deferred request is the
 * provider's search tool, then every tool with the flag. Anthropic and
 * OpenAI still send a deferred tool's definition (the server loads it when
 * its search finds it), so the request shrinks little while the context the
 * model reads shrinks to the search tool; the AI SDK sends a deferred tool
 * only once its toolSearch() found it.
 *
 * Run: `npm run build && npx tsx bench/deferred-size.ts` for the demo and
 * GitHub's REST API, imported and generated into a temp folder (minutes);
 * `GITHUB_DIR=<folder>` reuses a project already imported and generated.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { toolSearch } from "ai";
import { ROOT, tempProject, toolc } from "./lib/project.js";

interface Providers {
  readonly anthropic: { readonly tools: readonly object[]; readonly toolSearch: object };
  readonly openai: { readonly responsesTools: readonly object[] };
  readonly contracts: Readonly<Record<string, { readonly description?: string; readonly inputSchema: object }>>;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");
const tokens = (value: unknown): number => Math.round(JSON.stringify(value).length / 4);

function without<T extends object>(tool: T, key: string): T {
  const copy = { ...tool } as Record<string, unknown>;
  delete copy[key];
  return copy as T;
}

interface Row {
  readonly surface: string;
  readonly eager: unknown[];
  /** What the deferred request sends, and what of it the model reads before any search. */
  readonly deferredRequest: unknown[];
  readonly deferredContext: unknown[];
}

function rows(p: Providers): Row[] {
  const anthropicEager = p.anthropic.tools.map((t) => without(t, "defer_loading"));
  const responsesEager = p.openai.responsesTools.map((t) => without(t, "defer_loading"));
  const search = toolSearch();
  // The AI SDK hands a provider each tool's name, description and JSON Schema; toolSearch() is one such tool.
  const aiSdkTool = (name: string, description: string | undefined, inputSchema: object) => ({ type: "function", name, description, inputSchema });
  const aiSdkEager = Object.entries(p.contracts).map(([name, c]) => aiSdkTool(name, c.description, c.inputSchema));
  const aiSdkSearch = aiSdkTool("toolSearch", typeof search.description === "string" ? search.description : undefined, {
    type: "object",
    properties: { query: { type: "string", minLength: 1 } },
    required: ["query"],
    additionalProperties: false,
  });
  return [
    {
      surface: "Anthropic Messages",
      eager: anthropicEager,
      deferredRequest: [p.anthropic.toolSearch, ...anthropicEager.map((t) => ({ ...t, defer_loading: true }))],
      deferredContext: [p.anthropic.toolSearch],
    },
    {
      surface: "OpenAI Responses",
      eager: responsesEager,
      deferredRequest: [{ type: "tool_search" }, ...responsesEager.map((t) => ({ ...t, defer_loading: true }))],
      deferredContext: [{ type: "tool_search" }],
    },
    { surface: "AI SDK", eager: aiSdkEager, deferredRequest: [aiSdkSearch], deferredContext: [aiSdkSearch] },
  ];
}

async function load(generated: string): Promise<Providers> {
  const providers = (await import(join(generated, "providers.ts"))) as Omit<Providers, "contracts">;
  // contracts.ts exports one contract per tool (index.ts's `contracts` map would load the server too).
  const module = (await import(join(generated, "contracts.ts"))) as Record<string, { name?: string; description?: string; inputSchema?: object }>;
  const contracts: Record<string, { description?: string; inputSchema: object }> = {};
  for (const c of Object.values(module))
    if (typeof c.name === "string" && c.inputSchema !== undefined) contracts[c.name] = { ...c, inputSchema: c.inputSchema };
  return { ...providers, contracts };
}

function report(project: string, p: Providers): void {
  const kb = (n: number): string => `${(n / 1000).toFixed(1)} kB`;
  console.log(`\n${project} (${Object.keys(p.contracts).length} tools)`);
  console.log("surface            | eager request          | deferred request       | deferred, read up front");
  for (const r of rows(p)) {
    const cell = (v: unknown[]): string => `${kb(bytes(v))}, ~${tokens(v).toLocaleString("en")} tokens`.padEnd(22);
    console.log(`${r.surface.padEnd(18)} | ${cell(r.eager)} | ${cell(r.deferredRequest)} | ${cell(r.deferredContext)}`);
  }
}

function githubProject(): string {
  if (process.env.GITHUB_DIR !== undefined) return process.env.GITHUB_DIR;
  const dir = tempProject("deferred-github");
  const spec = join(dir, "github.json");
  writeFileSync(spec, gunzipSync(readFileSync(join(ROOT, "test/import/openapi/fixtures/github/api.github.com.json.gz"))));
  writeFileSync(join(dir, "openapi.curation.yaml"), "env: GITHUB\nsecuritySchemes:\n  token: { type: http, scheme: bearer }\nsecurity: [[token]]\n");
  writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nloading: { default: deferred }\n");
  toolc(dir, ["import", "openapi", spec]);
  toolc(dir, ["generate"]);
  return dir;
}

report("demo", await load(join(ROOT, "generated")));
report("GitHub REST API", await load(join(githubProject(), "generated")));
