/**
 * The export-clash lints (TC013, TC023, TC024) are the TypeScript targets'
 * `lint` hooks (emit/ts-name-lints.ts), not normalize's: the IR carries the
 * locations, normalize reports nothing of TypeScript names, and a target the
 * run leaves out reports nothing.
 */
import { describe, expect, it } from "vitest";
import { lintTargets } from "../../generator/emit/index.js";
import { mcpTarget } from "../../generator/emit/mcp-target.js";
import { typesTarget } from "../../generator/emit/types/target.js";
import type { Diagnostic } from "../../generator/ir.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { TARGETS } from "../../generator/targets/registry.js";
import type { Target } from "../../generator/targets/target.js";

const tool = (name: string, output = "{ type: object, properties: { count: { type: integer } }, required: [count] }"): string =>
  `name: ${name}\nversion: 1\ndescription: A tool.\neffect: read\ninput: { type: object, properties: {} }\noutput: ${output}\n`;

/** Three clashes at once: two types files written as one module, a type named like a tool's output type, two tools whose types meet. */
const TEXTS = [
  { source: "a.b.yaml", text: "types:\n  Foo: { type: string, maxLength: 5 }\n" },
  { source: "a_b.yaml", text: "types:\n  Bar: { type: integer }\n" },
  { source: "t.yaml", text: tool("list_items", '{ $ref: "types.yaml#/ListItemsOutput" }') },
  { source: "types.yaml", text: "types:\n  ListItemsOutput: { type: integer }\n" },
  { source: "u.yaml", text: tool("list_items_resolved") },
].map((t) => ({ ...t, display: `definitions/${t.source}` }));

const where = (d: Diagnostic): string => `${d.file}:${d.line}:${d.col} ${d.code}`;

function compiled() {
  return normalize(loadDefinitionsFromTexts(TEXTS));
}

describe("the TypeScript targets' lints (Target.lint)", () => {
  it("normalize alone reports no TypeScript name: the contracts are fine as contracts", () => {
    const { diagnostics } = compiled();
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("the registry's lints report each clash at its place in the YAML, from the IR's locations", () => {
    const { ir } = compiled();
    expect(lintTargets(ir, {}).map(where)).toEqual(["definitions/a_b.yaml:1:1 TC023", "definitions/u.yaml:1:7 TC013", "definitions/types.yaml:2:3 TC024"]);
  });

  it("each lint is its target's: the types target owns the modules (TC023), the MCP target the index's exports (TC013, TC024)", () => {
    const { ir } = compiled();
    expect(typesTarget.lint?.(ir, {}).map((d) => d.code)).toEqual(["TC023"]);
    expect(mcpTarget.lint?.(ir, {}).map((d) => d.code)).toEqual(["TC013", "TC024"]);
    const without = (name: string): readonly Target[] => TARGETS.filter((t) => t.name !== name);
    expect(lintTargets(ir, {}, without("mcp")).map((d) => d.code)).toEqual(["TC023"]);
    expect(lintTargets(ir, {}, without("types")).map((d) => d.code)).toEqual(["TC013", "TC024"]);
  });

  it("a target the run does not write is not asked", () => {
    const { ir } = compiled();
    const off: Target = { ...mcpTarget, enabled: () => false };
    expect(lintTargets(ir, {}, [typesTarget, off]).map((d) => d.code)).toEqual(["TC023"]);
  });

  it("the compile runs them with the lints across tools: sorted with the rest, and the run stops", () => {
    const { diagnostics } = normalize(loadDefinitionsFromTexts(TEXTS), {}, (ir) => lintTargets(ir, {}));
    expect(diagnostics.filter((d) => d.severity === "error").map(where)).toEqual([
      "definitions/a_b.yaml:1:1 TC023",
      "definitions/types.yaml:2:3 TC024",
      "definitions/u.yaml:1:7 TC013",
    ]);
  });

  it("two tools whose names meet in PascalCase are one TypeScript name, which only the MCP target refuses; names that meet on a case-insensitive file system are every target's, normalize's", () => {
    const texts = [
      { source: "g1.yaml", text: tool("get_order") },
      { source: "g2.yaml", text: tool("get-order") },
      { source: "g3.yaml", text: tool("GET_ORDER") },
    ].map((t) => ({ ...t, display: `definitions/${t.source}` }));
    const { ir, diagnostics } = normalize(loadDefinitionsFromTexts(texts));
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => `${where(d)} ${d.message}`)).toEqual([
      "definitions/g3.yaml:1:7 TC013 tool name `GET_ORDER` maps to the same generated name as `get_order` (get_order); rename one",
    ]);
    expect(mcpTarget.lint?.(ir, {}).map((d) => `${where(d)} ${d.message}`)).toEqual([
      "definitions/g2.yaml:1:7 TC013 tool name `get-order` maps to the same generated name as `get_order` (GetOrder); rename one",
    ]);
    expect(
      lintTargets(
        ir,
        {},
        TARGETS.filter((t) => t.name !== "mcp"),
      ),
    ).toEqual([]);
  });
});
