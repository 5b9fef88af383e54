/** Codegen at scale: full, no-op and one-edit `generate` on synthetic tools, output size, and a peer for the types. */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile as jsonSchemaToTs } from "json-schema-to-typescript";
import { syntheticTool, writeSyntheticDefinitions } from "./lib/synthetic.js";
import { tempProject, toolc } from "./lib/project.js";

export interface CodegenResult {
  readonly tools: number;
  readonly fullMs: number;
  readonly noopMs: number;
  readonly editMs: number;
  readonly validatorBytesPerTool: number;
  readonly outputBytesPerTool: number;
  readonly peerTypesMs: number;
  readonly peerSample: number;
}

function bytesUnder(dir: string, filter: (name: string) => boolean): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(full, filter);
    else if (filter(entry.name)) total += statSync(full).size;
  }
  return total;
}

/** json-schema-to-typescript on the served input and output schemas of `sample` tools, scaled to all. */
async function peerTypes(dir: string, tools: number, sample: number): Promise<number> {
  const schemas = readdirSync(join(dir, "generated/schemas"))
    .sort()
    .slice(0, sample)
    .map((f) => JSON.parse(readFileSync(join(dir, "generated/schemas", f), "utf8")));
  const t0 = performance.now();
  for (const { tool } of schemas) {
    for (const key of ["inputSchema", "outputSchema"]) await jsonSchemaToTs(tool[key], `${tool.name}_${key}`, { bannerComment: "" });
  }
  return ((performance.now() - t0) * tools) / schemas.length;
}

export async function benchCodegen(tools: number, peerSample: number): Promise<CodegenResult> {
  const dir = tempProject("codegen");
  writeSyntheticDefinitions(join(dir, "definitions"), tools);
  const env = { TOOLC_CACHE_DIR: mkdtempSync(join(tmpdir(), "toolc-bench-cache-")) };
  const args = ["generate", "--definitions", "definitions", "--out", "generated"];
  const fullMs = toolc(dir, args, env);
  const noopMs = toolc(dir, args, env);
  writeFileSync(join(dir, "definitions/tool_0500.yaml"), syntheticTool(500, ", edited"));
  const editMs = toolc(dir, args, env);
  const out = join(dir, "generated");
  // Validators are TypeScript modules (validators/<tool>.ts), written as they are shipped.
  const validatorBytesPerTool = bytesUnder(join(out, "validators"), (n) => n.endsWith(".ts") || n.endsWith(".js")) / tools;
  const outputBytesPerTool = bytesUnder(out, () => true) / tools;
  // The peer reads the served schemas as JSON, which schemas/*.json holds only when asked for (schemasJson): one untimed run writes them, after the sizes are taken.
  writeFileSync(join(dir, "toolc.config.yaml"), "definitions: definitions\nout: generated\nschemasJson: true\n");
  toolc(dir, ["generate"], env);
  return { tools, fullMs, noopMs, editMs, validatorBytesPerTool, outputBytesPerTool, peerTypesMs: await peerTypes(dir, tools, peerSample), peerSample };
}
