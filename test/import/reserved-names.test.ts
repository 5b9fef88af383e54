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

  it("an OpenAPI body property `__proto__` is left out with a warning naming it, a value holding the key skips its operation with an error, and what is written compiles (issue #33 L1)", async () => {
    // JSON.parse (as the import's reading does) makes "__proto__" an own key.
    const body = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"name":{"type":"string"}},"required":["__proto__","name"]}') as object;
    const example = JSON.parse('{"type":"object","example":{"__proto__":{"admin":true}}}') as object;
    const spec = openapi30({
      "/things": { post: { operationId: "createThing", requestBody: { required: true, content: { "application/json": { schema: body } } }, responses: { 200: OK_OBJECT } } },
      "/other": { get: { operationId: "getOther", responses: { 200: { description: "ok", content: { "application/json": { schema: example } } } } } },
    });
    const { dir, contracts, messages } = await importSpec(spec);
    expect(Object.keys(contracts)).toEqual(["createThing"]);
    expect((contracts.createThing!.input as { properties: object; required: string[] })).toMatchObject({ properties: { name: { type: "string" } }, required: ["name"] });
    expect(Object.keys((contracts.createThing!.input as { properties: object }).properties)).toEqual(["name"]);
    expect(messages).toEqual([
      expect.stringMatching(/^warning \/paths\/~1things\/post\/requestBody\/content\/application~1json\/schema\/properties\/__proto__: property `__proto__` left out/),
      expect.stringMatching(/^error \/paths\/~1other\/get: the contract would hold a `__proto__` key \(at \/output\/examples\/0\/__proto__/),
    ]);
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
