/** Table-driven tests of the MCP → contract mapping, and of the command's all-or-nothing writing. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { Reporter } from "../../generator/import/problems.js";
import { convertRootSchema } from "../../generator/import/schema.js";
import { importTool } from "../../generator/import/tool.js";
import { runCli } from "../compiler/helpers.js";

type Obj = Record<string, unknown>;
const INPUT = { type: "object", properties: { q: { type: "string" } } };

function mapTool(tool: Obj): { contract?: Obj; report: Reporter } {
  const report = new Reporter("tools.json");
  const imported = importTool({ name: "t", inputSchema: INPUT, description: "d", ...tool } as never, "t", "/tools/0", report);
  return { contract: imported?.contract as Obj | undefined, report };
}

describe("annotations → effect, idempotent, openWorld", () => {
  it.each([
    { annotations: { readOnlyHint: true, openWorldHint: false }, expected: { effect: "read" } },
    { annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false }, expected: { effect: "read" } },
    { annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false }, expected: { effect: "read", idempotent: false } },
    { annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, expected: { effect: "write" } },
    { annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, expected: { effect: "destructive" } },
    { annotations: { readOnlyHint: false, openWorldHint: false }, expected: { effect: "destructive" } },
    { annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false }, expected: { effect: "write", idempotent: true } },
    { annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false }, expected: { effect: "write" } },
    { annotations: { readOnlyHint: true }, expected: { effect: "read", openWorld: true } },
    { annotations: { readOnlyHint: true, openWorldHint: true }, expected: { effect: "read", openWorld: true } },
  ])("$annotations", ({ annotations, expected }) => {
    const { contract } = mapTool({ annotations });
    const picked = Object.fromEntries(["effect", "idempotent", "openWorld"].filter((k) => contract && k in contract).map((k) => [k, contract![k]]));
    expect(picked).toEqual(expected);
  });

  it("imports a tool without annotations as write, with a warning to review it", () => {
    const { contract, report } = mapTool({});
    expect(contract?.effect).toBe("write");
    expect(report.problems).toEqual([expect.objectContaining({ severity: "warning", pointer: "/tools/0/annotations", message: expect.stringContaining("effect is unknown") })]);
  });
});

describe("title, description, output", () => {
  it.each([
    { tool: { title: "Top" }, title: "Top" },
    { tool: { annotations: { title: "Inner" } }, title: "Inner" },
    { tool: { title: "Top", annotations: { title: "Inner" } }, title: "Top", warning: "/tools/0/annotations/title" },
  ])("title from $tool", ({ tool, title, warning }) => {
    const { contract, report } = mapTool({ ...tool, annotations: { readOnlyHint: true, ...(tool.annotations ?? {}) } });
    expect(contract?.title).toBe(title);
    expect(report.problems.map((p) => p.pointer)).toEqual(warning ? [warning] : []);
  });

  it.each([{ description: undefined, expected: "t" }, { description: "", title: "T", expected: "T" }])("a missing description becomes the title or name, with a warning", ({ description, title, expected }) => {
    const { contract, report } = mapTool({ description, title, annotations: { readOnlyHint: true } });
    expect(contract?.description).toBe(expected);
    expect(report.problems[0]).toMatchObject({ severity: "warning", pointer: "/tools/0/description" });
  });

  it("gives a tool without outputSchema an open object output, and imports one that has it", () => {
    expect(mapTool({ annotations: { readOnlyHint: true } }).contract?.output).toEqual({ type: "object", additionalProperties: true });
    const output = { type: "object", properties: { n: { type: "number" } }, additionalProperties: false };
    expect(mapTool({ annotations: { readOnlyHint: true }, outputSchema: output }).contract?.output).toEqual(output);
  });

  it.each([
    { tool: { inputSchema: { type: "string" } }, pointer: "/tools/0/inputSchema/type" },
    { tool: { inputSchema: "x" }, pointer: "/tools/0/inputSchema" },
  ])("skips a tool whose root is not an object: $pointer", ({ tool, pointer }) => {
    const { contract, report } = mapTool(tool);
    expect(contract).toBeUndefined();
    expect(report.problems).toContainEqual(expect.objectContaining({ severity: "error", pointer }));
  });

  it.each([
    { type: "array", items: { type: "string" } },
    { type: "string", maxLength: 10 },
    { anyOf: [{ type: "integer" }, { type: "null" }] },
  ])("imports an outputSchema whose root is not an object as it is (MCP 2026-07-28): %j", (output) => {
    const { contract, report } = mapTool({ annotations: { readOnlyHint: true }, outputSchema: output });
    expect(contract?.output).toEqual(output);
    expect(report.problems.filter((p) => p.severity === "error")).toEqual([]);
  });
});

describe("icons and $schema, served back as the source served them", () => {
  const ICON = { src: "https://example.com/a.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" };

  it("keeps icons toolc can serve and drops any other with a warning at its place", () => {
    const { contract, report } = mapTool({ annotations: { readOnlyHint: true }, icons: [ICON, { src: "/local.png" }, { src: "data:image/png;base64,AA==", extra: 1 }] });
    expect(contract?.icons).toEqual([ICON]);
    expect(report.problems.map((p) => `${p.severity} ${p.pointer}`)).toEqual(["warning /tools/0/icons/1", "warning /tools/0/icons/2"]);
    expect(Object.keys(contract ?? {}).indexOf("icons")).toBe(Object.keys(contract ?? {}).indexOf("description") + 1);
  });

  it("writes no icons key when none can be kept", () => {
    const { contract, report } = mapTool({ annotations: { readOnlyHint: true }, icons: "https://example.com/a.png" });
    expect(contract && "icons" in contract).toBe(false);
    expect(report.problems).toEqual([expect.objectContaining({ severity: "warning", pointer: "/tools/0/icons" })]);
  });

  it.each([
    { name: "2020-12 on the input", tool: { inputSchema: { ...INPUT, $schema: "https://json-schema.org/draft/2020-12/schema" } }, $schema: "https://json-schema.org/draft/2020-12/schema", notes: 1 },
    { name: "2020-12 on both", tool: { inputSchema: { ...INPUT, $schema: "https://json-schema.org/draft/2020-12/schema" }, outputSchema: { type: "object", $schema: "https://json-schema.org/draft/2020-12/schema" } }, $schema: "https://json-schema.org/draft/2020-12/schema", notes: 0 },
    { name: "draft-07", tool: { inputSchema: { ...INPUT, $schema: "http://json-schema.org/draft-07/schema#" } }, $schema: undefined, notes: 0 },
  ])("states the contract's $schema from the source's: $name", ({ tool, $schema, notes }) => {
    const report = new Reporter("tools.json");
    const imported = importTool({ name: "t", description: "d", annotations: { readOnlyHint: true }, outputSchema: { type: "object" }, ...tool } as never, "t", "/tools/0", report);
    expect(imported?.contract.$schema).toBe($schema);
    expect(imported?.notes.filter((n) => n.startsWith("$schema"))).toHaveLength(notes);
    expect(report.failed).toBe(false);
  });
});

describe("schemas", () => {
  function convert(schema: Obj): { schema: Obj; report: Reporter } {
    const report = new Reporter("tools.json");
    return { schema: convertRootSchema(schema as never, "/tools/0/inputSchema", report) as Obj, report };
  }

  it.each([
    { name: "opens objects that did not close themselves", in: { type: "object", properties: { a: { type: "object" } } }, out: { type: "object", properties: { a: { type: "object", additionalProperties: true } }, additionalProperties: true } },
    { name: "keeps an explicit additionalProperties", in: { type: "object", additionalProperties: false }, out: { type: "object", additionalProperties: false } },
    { name: "drops the root $schema", in: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", additionalProperties: false }, out: { type: "object", additionalProperties: false } },
    { name: "renames definitions and rewrites refs", in: { type: "object", definitions: { N: { type: "string" } }, properties: { a: { $ref: "#/definitions/N" } } }, out: { type: "object", $defs: { N: { type: "string" } }, properties: { a: { $ref: "#/$defs/N" } }, additionalProperties: true } },
    { name: "turns nullable into a null type and enum member", in: { type: "object", properties: { a: { type: "string", enum: ["x"], nullable: true } }, additionalProperties: false }, out: { type: "object", properties: { a: { type: ["string", "null"], enum: ["x", null] } }, additionalProperties: false } },
    { name: "turns a draft-07 tuple into prefixItems", in: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { t: { type: "array", items: [{ type: "string" }], additionalItems: false } }, additionalProperties: false }, out: { type: "object", properties: { t: { type: "array", prefixItems: [{ type: "string" }], items: false } }, additionalProperties: false } },
    { name: "turns a draft-04 boolean exclusiveMinimum into a bound", in: { type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } }, additionalProperties: false }, out: { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } }, additionalProperties: false } },
  ])("$name", ({ in: input, out }) => {
    const { schema, report } = convert(input);
    expect(schema).toEqual(out);
    expect(report.failed).toBe(false);
  });

  it.each([
    { schema: { type: "object", patternProperties: { "^x": { type: "string" } } }, pointer: "/tools/0/inputSchema/patternProperties" },
    { schema: { type: "object", properties: { a: { not: { type: "string" } } } }, pointer: "/tools/0/inputSchema/properties/a/not" },
    { schema: { type: "object", if: { required: ["a"] }, then: { required: ["b"] } }, pointer: "/tools/0/inputSchema/if" },
    { schema: { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } }, pointer: "/tools/0/inputSchema/properties/a/$ref" },
    { schema: { type: "object", properties: { a: { $ref: "#/$defs/Missing" } } }, pointer: "/tools/0/inputSchema/properties/a/$ref" },
    { schema: { type: "object", properties: { "a/b": { type: "object", $id: "x" } } }, pointer: "/tools/0/inputSchema/properties/a~1b/$id" },
  ])("reports what it cannot express at $pointer", ({ schema, pointer }) => {
    const { report } = convert(schema);
    expect(report.problems).toContainEqual(expect.objectContaining({ severity: "error", pointer }));
  });

  it.each([
    { schema: { type: "object", properties: { a: { type: "string", format: "int64" } } }, pointer: "/tools/0/inputSchema/properties/a/format" },
    { schema: { type: "object", "x-google-hint": 1 }, pointer: "/tools/0/inputSchema/x-google-hint" },
    { schema: { type: "object", properties: { a: { type: "string", contentMediaType: "text/plain" } } }, pointer: "/tools/0/inputSchema/properties/a/contentMediaType" },
  ])("drops a keyword without validation meaning, with a warning at $pointer", ({ schema, pointer }) => {
    const { schema: out, report } = convert(schema);
    expect(report.failed).toBe(false);
    expect(report.problems).toEqual([expect.objectContaining({ severity: "warning", pointer })]);
    expect(JSON.stringify(out)).not.toMatch(/int64|x-google-hint|contentMediaType/);
  });
});

describe("toolc import", () => {
  const tool = (name: string, extra: Obj = {}): Obj => ({ name, description: `The ${name} tool.\nSecond line.`, inputSchema: INPUT, annotations: { readOnlyHint: true }, ...extra });

  function project(files: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), "toolc-import-"));
    for (const [path, value] of Object.entries(files)) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), typeof value === "string" ? value : JSON.stringify(value));
    }
    return dir;
  }

  it.each([
    { shape: "tools/list result", doc: { tools: [tool("a"), tool("b")] } },
    { shape: "JSON-RPC response", doc: { jsonrpc: "2.0", id: 1, result: { tools: [tool("a"), tool("b")] } } },
    { shape: "bare array", doc: [tool("a"), tool("b")] },
  ])("reads a $shape and writes one contract per tool", async ({ doc }) => {
    const dir = project({ "tools.json": doc });
    const result = await runCli(dir, ["import", "tools.json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("toolc import: 2 tools read; 2 contracts written to definitions (0 errors, 0 warnings)\n");
    expect(readdirSync(join(dir, "definitions")).sort()).toEqual(["a.yaml", "b.yaml"]);
    const text = readFileSync(join(dir, "definitions/a.yaml"), "utf8");
    expect(text.split("\n")[0]).toMatch(/^# yaml-language-server: \$schema=.*schema\/contract\.schema\.json$/);
    expect(text).toContain("description: |-\n  The a tool.\n  Second line.\n");
    expect(Object.keys(parse(text))).toEqual(["name", "version", "description", "effect", "openWorld", "input", "output"]);
  });

  it("reads a folder of tool files, one tool each", async () => {
    const dir = project({ "src/a.json": tool("a"), "src/b.snap": tool("b"), "src/notes.txt": "ignored" });
    const result = await runCli(dir, ["import", "src", "--definitions", "contracts"]);
    expect(result.code).toBe(0);
    expect(readdirSync(join(dir, "contracts")).sort()).toEqual(["a.yaml", "b.yaml"]);
  });

  it.each([
    { why: "invalid JSON", files: { "tools.json": "{ nope" }, message: "tools.json: error: not valid JSON" },
    { why: "a name that is not an MCP tool name", files: { "tools.json": { tools: [tool("ok"), tool("no spaces")] } }, message: "tools.json: /tools/1/name: error:" },
    { why: "a name that is not a file name", files: { "tools.json": { tools: [tool("ok"), tool("..")] } }, message: "tools.json: /tools/1/name: error:" },
    { why: "names that collide as files", files: { "tools.json": { tools: [tool("ok"), tool("OK")] } }, message: "tools.json: /tools/1/name: error:" },
  ])("writes nothing at all on $why", async ({ files, message }) => {
    const dir = project(files);
    const result = await runCli(dir, ["import", "tools.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toContain("nothing was written");
    expect(existsSync(join(dir, "definitions"))).toBe(false);
  });

  it("skips a tool it cannot express, writes the others, and exits 1", async () => {
    const bad = tool("bad", { inputSchema: { type: "object", properties: { x: { type: "object", patternProperties: { "^a": {} } } } } });
    const dir = project({ "tools.json": { tools: [tool("good"), bad] } });
    const result = await runCli(dir, ["import", "tools.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("tools.json: /tools/1/inputSchema/properties/x/patternProperties: error:");
    expect(result.stdout).toContain("1 contract written to definitions, 1 skipped");
    expect(readdirSync(join(dir, "definitions"))).toEqual(["good.yaml"]);
  });

  it("never overwrites a contract without --force", async () => {
    const dir = project({ "tools.json": { tools: [tool("a"), tool("b")] }, "definitions/a.yaml": "mine\n" });
    const refused = await runCli(dir, ["import", "tools.json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("exists; pass --force");
    expect(readFileSync(join(dir, "definitions/a.yaml"), "utf8")).toBe("mine\n");
    expect(existsSync(join(dir, "definitions/b.yaml"))).toBe(false);
    expect((await runCli(dir, ["import", "tools.json", "--force"])).code).toBe(0);
    expect(readFileSync(join(dir, "definitions/a.yaml"), "utf8")).toContain("name: a");
  });

  it("writes contracts that compile", async () => {
    const dialect = "https://json-schema.org/draft/2020-12/schema";
    const icons = [{ src: "https://example.com/a.png", mimeType: "image/png" }];
    const dir = project({ "tools.json": { tools: [tool("a", { icons, inputSchema: { ...INPUT, $schema: dialect }, outputSchema: { $schema: dialect, type: "object", properties: { n: { type: "integer" } }, required: ["n"] } })] } });
    expect((await runCli(dir, ["import", "tools.json"])).code).toBe(0);
    const generated = await runCli(dir, ["generate"]);
    // Imported schemas rarely bound their strings; that is a warning (TC036), never an error.
    expect(generated.stderr.split("\n").filter((line) => line !== "" && !line.includes("warning TC036"))).toEqual([]);
    expect(generated.code).toBe(0);
    // What the source served, toolc serves back.
    const served = readFileSync(join(dir, "generated/contracts.ts"), "utf8");
    expect(served).toContain(JSON.stringify(dialect));
    expect(served).toContain("https://example.com/a.png");
  });

  it("is deterministic", async () => {
    const dir = project({ "tools.json": { tools: [tool("a"), tool("b")] } });
    await runCli(dir, ["import", "tools.json", "--definitions", "one"]);
    await runCli(dir, ["import", "tools.json", "--definitions", "two"]);
    expect(readFileSync(join(dir, "one/a.yaml"), "utf8")).toBe(readFileSync(join(dir, "two/a.yaml"), "utf8"));
  });

  it.each([["import"], ["import", "openapi"]])("%j: --definitions names the contracts folder; --out, its old name, still works with a warning naming --definitions; both, differing, is bad usage and writes nothing (issue #34)", async (...command) => {
    const spec = { openapi: "3.0.3", info: { title: "Shop", version: "1" }, paths: { "/a": { get: { operationId: "getA", responses: { 200: { description: "ok" } } } } } };
    const source = command.length === 1 ? "tools.json" : "api.json";
    const files = { "tools.json": { tools: [tool("getA")] }, "api.json": spec };
    const dir = project(files);
    const quiet = await runCli(dir, [...command, source, "--definitions", "contracts"]);
    expect(quiet.stderr).not.toMatch(/deprecated/);
    expect(existsSync(join(dir, "contracts/getA.yaml"))).toBe(true);
    const old = await runCli(dir, [...command, source, "--out", "older", "--force"]);
    expect(old.stderr).toMatch(/warning: --out is deprecated here, use --definitions/);
    expect(existsSync(join(dir, "older/getA.yaml"))).toBe(true);
    const both = await runCli(dir, [...command, source, "--out", "x", "--definitions", "y"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--out "x" and --definitions "y" name different folders/);
    expect(existsSync(join(dir, "x")) || existsSync(join(dir, "y"))).toBe(false);
  });

  it.each([[[]], [["a", "b"]], [["--bogus", "x"]]])("exits 2 on bad usage %j", async (args) => {
    expect((await runCli(mkdtempSync(join(tmpdir(), "toolc-import-")), ["import", ...args])).code).toBe(2);
  });
});
