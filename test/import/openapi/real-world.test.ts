/**
 * Published API descriptions nobody here wrote, as a new user would import
 * them (issue #38; test/corpus/README.md says where each comes from): each
 * imports without an exception and compiles with `toolc generate`, and
 * Notion's, imported with no curation file, meets the done-when:
 * every field Notion's own server requires is required, no write is retried
 * without an idempotency key, and every 2xx JSON answer is structured output.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../../compiler/helpers.js";
import { importSpec, scratchProject, type Imported, type Obj } from "./helpers.js";

const CORPUS = join(ROOT, "test/corpus/openapi");

interface Description {
  readonly name: string;
  readonly file: string;
  readonly operations: number;
  readonly tools: number;
}

const DESCRIPTIONS: readonly Description[] = [
  { name: "notion", file: "notion/notion-openapi.json", operations: 24, tools: 24 },
  { name: "twilio", file: "twilio/twilio_api_v2010.json", operations: 197, tools: 197 },
  { name: "readme-callbacks", file: "readme/callbacks.json", operations: 1, tools: 1 },
  // Two multipart uploads are tools (multipart.test.ts calls them); the image/png upload is skipped with one warning.
  { name: "readme-file-uploads", file: "readme/file-uploads.json", operations: 3, tools: 2 },
  { name: "readme-polymorphism", file: "readme/polymorphism.json", operations: 13, tools: 13 },
  { name: "readme-discriminators", file: "readme/discriminators.json", operations: 10, tools: 10 },
];

async function importAndGenerate(description: Description): Promise<Imported & { generate: { code: number; stdout: string; stderr: string } }> {
  const dir = scratchProject(`real-${description.name}`, { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
  const imported = await importSpec(join(CORPUS, description.file), undefined, {}, dir);
  // Nothing to compile when every operation was skipped.
  const generate = imported.result.tools.length === 0 ? { code: 0, stdout: "", stderr: "" } : await runCli(dir, ["generate"]);
  return { ...imported, generate };
}

describe.each(DESCRIPTIONS)("$name", (description) => {
  it("imports without an error and compiles with toolc generate", { timeout: 600_000 }, async () => {
    const imported = await importAndGenerate(description);
    expect(imported.result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect({ operations: imported.result.operations, tools: imported.result.tools.length }).toEqual({ operations: description.operations, tools: description.tools });
    expect(imported.result.skipped).toHaveLength(description.operations - description.tools);
    if (description.tools === 0) return;
    expect(imported.generate.stderr.split("\n").filter((l) => / error /.test(l))).toEqual([]);
    expect(imported.generate.code).toBe(0);
  });
});

/** The required properties of each operation's request body, as Notion's description (and its own MCP server) has them. */
function bodyRequired(spec: Obj): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of Object.values(spec.paths as Record<string, Record<string, Obj>>)) {
    for (const op of Object.values(item)) {
      const schema = ((op.requestBody as Obj | undefined)?.content as Record<string, Obj> | undefined)?.["application/json"]?.schema as Obj | undefined;
      if (Array.isArray(schema?.required) && typeof op.operationId === "string") out.set(op.operationId, schema.required as string[]);
    }
  }
  return out;
}

describe("Notion, imported with no curation file", () => {
  it("meets the done-when: required fields required, no write retried without a key, every 2xx structured, the unused scheme said", { timeout: 600_000 }, async () => {
    const spec = JSON.parse(readFileSync(join(CORPUS, "notion/notion-openapi.json"), "utf8")) as Obj;
    const { contracts, result, messages } = await importSpec(join(CORPUS, "notion/notion-openapi.json"));
    const required = bodyRequired(spec);
    expect([...required.keys()].sort()).toEqual(["create-a-comment", "create-a-data-source", "move-page", "patch-block-children", "post-page", "update-page-markdown"]);
    for (const [operation, fields] of required) {
      const input = contracts[operation]!.input as { required?: string[]; properties: Obj };
      const where = Object.hasOwn(input.properties, "body") ? ["body"] : fields;
      expect({ operation, required: where.filter((f) => input.required?.includes(f)) }).toEqual({ operation, required: where });
    }
    for (const tool of result.tools) {
      const contract = contracts[tool.name]!;
      // A write is retried only when repeating it cannot apply it twice.
      if (contract.effect !== "read" && contract.retry !== undefined)
        expect({ tool: tool.name, safe: contract.idempotent === true || typeof contract.idempotencyKey === "string" }).toEqual({ tool: tool.name, safe: true });
      expect({ tool: tool.name, success: tool.binding.success, content: contract.content }).toEqual({ tool: tool.name, success: { kind: "json" }, content: undefined });
    }
    expect(["patch-block-children", "post-page", "create-a-comment", "move-page", "update-page-markdown"].map((t) => contracts[t]!.retry)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(messages).toContainEqual(expect.stringMatching(/securitySchemes\/basicAuth: no operation applies security scheme "basicAuth"/));
  });
});
