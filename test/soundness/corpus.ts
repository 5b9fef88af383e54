/**
 * The corpus of real tool schemas (GitHub MCP server input schemas; the
 * reference servers' input and output schemas), compiled by the real
 * pipeline: each tool becomes a contract file, normalize closes its objects
 * as it would for a user, and the emitted files land in a temp project so
 * the check file can import the generated types.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compile } from "../../generator/pipeline/run.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import type { Diagnostic, ToolIR } from "../../generator/ir.js";

const CORPUS = join(new URL("../../", import.meta.url).pathname, "test/corpus");

interface CorpusTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** Where it came from, for the report. */
  origin: string;
}

export function corpusTools(): CorpusTool[] {
  const github = join(CORPUS, "github-mcp-toolsnaps");
  const tools: CorpusTool[] = readdirSync(github)
    .filter((f) => f.endsWith(".snap"))
    .map((f) => ({ ...(JSON.parse(readFileSync(join(github, f), "utf8")) as CorpusTool), outputSchema: undefined, origin: "github" }));
  const ref = join(CORPUS, "mcp-reference-servers");
  for (const f of readdirSync(ref).filter((n) => n.endsWith(".tools.json"))) {
    const doc = JSON.parse(readFileSync(join(ref, f), "utf8")) as { tools: CorpusTool[] };
    tools.push(...doc.tools.map((t) => ({ ...t, origin: f.replace(".tools.json", "") })));
  }
  return tools;
}

/** `$schema` (draft-07 in the reference servers) is not part of a contract; the served dialect is 2020-12. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, ...rest } = schema;
  return rest;
}

/** A contract file for one corpus tool; JSON is YAML, so no YAML writer is needed. */
function contractText(tool: CorpusTool, name: string): string {
  const a = tool.annotations ?? {};
  const effect = a.destructiveHint ? "destructive" : a.readOnlyHint ? "read" : "write";
  const output = tool.outputSchema ? withoutDialect(tool.outputSchema) : { type: "object", additionalProperties: true };
  const description = tool.description?.trim() || name;
  return JSON.stringify({ name, version: 1, description, effect, input: withoutDialect(tool.inputSchema), output }, null, 2) + "\n";
}

export interface CompiledCorpus {
  readonly tools: ToolIR[];
  /** Tool file stem → why the pipeline refused it. */
  readonly refused: Map<string, string>;
}

function fileOf(d: Diagnostic): string {
  return d.file.split("/").pop() ?? d.file;
}

/**
 * Writes the corpus as definitions under `dir/definitions`, drops the tools
 * the pipeline refuses (with the first error as the reason), and writes the
 * compiled output to `dir/out`. Names get the origin as prefix: two servers
 * may both have a tool called, say, `echo`.
 */
export async function compileCorpus(dir: string): Promise<CompiledCorpus> {
  const defs = join(dir, "definitions");
  mkdirSync(defs, { recursive: true });
  const texts = new Map<string, string>();
  for (const tool of corpusTools()) texts.set(`${tool.origin}__${tool.name}`.replace(/[^A-Za-z0-9_]/g, "_"), contractText(tool, `${tool.origin}__${tool.name}`.replace(/[^A-Za-z0-9_-]/g, "_")));
  const refused = new Map<string, string>();
  for (;;) {
    for (const [stem, text] of texts) writeFileSync(join(defs, `${stem}.yaml`), text);
    const { ir, diagnostics } = normalize(loadDefinitions(defs, { displayRoot: dir }));
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (errors.length === 0) {
      const { files } = await compile("definitions", "out", dir);
      for (const f of files ?? []) {
        mkdirSync(dirname(join(dir, "out", f.path)), { recursive: true });
        writeFileSync(join(dir, "out", f.path), f.text);
      }
      return { tools: [...ir.tools], refused };
    }
    for (const e of errors) {
      const stem = fileOf(e).replace(/\.yaml$/, "");
      if (!texts.has(stem)) throw new Error(`corpus: unexpected diagnostic ${e.file}:${e.line}: ${e.message}`);
      if (!refused.has(stem)) refused.set(stem, `${e.code}: ${e.message}`);
      texts.delete(stem);
    }
    for (const stem of refused.keys()) rmSync(join(defs, `${stem}.yaml`), { force: true });
  }
}
