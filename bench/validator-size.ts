/**
 * Bytes of generated validator code per tool (input + output in one module),
 * on real tool schemas from ../shared/corpus: the MCP reference servers (with
 * their outputSchemas) and GitHub's MCP server (input only).
 *
 * Run: npx tsx bench/validator-size.ts
 *
 * Schemas are closed the way normalize closes them (additionalProperties:
 * false where unset) and `$schema` is dropped; a tool without an outputSchema
 * gets the smallest closed object. Schemas toolc's strict mode refuses are
 * counted and skipped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { standaloneModule } from "../generator/emit/validators.js";
import type { JsonObject, JsonValue } from "../generator/ir.js";

const CORPUS = new URL("../../shared/corpus/", import.meta.url).pathname;
const EMPTY_OUTPUT: JsonObject = { type: "object", additionalProperties: false };

interface Tool {
  readonly name: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
}

/** normalize's closed-object default, approximately: every object schema without additionalProperties. */
function close(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(close);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "$schema") continue;
    out[key] = key === "enum" || key === "const" || key === "default" ? v : close(v);
  }
  const isObject = out.type === "object" || out.properties !== undefined;
  if (isObject && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function referenceServerTools(): Tool[] {
  const dir = join(CORPUS, "mcp-reference-servers");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".tools.json"))
    .sort()
    .flatMap((f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { tools: Tool[] }).tools);
}

function githubTools(): Tool[] {
  const dir = join(CORPUS, "github-mcp-toolsnaps");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".snap"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Tool);
}

function measure(label: string, tools: readonly Tool[]): void {
  const sizes: number[] = [];
  const skipped: string[] = [];
  for (const tool of tools) {
    try {
      const js = standaloneModule([
        { exportName: "validateInput", schema: close(tool.inputSchema) as JsonObject, applyDefaults: true },
        { exportName: "validateOutput", schema: close(tool.outputSchema ?? EMPTY_OUTPUT) as JsonObject, applyDefaults: false },
      ]);
      sizes.push(Buffer.byteLength(js));
    } catch (e) {
      skipped.push(`${tool.name}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  sizes.sort((a, b) => a - b);
  const total = sizes.reduce((a, b) => a + b, 0);
  const kb = (n: number) => (n / 1024).toFixed(2);
  console.log(
    `${label}: ${sizes.length} tools, average ${kb(total / sizes.length)} KB, median ${kb(sizes[sizes.length >> 1])} KB, max ${kb(sizes[sizes.length - 1])} KB`,
  );
  for (const s of skipped) console.log(`  skipped ${s}`);
}

measure("MCP reference servers (input + output)", referenceServerTools());
measure("GitHub MCP server (input + empty output)", githubTools());
