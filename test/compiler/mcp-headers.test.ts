/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243) in the contract format: every
 * rule the revision's tools page states is a located error, and a valid
 * declaration reaches the IR (and so the served schema, unchanged, and the
 * contract's `mcpHeaders`, which the HTTP entry checks requests against).
 */
import { describe, expect, it } from "vitest";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";

const TYPES = `types:
  Region: { type: string, x-mcp-header: Region }
  Plain: { type: string }
`;

/** A tool whose input properties are the given YAML lines (indented under `properties:`). */
function tool(properties: string, output = "output: { type: object }"): string {
  return `name: t\nversion: 1\ndescription: d\neffect: read\ninput:\n  type: object\n  properties:\n${properties}\n${output}\n`;
}

function run(toolYaml: string, types = "types: {}\n") {
  const loaded = loadDefinitionsFromTexts([
    { source: "types.yaml", display: "types.yaml", text: types },
    { source: "t.yaml", display: "t.yaml", text: toolYaml },
  ]);
  return normalize(loaded);
}

describe("x-mcp-header: valid declarations", () => {
  it.each([
    ["a string", "    region: { type: string, maxLength: 20, x-mcp-header: Region }", [{ name: "Region", path: ["region"], type: "string" }]],
    ["a boolean", "    dry: { type: boolean, x-mcp-header: Dry-Run }", [{ name: "Dry-Run", path: ["dry"], type: "boolean" }]],
    ["a bounded integer", "    shard: { type: integer, minimum: 0, maximum: 63, x-mcp-header: Shard }", [{ name: "Shard", path: ["shard"], type: "integer" }]],
    ["a nested property, reached through properties alone", "    where:\n      type: object\n      properties:\n        zone: { type: string, maxLength: 9, x-mcp-header: Zone }", [{ name: "Zone", path: ["where", "zone"], type: "string" }]],
    ["every tchar", "    odd: { type: string, maxLength: 9, x-mcp-header: \"a!#$%&'*+-.^_`|~9\" }", [{ name: "a!#$%&'*+-.^_`|~9", path: ["odd"], type: "string" }]],
  ])("%s", (_name, properties, want) => {
    const { ir, diagnostics } = run(tool(properties));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(ir.tools[0]?.mcpHeaders).toEqual(want);
    // Served as written: the keyword stays in the input schema.
    expect(JSON.stringify(ir.tools[0]?.inputSchema)).toContain(`"x-mcp-header":${JSON.stringify(want[0]?.name)}`);
  });

  it("leaves mcpHeaders out of a tool without declarations", () => {
    expect(run(tool("    q: { type: string, maxLength: 9 }")).ir.tools[0]?.mcpHeaders).toBeUndefined();
  });
});

describe("x-mcp-header: located errors", () => {
  it.each([
    ["an empty name", "    r: { type: string, maxLength: 9, x-mcp-header: \"\" }", "TC080", 8, 52],
    ["a name with a space", "    r: { type: string, maxLength: 9, x-mcp-header: \"My Region\" }", "TC080", 8, 52],
    ["a name with a delimiter", "    r: { type: string, maxLength: 9, x-mcp-header: \"Region:1\" }", "TC080", 8, 52],
    ["a number property", "    r: { type: number, x-mcp-header: Ratio }", "TC082", 8, 24],
    ["a property with two types", "    r: { type: [string, \"null\"], maxLength: 9, x-mcp-header: R }", "TC082", 8, 48],
    ["a property with no type", "    r: { enum: [a, b], x-mcp-header: R }", "TC082", 8, 24],
    ["an object property", "    r: { type: object, x-mcp-header: R }", "TC082", 8, 24],
    ["a property under items", "    r:\n      type: array\n      maxItems: 3\n      items: { type: string, maxLength: 9, x-mcp-header: R }", "TC081", 11, 44],
    ["a property inside oneOf", "    r:\n      oneOf:\n        - { type: string, maxLength: 9, x-mcp-header: R }\n        - { type: integer }", "TC081", 10, 41],
    ["a property beside $ref", "    r: { $ref: \"types.yaml#/Plain\", x-mcp-header: R }", "TC081", 8, 37],
    ["a duplicate, ignoring case", "    a: { type: string, maxLength: 9, x-mcp-header: Region }\n    b: { type: string, maxLength: 9, x-mcp-header: region }", "TC083", 9, 52],
    ["a sensitive property", "    token: { type: string, maxLength: 99, x-sensitive: true, x-mcp-header: Token }", "TC084", 8, 62],
  ])("%s", (_name, properties, code, line, col) => {
    const { diagnostics } = run(tool(properties), TYPES.replace("Region: { type: string, x-mcp-header: Region }\n  ", ""));
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, d.file, d.line, d.col])).toEqual([[code, "t.yaml", line, col]]);
  });

  it("refuses a declaration in an output", () => {
    const { diagnostics } = run(tool("    q: { type: string, maxLength: 9 }", "output:\n  type: object\n  properties:\n    r: { type: string, x-mcp-header: R }"));
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.line, d.col])).toEqual([["TC081", 12, 24]]);
  });

  it("refuses a declaration in a named type, at the types file", () => {
    const { diagnostics } = run(tool("    q: { type: string, maxLength: 9 }"), TYPES);
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.file, d.line, d.col])).toEqual([["TC081", "types.yaml", 2, 27]]);
  });

  it("warns about an integer that may leave the range a client can mirror", () => {
    const { ir, diagnostics } = run(tool("    n: { type: integer, x-mcp-header: N }"));
    expect(diagnostics.map((d) => [d.severity, d.code, d.line, d.col])).toEqual([["warning", "TC085", 8, 25]]);
    expect(ir.tools[0]?.mcpHeaders).toEqual([{ name: "N", path: ["n"], type: "integer" }]);
  });
});
