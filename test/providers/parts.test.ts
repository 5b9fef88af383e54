/**
 * providers.ts past its size budget (generator/emit/providers/module.ts
 * `emitProvidersFiles`): each provider's tool list goes into parts under
 * providers/, which providers.ts joins into the same list. Pinned on the
 * GitHub MCP tools with a small budget, which splits the way a 1,223-tool
 * API does at the real one: every part is under the budget, and the module
 * exports the same names with the same values as the one-file module. What
 * stays in providers.ts grows by a line or two per tool (GitHub's 1,223
 * tools: about 0.65 MB). No part writes a schema: each refers to the
 * contract's served schema (module-values.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { emitProvidersFiles, PROVIDERS_PART_BYTES } from "../../generator/emit/providers/module.js";
import type { EmittedFile } from "../../generator/ir.js";
import { importContracts } from "../../generator/import/index.js";
import { compile } from "../../generator/pipeline/run.js";
import { ROOT } from "../compiler/helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes the output folder with `providers` in place of its providers.ts, and evaluates providers.ts. */
async function evaluated(files: readonly EmittedFile[], providers: readonly EmittedFile[]): Promise<Record<string, unknown>> {
  const out = mkdtempSync(join(tmpdir(), "toolc-provider-parts-"));
  dirs.push(out);
  symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"), "dir");
  for (const file of [...files.filter((f) => f.root === undefined && f.path !== "providers.ts"), ...providers]) {
    mkdirSync(dirname(join(out, "generated", file.path)), { recursive: true });
    writeFileSync(join(out, "generated", file.path), file.text);
  }
  return (await import(pathToFileURL(join(out, "generated/providers.ts")).href)) as Record<string, unknown>;
}

/** The names a module imports that its code never uses (strict flags' noUnusedLocals refuses them). */
function unusedImports(text: string): string[] {
  const names = [...text.matchAll(/^import (?:type )?\{([^}]*)\} from/gm)].flatMap((m) =>
    m[1]!.split(",").map((n) =>
      n
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
    ),
  );
  return names.filter((name) => name !== "" && text.split(new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`)).length < 3);
}

/** What a caller reads of each export: the tool lists and request tools as JSON, the functions by name. */
function observed(module: Record<string, unknown>): string {
  return JSON.stringify(module, (_key, value: unknown) => (typeof value === "function" ? `function ${value.name}` : value));
}

describe("providers.ts past its size budget", () => {
  it("puts the tool lists into parts under the budget, with the same exports and values", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolc-provider-parts-defs-"));
    dirs.push(cwd);
    importContracts({ source: join(ROOT, "test/corpus/github-mcp-toolsnaps"), out: "definitions", cwd });
    const { files, ir, diagnostics } = await compile("definitions", "generated", cwd);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const whole = files!.find((f) => f.path === "providers.ts")!;
    // Under the real budget these 117 tools keep the one file, as before the split existed.
    expect(emitProvidersFiles(ir!).map((f) => f.path)).toEqual(["providers.ts"]);
    expect(whole.text.length).toBeLessThan(PROVIDERS_PART_BYTES);

    const budget = 20_000;
    const split = emitProvidersFiles(ir!, budget);
    const paths = split.map((f) => f.path);
    expect(paths[0]).toBe("providers.ts");
    for (const provider of ["openai", "anthropic", "gemini"])
      expect(paths.filter((p) => p.startsWith(`providers/${provider}-`)).length, provider).toBeGreaterThan(1);
    for (const part of split.slice(1)) expect(part.text.length, part.path).toBeLessThanOrEqual(budget);
    for (const file of split) expect(unusedImports(file.text), file.path).toEqual([]);
    // What stays in providers.ts is a line or two per tool (the contract maps, the null plans, the AI SDK's settings); the lists, a few lines per tool, went into the parts.
    expect(split[0]!.text.length).toBeLessThan(whole.text.length / 2);

    const [one, parts] = [await evaluated(files!, [whole]), await evaluated(files!, split)];
    expect(Object.keys(parts).sort()).toEqual(Object.keys(one).sort());
    expect(observed(parts)).toBe(observed(one));
    expect((one["openai"] as { tools: unknown[] }).tools).toHaveLength(ir!.tools.length);
  }, 180_000);
});
