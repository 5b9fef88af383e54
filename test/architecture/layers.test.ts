/**
 * The layers of toolc's own source (.dependency-cruiser.cjs, drawn in
 * docs/architecture.md): the generator as it is has no backward import and
 * no cycle, and each rule fires on a small tree that breaks it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The resolver's rootDirs plugin, as the config names it for the cruiser's CLI, made for the tree cruised. */
const { resolveOptions } = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser-resolve.cjs")) as { resolveOptions(baseDir: string): object };

async function cruiseTree(baseDir: string): Promise<ICruiseResult> {
  const { webpackConfig: _, ...options } = await extractDepcruiseOptions(join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(join(baseDir, "tsconfig.json"));
  const result = await cruise(["generator"], { ...options, baseDir }, resolveOptions(baseDir), { tsConfig });
  return result.output as ICruiseResult;
}

async function violations(baseDir: string): Promise<IViolation[]> {
  return (await cruiseTree(baseDir)).summary.violations;
}

const describeViolation = (v: IViolation): string => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`;

/** A tree of modules under `generator/`, each importing the ones listed, with a tsconfig that resolves `.js` to `.ts` as toolc's does. */
function tree(modules: Record<string, readonly string[]>, rootDirs?: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-layers-"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true, rootDirs }, include: ["generator"] }),
  );
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
  const up = from
    .split("/")
    .slice(0, -1)
    .map(() => "..");
  return [...(up.length === 0 ? ["."] : up), target.replace(/\.ts$/, ".js")].join("/");
}

describe("toolc's layers", () => {
  it("the generator has no backward import and no cycle", async () => {
    expect((await violations(ROOT)).map(describeViolation)).toEqual([]);
  });

  // Each row plants one arrow that must not exist; that rule, and only it, fails.
  it.each([
    ["core (normalize) importing a target (emit)", { "normalize/a.ts": ["emit/b.ts"], "emit/b.ts": [] }, "core-imports-no-target"],
    ["core (the IR) importing a target folder", { "ir.ts": ["targets/x/index.ts"], "targets/x/index.ts": [] }, "core-imports-no-target"],
    ["core (diff) importing the printer", { "diff/a.ts": ["printer/b.ts"], "printer/b.ts": [] }, "core-below-printer-and-pipeline"],
    ["core (config) importing the pipeline", { "config/a.ts": ["pipeline/b.ts"], "pipeline/b.ts": [] }, "core-below-printer-and-pipeline"],
    ["the schema toolkit importing load", { "schema/a.ts": ["load/b.ts"], "load/b.ts": [] }, "shared-below-core-phases"],
    ["load importing normalize", { "load/a.ts": ["normalize/b.ts"], "normalize/b.ts": [] }, "load-before-normalize"],
    ["normalize importing diff", { "normalize/a.ts": ["diff/b.ts"], "diff/b.ts": [] }, "normalize-before-diff"],
    ["the printer importing normalize", { "printer/a.ts": ["normalize/b.ts"], "normalize/b.ts": [] }, "printer-imports-core-only"],
    ["the printer importing a target", { "printer/a.ts": ["emit/b.ts"], "emit/b.ts": [] }, "printer-imports-core-only"],
    ["a target importing write", { "emit/a.ts": ["write/b.ts"], "write/b.ts": [] }, "target-below-pipeline"],
    ["a target importing a command", { "targets/x/a.ts": ["commands/b.ts"], "commands/b.ts": [] }, "target-below-pipeline"],
    [
      "a target importing another's internals",
      { "targets/x/a.ts": ["targets/y/internal.ts"], "targets/y/internal.ts": [] },
      "target-imports-published-symbols",
    ],
    ["write importing a command", { "write/a.ts": ["commands/b.ts"], "commands/b.ts": [] }, "pipeline-below-commands"],
    ["the pipeline importing the docs command", { "pipeline/a.ts": ["docs/cli.ts"], "docs/cli.ts": [] }, "pipeline-below-commands"],
    ["a command importing a command library", { "commands/a.ts": ["import/b.ts"], "import/b.ts": [] }, "commands-below-their-libraries"],
    ["a command importing cli.ts", { "commands/a.ts": ["cli.ts"], "cli.ts": [] }, "cli-is-the-entry"],
    ["the runtime importing the generator", { "runtime/a.ts": ["ir.ts"], "ir.ts": [] }, "runtime-standalone"],
    ["two modules importing each other", { "emit/a.ts": ["emit/b.ts"], "emit/b.ts": ["emit/a.ts"] }, "no-cycle"],
    ["an import that resolves nowhere", { "emit/a.ts": ["emit/missing.ts"] }, "no-unresolvable"],
  ] as const)("refuses %s", async (_, modules, rule) => {
    const found = await violations(tree(modules));
    expect(found.map((v) => v.rule.name)).toEqual([rule]);
  });

  it.each([
    ["the pipeline importing the catalog's old home in docs/", { "pipeline/run.ts": ["docs/catalog.ts"], "docs/catalog.ts": [] }, "pipeline-below-commands"],
    ["the Target interface naming the plan's module", { "targets/target.ts": ["plan/index.ts"], "plan/index.ts": [] }, "target-below-pipeline"],
    ["a target hashing through the build cache", { "targets/catalog/index.ts": ["cache.ts"], "cache.ts": [] }, "target-below-pipeline"],
  ] as const)("exempts nothing any more: refuses %s", async (_, modules, rule) => {
    expect((await violations(tree(modules))).map((v) => v.rule.name)).toEqual([rule]);
  });

  it("lets a target read the plan's types in core, and core/ import the phases below it", async () => {
    const modules = {
      "targets/target.ts": ["core/plan.ts"],
      "targets/catalog/index.ts": ["targets/target.ts", "hash.ts", "core/plan.ts"],
      "core/plan.ts": ["config/a.ts", "normalize/a.ts", "diff/a.ts", "ir.ts"],
      "config/a.ts": [],
      "normalize/a.ts": [],
      "diff/a.ts": [],
      "ir.ts": [],
      "hash.ts": [],
      "plan/index.ts": ["core/plan.ts", "targets/catalog/index.ts"],
    };
    expect((await violations(tree(modules))).map(describeViolation)).toEqual([]);
  });

  it("reads the tsconfig's rootDirs: sdk2/ importing ./sdk-port.js is runtime/sdk-port.ts", async () => {
    const modules = { "runtime/sdk-port.ts": [], "runtime/sdk2/sdk.ts": ["runtime/sdk2/sdk-port.ts"] };
    const withRootDirs = tree(modules, ["generator/runtime", "generator/runtime/sdk2"]);
    const sdk = (await cruiseTree(withRootDirs)).modules.find((m) => m.source === "generator/runtime/sdk2/sdk.ts");
    expect(sdk?.dependencies.map((d) => [d.resolved, d.couldNotResolve])).toEqual([["generator/runtime/sdk-port.ts", false]]);
    // Without rootDirs the same import resolves nowhere, and the rule that says so fails.
    expect((await violations(tree(modules))).map((v) => v.rule.name)).toEqual(["no-unresolvable"]);
  });

  it("allows every layer to import the ones below it", async () => {
    const modules = {
      "ir.ts": ["runtime/a.ts"],
      "load/a.ts": ["ir.ts"],
      "normalize/a.ts": ["load/a.ts", "ir.ts"],
      "diff/a.ts": ["normalize/a.ts"],
      "printer/a.ts": ["ir.ts"],
      "emit/a.ts": ["normalize/a.ts", "diff/a.ts", "printer/a.ts", "targets/x/index.ts"],
      "targets/x/index.ts": ["targets/x/part.ts"],
      "targets/x/part.ts": ["printer/a.ts"],
      "targets/y/index.ts": ["targets/x/index.ts", "emit/b.ts"],
      "emit/b.ts": [],
      "write/a.ts": ["emit/a.ts"],
      "pipeline/a.ts": ["write/a.ts", "emit/a.ts", "targets/y/index.ts"],
      "commands/a.ts": ["pipeline/a.ts"],
      "docs/a.ts": ["commands/a.ts"],
      "cli.ts": ["commands/a.ts", "docs/a.ts"],
      "runtime/a.ts": ["runtime/b.ts"],
      "runtime/b.ts": [],
    };
    expect((await violations(tree(modules))).map(describeViolation)).toEqual([]);
  });
});
