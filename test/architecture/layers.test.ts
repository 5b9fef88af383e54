/**
 * The layers of toolc's own source (.dependency-cruiser.cjs, drawn in
 * docs/architecture.md): the generator as it is has no backward import and
 * no cycle, and each rule fires on a small tree that breaks it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;

async function violations(baseDir: string): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions(join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(join(baseDir, "tsconfig.json"));
  const result = await cruise(["generator"], { ...options, baseDir }, undefined, { tsConfig });
  return (result.output as ICruiseResult).summary.violations;
}

const describeViolation = (v: IViolation): string => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`;

/** A tree of modules under `generator/`, each importing the ones listed, with a tsconfig that resolves `.js` to `.ts` as toolc's does. */
function tree(modules: Record<string, readonly string[]>): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-layers-"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true }, include: ["generator"] }));
  for (const [path, imports] of Object.entries(modules)) {
    const file = join(dir, "generator", path);
    mkdirSync(dirname(file), { recursive: true });
    const lines = imports.map((target, i) => `import * as m${i} from "${relativeSpecifier(path, target)}";\nexport const use${i} = m${i};`);
    writeFileSync(file, `${lines.join("\n")}\nexport const here = ${JSON.stringify(path)};\n`);
  }
  return dir;
}

/** `target` as imported from `from` (both relative to generator/), with the `.js` extension toolc's sources use. */
function relativeSpecifier(from: string, target: string): string {
  const up = from.split("/").slice(0, -1).map(() => "..");
  return [...(up.length === 0 ? ["."] : up), target.replace(/\.ts$/, ".js")].join("/");
}

describe("toolc's layers", () => {
  it("the generator has no backward import and no cycle", async () => {
    expect((await violations(ROOT)).map(describeViolation)).toEqual([]);
  });

  it.each([
    ["load importing normalize", { "load/a.ts": ["normalize/b.ts"], "normalize/b.ts": [] }, "load-before-normalize"],
    ["normalize importing emit", { "normalize/a.ts": ["emit/b.ts"], "emit/b.ts": [] }, "normalize-before-emit"],
    ["emit importing write", { "emit/a.ts": ["write/b.ts"], "write/b.ts": [] }, "emit-before-write"],
    ["emit importing the pipeline", { "emit/a.ts": ["pipeline/b.ts"], "pipeline/b.ts": [] }, "emit-before-write"],
    ["write importing a command", { "write/a.ts": ["commands/b.ts"], "commands/b.ts": [] }, "write-last"],
    ["the schema toolkit importing load", { "schema/a.ts": ["load/b.ts"], "load/b.ts": [] }, "foundation-below-phases"],
    ["the pipeline importing a command", { "pipeline/a.ts": ["commands/b.ts"], "commands/b.ts": [] }, "pipeline-below-commands"],
    ["a command importing cli.ts", { "commands/a.ts": ["cli.ts"], "cli.ts": [] }, "cli-is-the-entry"],
    ["the runtime importing the generator", { "runtime/a.ts": ["ir.ts"], "ir.ts": [] }, "runtime-standalone"],
    ["two modules importing each other", { "emit/a.ts": ["emit/b.ts"], "emit/b.ts": ["emit/a.ts"] }, "no-cycle"],
  ] as const)("refuses %s", async (_, modules, rule) => {
    const found = await violations(tree(modules));
    expect(found.map((v) => v.rule.name)).toContain(rule);
  });

  it("allows every phase to import the ones before it", async () => {
    const modules = {
      "ir.ts": [],
      "load/a.ts": ["ir.ts"],
      "normalize/a.ts": ["load/a.ts", "ir.ts"],
      "emit/a.ts": ["normalize/a.ts"],
      "write/a.ts": ["emit/a.ts"],
      "pipeline/a.ts": ["write/a.ts", "emit/a.ts"],
      "commands/a.ts": ["pipeline/a.ts"],
      "cli.ts": ["commands/a.ts"],
      "runtime/a.ts": ["runtime/b.ts"],
      "runtime/b.ts": [],
    };
    expect((await violations(tree(modules))).map(describeViolation)).toEqual([]);
  });
});
