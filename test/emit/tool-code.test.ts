/**
 * A tool's code (its validators) in a module of its own or in its
 * group's module (generator/emit/tool-code/): where each tool goes, and that
 * the layout changes nothing a tool's code does. Both layouts of the same
 * projects are compiled through the real pipeline, written as JavaScript and
 * loaded through each contract's own loader.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GROUP_BYTES, GROUP_FROM_TOOLS, groupOf, nameHash, TOOLS_PER_GROUP, toolCodePlaces } from "../../generator/emit/tool-code/groups.js";
import { copyPlan } from "../../generator/runtime/copy-plan.js";
import type { ContractIR, JsonValue } from "../../generator/ir.js";
import { compile } from "../../generator/pipeline/run.js";
import type { AnyToolContract, ToolValidators } from "../../generator/runtime/contract.js";
import { toJs } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const names = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `tool_${String(from + i).padStart(4, "0")}`);

const groupOfName = (places: ReturnType<typeof toolCodePlaces>, name: string): string => {
  const place = places.get(name)!;
  return place.kind === "group" ? place.module : "own";
};

describe("which module holds a tool's code", () => {
  it("is the tool's own below the threshold or with toolsPerChunk 1, else a group of about TOOLS_PER_GROUP tools", () => {
    for (const place of toolCodePlaces(names(GROUP_FROM_TOOLS - 1), undefined).values()) expect(place.kind).toBe("own");
    for (const place of toolCodePlaces(names(2000), 1).values()) expect(place.kind).toBe("own");
    const places = toolCodePlaces(names(2000), undefined);
    const sizes = new Map<string, number>();
    for (const name of places.keys()) sizes.set(groupOfName(places, name), (sizes.get(groupOfName(places, name)) ?? 0) + 1);
    expect(sizes.size).toBe(2000 / TOOLS_PER_GROUP);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(2 * TOOLS_PER_GROUP);
    expect(Math.min(...sizes.values())).toBeGreaterThanOrEqual(TOOLS_PER_GROUP / 4);
    // Large tools make more groups: about GROUP_BYTES of code each at most on average, so no file nears 1 MB.
    const large = toolCodePlaces(names(2000), undefined, 2000 * 18_000);
    expect(new Set([...large.keys()].map((n) => groupOfName(large, n))).size).toBe(Math.ceil((2000 * 18_000) / GROUP_BYTES));
    // A small project can ask for groups: toolsPerChunk is an average, so 7 tools in 2s make at most 4 groups (a hash may leave one empty).
    const small = toolCodePlaces(names(7), 2);
    const smallGroups = new Set([...small.keys()].map((n) => groupOfName(small, n)));
    expect(smallGroups.size).toBeGreaterThan(1);
    expect(smallGroups.size).toBeLessThanOrEqual(4);
  });

  it("stays put when a tool is added: only a group that splits in two gives tools to the new one", () => {
    for (let count = GROUP_FROM_TOOLS; count < 400; count++) {
      const before = toolCodePlaces(names(count), undefined);
      const after = toolCodePlaces(names(count + 1), undefined);
      const moved = [...before.keys()].filter((name) => groupOfName(before, name) !== groupOfName(after, name));
      const groupsBefore = new Set([...before.keys()].map((n) => groupOfName(before, n)));
      const groupsAfter = new Set([...after.keys()].map((n) => groupOfName(after, n)));
      if (groupsAfter.size === groupsBefore.size) expect(moved, `adding a tool to ${count}`).toEqual([]);
      else {
        // One group more: the tools that move come from one group and all go to the new one.
        const added = [...groupsAfter].filter((g) => !groupsBefore.has(g));
        expect(added).toHaveLength(1);
        expect(new Set(moved.map((n) => groupOfName(before, n))).size).toBeLessThanOrEqual(1);
        for (const name of moved) expect(groupOfName(after, name)).toBe(added[0]);
      }
    }
  });

  it("is linear hashing over a fixed hash of the name", () => {
    expect(nameHash("get_order")).toBe(nameHash("get_order"));
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((h) => groupOf(h, 5))).toEqual([0, 1, 2, 3, 4, 1, 2, 3]);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((h) => groupOf(h, 6))).toEqual([0, 1, 2, 3, 4, 5, 2, 3]);
    expect(groupOf(123456789, 1)).toBe(0);
  });
});

/** A compiled project written as JavaScript into a folder of its own, and its contracts. */
async function writtenProject(
  definitions: string,
  toolsPerChunk: number,
): Promise<{ dir: string; paths: string[]; ir: ContractIR; contracts: Record<string, AnyToolContract> }> {
  const compiled = await compile(definitions, "generated", ROOT, { targets: { mcp: toolsPerChunk } });
  expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const dir = mkdtempSync(join(tmpdir(), `toolc-tool-code-${toolsPerChunk}-`));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const files = (compiled.files ?? []).filter((f) => f.root === undefined);
  for (const file of files.filter((f) => f.path.endsWith(".ts"))) {
    const out = join(dir, file.path.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, toJs(file.text, file.path));
  }
  const contracts = (await import(pathToFileURL(join(dir, "contracts.js")).href)) as Record<string, AnyToolContract>;
  return { dir, paths: files.map((f) => f.path), ir: compiled.ir!, contracts };
}

/** Values to run a tool's validators and copy plans on: its examples' inputs and outputs, and a few of the wrong shape. */
function samples(ir: ContractIR, tool: string): { inputs: JsonValue[]; outputs: JsonValue[] } {
  const t = ir.tools.find((x) => x.name === tool)!;
  const odd: JsonValue[] = [{}, null, [], "x", { unexpected: 1 }];
  return {
    inputs: [...t.examples.map((e) => e.input), ...odd],
    outputs: [...t.examples.flatMap((e) => (e.output === undefined ? [] : [e.output])), ...odd],
  };
}

/** What a tool's code does with each sample: every verdict, error list and copy. */
function behaviour(code: ToolValidators, s: { inputs: JsonValue[]; outputs: JsonValue[] }): unknown[] {
  const run = (copy: ToolValidators["copyInput"], validate: ToolValidators["validateInput"], value: JsonValue): unknown => {
    const copied = copy!(structuredClone(value));
    if (!copied.ok) return { copied };
    const valid = validate(copied.value);
    return { valid, errors: validate.errors ?? null, value: JSON.parse(JSON.stringify(copied.value)) as unknown };
  };
  return [...s.inputs.map((v) => run(code.copyInput, code.validateInput, v)), ...s.outputs.map((v) => run(code.copyOutput, code.validateOutput, v))];
}

describe.each([
  ["the demo", join(ROOT, "definitions")],
  ["billing, with shared named types", join(ROOT, "test/fixtures/billing")],
])("%s, each tool's code in a group module", (_, definitions) => {
  let own: Awaited<ReturnType<typeof writtenProject>>;
  let grouped: Awaited<ReturnType<typeof writtenProject>>;
  beforeAll(async () => {
    own = await writtenProject(definitions, 1);
    grouped = await writtenProject(definitions, 2);
  });
  afterAll(() => {
    for (const p of [own, grouped]) if (p !== undefined) rmSync(p.dir, { recursive: true, force: true });
  });

  it("is written into chunks/group-<n>.ts in place of each tool's module, and no copies are written", () => {
    const perTool = (paths: string[]) => paths.filter((p) => /^(chunks|validators)\/[^/]+\.ts$/.test(p));
    expect(perTool(own.paths).sort()).toEqual(own.ir.tools.map((t) => `validators/${t.name}.ts`).sort());
    expect(perTool(grouped.paths).every((p) => /^chunks\/group-\d+\.ts$/.test(p))).toBe(true);
    expect(perTool(grouped.paths).length).toBeLessThan(grouped.ir.tools.length);
    // The schema-aware copies are planned by the runtime (runtime/copy-plan.ts): no copies module in either layout.
    for (const p of [...own.paths, ...grouped.paths]) expect(p).not.toMatch(/copies|^chunks\/types\//);
    // Nothing else changes: the same files but the tools' code modules, the contracts (their loaders) and the folder's README.
    const rest = (paths: string[]) => paths.filter((p) => !perTool(paths).includes(p));
    expect(rest(grouped.paths)).toEqual(rest(own.paths));
  });

  it("does what the tool's own modules do, loaded by its contract's loader", async () => {
    for (const [exported, contract] of Object.entries(own.contracts)) {
      const other = grouped.contracts[exported]!;
      expect(typeof other.validators).toBe("function");
      const [a, loaded] = await Promise.all([(contract.validators as () => Promise<ToolValidators>)(), (other.validators as () => Promise<ToolValidators>)()]);
      // The code hands over the validators alone; the runtime plans the copies from the served schemas (runtime/validators.ts).
      expect(Object.keys(loaded).sort()).toEqual(["validateInput", "validateOutput"]);
      expect(Object.keys(a).sort()).toEqual(["validateInput", "validateOutput"]);
      const planned = (code: ToolValidators, c: typeof contract): ToolValidators => ({ ...code, copyInput: copyPlan(c.inputSchema), copyOutput: copyPlan(c.outputSchema) });
      const s = samples(own.ir, contract.name);
      expect(behaviour(planned(loaded, other), s), contract.name).toEqual(behaviour(planned(a, contract), s));
      const named = (code: ToolValidators) => Object.fromEntries(Object.entries(code).map(([key, f]) => [key, (f as { name: string }).name]));
      expect(named(loaded), contract.name).toEqual(named(a));
    }
  });
});
