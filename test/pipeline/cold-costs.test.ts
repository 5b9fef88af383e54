/**
 * What a cold `generate` of a large API does once instead of again (issue
 * #42): a build-cache entry holds a packed file's deflated bytes (its text
 * is not inflated to be written), the run's manifest hashes each file from
 * the bytes the write inflated, and the tools' schemas are checked against
 * the 2020-12 meta-schema in one instance whose meta-schema validator
 * survives the shared instances' releases. Each is read through the real
 * parts: the packed files, the write, the compile of the demo's contract.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { releaseSharedAjv } from "../../generator/ajv-shared.js";
import { compileToolValidator } from "../../generator/emit/validators.js";
import { hashText } from "../../generator/hash.js";
import type { EmittedFile, JsonObject } from "../../generator/ir.js";
import { parseYamlSource } from "../../generator/load/yaml-source.js";
import { compileToolSchema } from "../../generator/normalize/compile.js";
import { contentHash, contentOf, packedBytes, packedFile, restoredEntry, storedEntry } from "../../generator/pipeline/packed-files.js";
import type { ToolEntry } from "../../generator/pipeline/compile-tool.js";
import { applyOutput } from "../../generator/write/apply.js";
import { planOutput } from "../../generator/write/output.js";

afterEach(() => {
  releaseSharedAjv();
  vi.restoreAllMocks();
});

const large: EmittedFile = { path: "tools/x.ts", text: `// é ✓ \u{1F600}\n${"export const x = 1;\n".repeat(200)}` };
const small: EmittedFile = { path: "a.json", text: "{}\n" };

describe("a cold generate's repeated costs", () => {
  it("stores a packed file in a cache entry as its deflated bytes, and restores it packed, byte for byte", () => {
    const entry = { tool: { name: "x" }, diagnostics: [], files: [packedFile(large), small] } as unknown as ToolEntry;
    const text = vi.spyOn(Object.getOwnPropertyDescriptor(entry.files[0]!, "text")!, "get");
    const written = JSON.stringify(storedEntry(entry));
    // The entry's JSON holds the bytes (base64), not the text: nothing was inflated to write it.
    expect(written).not.toContain("export const x");
    expect(written.length).toBeLessThan(large.text.length / 2);
    expect(text).not.toHaveBeenCalled();
    const restored = restoredEntry(JSON.parse(written));
    expect(packedBytes(restored.files[0]!)).toBe(packedBytes(entry.files[0]!));
    expect(restored.files.map((f) => ({ path: f.path, text: f.text }))).toEqual([large, small].map((f) => ({ path: f.path, text: f.text })));
  });

  it("hashes a written file from the bytes the write inflated, as hashText hashes its text", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-cold-costs-"));
    try {
      const files = [packedFile(large), small];
      const layout = { out: join(dir, "generated") };
      const hashes = new Map<EmittedFile, string>();
      applyOutput(planOutput(files, layout), layout, (file, content) => hashes.set(file, contentHash(file, content)));
      expect(contentOf(files[0]!)).toBeInstanceOf(Uint8Array);
      for (const file of [large, small]) {
        expect(hashes.get(files.find((f) => f.path === file.path)!)).toBe(hashText(file.text));
        expect(hashText(readFileSync(join(layout.out, file.path), "utf8"))).toBe(hashText(file.text));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks tools' schemas against the 2020-12 meta-schema without compiling its validator again after a release", () => {
    const file = parseYamlSource("input:\n  type: object\n", "t.yaml", "t.yaml").file;
    const schema = (): JsonObject => ({ type: "object", properties: { id: { type: "string" } } });
    expect(compileToolSchema(schema(), {}, file, ["input"], true, compileToolValidator).diagnostics).toEqual([]);
    // Ajv compiles a schema it was handed by key (the meta-schema's, in validateSchema) through _compileSchemaEnv.
    const compiles = vi.spyOn(Ajv2020.prototype as unknown as { _compileSchemaEnv: (env: { schema: unknown }) => unknown }, "_compileSchemaEnv");
    releaseSharedAjv();
    expect(compileToolSchema(schema(), {}, file, ["input"], true, compileToolValidator).diagnostics).toEqual([]);
    const metaCompiles = compiles.mock.calls.filter(([env]) => (env.schema as { $id?: string }).$id === "https://json-schema.org/draft/2020-12/schema");
    expect(metaCompiles).toHaveLength(0);
  });

  it("still locates a schema the 2020-12 meta-schema refuses, after a release", () => {
    const file = parseYamlSource("input:\n  type: object\n  minProperties: -1\n", "t.yaml", "t.yaml").file;
    releaseSharedAjv();
    const { diagnostics } = compileToolSchema({ type: "object", minProperties: -1 }, {}, file, ["input"], true, compileToolValidator);
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([["TC031", "t.yaml", 2]]);
  });
});
