/**
 * The library API's compile (pipeline/run.ts) gives every file a run writes,
 * the run-level ones included: a project with a view gets views.ts, which its
 * index.ts imports (the type-check fixtures compile through it).
 */
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../generator/pipeline/run.js";
import { ROOT } from "../compiler/helpers.js";

/** The relative modules `text` imports, as paths of .ts files beside `path`. */
function relativeImports(path: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from |import\()"(\.\.?\/[^"]+)\.js"/g)].map((m) => m[1]!);
  return specifiers.map((s) => normalize(join(dirname(path), `${s}.ts`)));
}

describe("compile", () => {
  it.each(["definitions", "test/fixtures/apps"])("gives %s's views.ts, and every module its files import", async (definitions) => {
    const { files, diagnostics } = await compile(definitions, "generated", ROOT);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const out = (files ?? []).filter((f) => f.root !== "tests");
    const paths = new Set(out.map((f) => f.path));
    expect(paths).toContain("views.ts");
    const missing = out.flatMap((f) => relativeImports(f.path, f.text).filter((p) => !paths.has(p)).map((p) => `${f.path} imports ${p}`));
    expect(missing).toEqual([]);
  });
});
