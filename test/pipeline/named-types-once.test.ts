/**
 * A large compile does each piece of work once (issue #42, generate's CPU
 * time): the types files are parsed and checked once, by `classify`, not
 * again for the named types; and the named types are compiled by Ajv as one
 * schema, each type once, not each with every type it refers to. Read
 * through the real compiler on the demo's definitions.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { releaseSharedAjv, sharedAjvHeldSchemas } from "../../generator/ajv-shared.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { readDefinitionTexts, type DefinitionText } from "../../generator/load/files.js";
import { isTypesFile, normalizeTypes } from "../../generator/normalize/index.js";
import { LocalToolCompiler, typesFromTexts, type DefinitionLoader } from "../../generator/pipeline/compile-tool.js";
import { compileOptionsOf, planFromOptions } from "../../generator/plan/index.js";
import { ROOT } from "../compiler/helpers.js";

afterEach(() => releaseSharedAjv());

const plan = planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT });
const texts = readDefinitionTexts(join(ROOT, "definitions"), ROOT)!;
const typeTexts = texts.filter((t) => t.source === "types.yaml");
const toolTexts = texts.filter((t) => t.source !== "types.yaml");

/** A loader that counts how often each source is loaded. */
function countingLoader(): { load: DefinitionLoader; loads: Map<string, number> } {
  const loads = new Map<string, number>();
  const load: DefinitionLoader = (batch) => {
    for (const t of batch) loads.set(t.source, (loads.get(t.source) ?? 0) + 1);
    return loadDefinitionsFromTexts(batch);
  };
  return { load, loads };
}

describe("a compile loads each definition once", () => {
  it("normalizes the named types from the types files classify loaded, and compiles the same files", async () => {
    expect(typeTexts).toHaveLength(1);
    const { load, loads } = countingLoader();
    const compiler = new LocalToolCompiler({ load });
    await compiler.classify(texts);
    const outcomes = await compiler.compile(typeTexts, toolTexts, compileOptionsOf(plan));
    const types = compiler.namedTypes(typeTexts);
    await compiler.close();
    expect([...loads.values()].every((n) => n === 1)).toBe(true);
    expect(loads.size).toBe(texts.length);
    // The same named types as loading the texts afresh gives.
    const fresh = typesFromTexts(typeTexts);
    expect([...types.types.byName.keys()]).toEqual([...fresh.types.byName.keys()]);
    expect([...types.types.byName.values()].map((e) => e.schema)).toEqual([...fresh.types.byName.values()].map((e) => e.schema));
    expect(outcomes.filter((o) => "failed" in o)).toEqual([]);
  });

  it("loads a types text classify did not see (or saw with another text) when the named types need it", async () => {
    const { load, loads } = countingLoader();
    const compiler = new LocalToolCompiler({ load });
    await compiler.classify(toolTexts);
    const changed: DefinitionText[] = typeTexts.map((t) => ({ ...t, text: `${t.text}\n` }));
    const types = compiler.namedTypes(changed);
    await compiler.close();
    expect(loads.get("types.yaml")).toBe(1);
    expect(types.types.byName.size).toBeGreaterThan(0);
  });
});

/** The named types of one types file's text, normalized (and compiled) afresh. */
function namedTypes(text: string): ReturnType<typeof normalizeTypes> {
  releaseSharedAjv();
  const loaded = loadDefinitionsFromTexts([{ source: "types.yaml", display: "definitions/types.yaml", text }]);
  expect(loaded.diagnostics).toEqual([]);
  return normalizeTypes(loaded.files.filter(isTypesFile));
}

const TYPES = `types:
  Owner:
    type: object
    properties: { login: { type: string } }
  Repo:
    type: object
    properties: { owner: { $ref: "#/types/Owner" }, parent: { $ref: "#/types/Repo" } }
  Label:
    type: string
`;

describe("the named types compile once", () => {
  it("compiles every named type in one schema when they all compile", () => {
    const types = namedTypes(TYPES);
    expect(types.diagnostics).toEqual([]);
    expect(types.failedTypes).toEqual(new Set());
    // One schema compiled by the shared instances, not one per type (three).
    expect(sharedAjvHeldSchemas()).toBe(1);
  });

  it("still reports a type strict mode rejects once, at the type, and fails the types that refer to it", () => {
    // `required` with no `type: object` beside it: strictTypes.
    const types = namedTypes(TYPES.replace("  Owner:\n    type: object\n", "  Owner:\n    required: [login]\n"));
    expect(types.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([
      ["TC031", 3, 5],
      ["TC031", 6, 5],
    ]);
    expect(types.diagnostics[0]!.message).toMatch(/strictTypes/);
    expect(types.failedTypes).toEqual(new Set(["Owner", "Repo"]));
  });
});
