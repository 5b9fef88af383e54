/**
 * `then` and `__proto__` are valid MCP tool names that `toolc generate`
 * refuses (they would be keys of the generated objects with a meaning of
 * their own). Both import sources rename them, with a warning and a note,
 * and what they write compiles.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importContracts } from "../../generator/import/index.js";
import { compile } from "../../generator/pipeline/run.js";
import { importSpec, OK_OBJECT, openapi30 } from "./openapi/helpers.js";

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });

describe("reserved tool names on import", () => {
  it("an MCP tools/list import renames then and __proto__, and generate accepts the result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-reserved-"));
    // JSON.parse makes "__proto__" an own key, as a real tools/list document would.
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [tool("then"), tool("__proto__"), tool("then_tool")] }));
    const result = importContracts({ source: "tools.json", out: "definitions", cwd: dir });
    expect(result.written).toEqual(["then_tool_2.yaml", "proto_tool.yaml", "then_tool.yaml"]);
    expect(result.problems.map((p) => `${p.severity} ${p.pointer}`)).toEqual(["warning /tools/0/name", "warning /tools/1/name"]);
    expect(readFileSync(join(dir, "definitions/proto_tool.yaml"), "utf8")).toMatch(/# toolc import: renamed from "__proto__": toolc generate refuses that name/);
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(compiled.tools).toBe(3);
  });

  it("an OpenAPI import does the same for an operationId `then`", async () => {
    const { contracts, messages } = await importSpec(openapi30({ "/a": { get: { operationId: "then", responses: { 200: OK_OBJECT } } } }));
    expect(Object.keys(contracts)).toEqual(["then_tool"]);
    expect(messages).toEqual([expect.stringMatching(/^warning \/paths\/~1a\/get: renamed from "then"/)]);
  });
});
