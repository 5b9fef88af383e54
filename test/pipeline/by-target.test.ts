/**
 * A run's files by target (pipeline/by-target.ts): every file the compile
 * writes is in exactly one target's group, under the path the write gives
 * it, and each target the registry turns on has its group, so a test that
 * asks "what does target X write" sees a new target's files without naming
 * them.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { emitByTarget, loadTargets, RUNTIME_GROUP, type LoadedTarget } from "../../generator/emit/index.js";
import { outputByTarget } from "../../generator/pipeline/by-target.js";
import { compilePlan, runPlan } from "../../generator/pipeline/run.js";
import { emitOptionsOf, planFromOptions, resolvePlan } from "../../generator/plan/index.js";
import { TARGETS } from "../../generator/targets/registry.js";
import { ROOT } from "../compiler/helpers.js";
import { projectFiles } from "../helpers/target-files.js";

describe("a run's files by target", () => {
  it("groups every file the demo's run writes once, under its target, at the path the write gives it", async () => {
    // Without the catalog, whose run-level files the third case covers.
    const { catalog: _, ...plan } = (await resolvePlan(ROOT, {})).plan!;
    const output = await outputByTarget(plan);
    expect(output.targets).toBeDefined();
    const grouped = output.targets!.flatMap((t) => t.paths.map((path, i) => [path, t.files[i]!.text] as const));
    // The write's own list (the committed demo is up to date, so every file is unchanged): the same paths, each once.
    const written = await runPlan(plan, "check", { cache: false });
    expect(written.differences).toEqual([]);
    const { added, changed, unchanged } = written.plan!;
    expect(grouped.map(([path]) => path).sort()).toEqual([...unchanged, ...[...added, ...changed].map((f) => f.path)].sort());
    for (const [path, text] of grouped) expect(readFileSync(path, "utf8"), relative(ROOT, path)).toBe(text);
  });

  it("names the targets of the registry the run writes, and the runtime copies each alone brings in", async () => {
    const withProviders = await outputByTarget(planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT }));
    const names = withProviders.targets!.map((t) => t.target);
    expect(names.at(-1)).toBe(RUNTIME_GROUP);
    expect(TARGETS.map((t) => t.name)).not.toContain(RUNTIME_GROUP);
    for (const name of ["types", "validators", "mcp", "providers"]) expect(names).toContain(name);
    const providers = withProviders.targets!.find((t) => t.target === "providers")!;
    expect(providers.files.map((f) => f.path)).toEqual(["providers.ts"]);
    expect(providers.runtime).toContain("runtime/providers.ts");
    expect(providers.runtime).not.toContain("runtime/executor.ts");
    const without = await outputByTarget(planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT, providers: false }));
    expect(without.targets!.map((t) => t.target)).not.toContain("providers");
    const runtimeWithout = without.targets!.find((t) => t.target === RUNTIME_GROUP)!.files.map((f) => f.path);
    const runtimeWith = withProviders.targets!.find((t) => t.target === RUNTIME_GROUP)!.files.map((f) => f.path);
    expect(runtimeWith.filter((p) => !runtimeWithout.includes(p))).toEqual(providers.runtime);
  });

  it("gives a project's files relative to its folder, contract tests under the tests folder", async () => {
    const files = await projectFiles(ROOT);
    expect(files.byTarget.get("contract-tests")).toEqual(expect.arrayContaining(["test/toolc/get_order.test.ts"]));
    expect(files.all).toContain("generated/index.ts");
    expect(files.all).toContain("demo/catalog/index.md");
  });

  it("counts a target it has never heard of: a new target's files and runtime are in the answer with no list to edit", async () => {
    const plan = planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT, providers: false });
    const compiled = await compilePlan(plan);
    const loaded = await loadTargets();
    const planted: LoadedTarget = {
      target: { name: "planted", root: "out", marker: "generated", runtime: () => ({ providers: true }), load: () => Promise.resolve(planted.emitter) },
      emitter: {
        toolFiles: (tool) => [{ path: `planted/${tool.name}.json`, text: "{}\n" }],
        sharedFiles: () => [{ path: "planted.json", text: "{}\n" }],
      },
    };
    const groups = emitByTarget(compiled.ir!, emitOptionsOf(plan), [...loaded, planted]);
    const group = groups.find((g) => g.target === "planted")!;
    expect(group.files.map((f) => f.path)).toEqual([...compiled.ir!.tools.map((t) => `planted/${t.name}.json`), "planted.json"]);
    // With providers off, only the planted target asks for the provider runtime: it is the planted target's to answer for.
    expect(group.runtime).toContain("runtime/providers.ts");
    expect(groups.find((g) => g.target === RUNTIME_GROUP)!.files.map((f) => f.path)).toContain("runtime/providers.ts");
  });
});
