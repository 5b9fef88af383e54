/**
 * What a tool is beyond its schemas, and the contract features of MCP
 * 2026-07-28: `openWorld`, deprecation with a sunset (in the contract, in the
 * served `_meta`, and in the diff), `x-mcp-header` on input properties,
 * output roots that are not objects, and `diff.undecided: fail`.
 */
import { describe, expect, it } from "vitest";
import { parseDiffConfig, EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { looseSide } from "./helpers.js";

function tool(policy: string, name = "t"): string {
  return [`name: ${name}`, "version: 1", "description: A tool.", policy, "input: { type: object }", "output: { type: object }", ""].join("\n");
}

function compiled(...texts: string[]) {
  const result = sideFromTexts(texts.map((text, i) => ({ source: `t${i}.yaml`, display: `t${i}.yaml`, text })), ".");
  return result;
}

function side(...texts: string[]) {
  const result = compiled(...texts);
  if (!result.side) throw new Error(result.diagnostics.map(formatDiagnostic).join("\n"));
  return result.side;
}

const lines = (result: ReturnType<typeof diffContracts>) => result.changes.map((c) => `${c.rule} ${c.level}`);

describe("openWorld", () => {
  it("a tool that now reaches an open world breaks hosts that ran it unattended; the other way is info", () => {
    expect(lines(diffContracts(side(tool("effect: read")), side(tool("effect: read\nopenWorld: true")), EMPTY_DIFF_CONFIG))).toEqual(["open-world-added breaking"]);
    expect(lines(diffContracts(side(tool("effect: read\nopenWorld: true")), side(tool("effect: read")), EMPTY_DIFF_CONFIG))).toEqual(["open-world-removed info"]);
  });

  it("is served as openWorldHint", () => {
    expect(side(tool("effect: read\nopenWorld: true")).ir.tools[0]?.annotations.openWorldHint).toBe(true);
  });
});

describe("deprecation and sunset", () => {
  const deprecated = tool("effect: read\ndeprecated: Use t2 instead.\nsunset: 2030-06-30");

  it("are served in the tool's _meta, and only on a deprecated tool", () => {
    expect(side(deprecated).ir.tools[0]?.meta).toMatchObject({ "toolc/deprecated": "Use t2 instead.", "toolc/sunset": "2030-06-30" });
    expect(Object.keys(side(tool("effect: read")).ir.tools[0]?.meta ?? {})).toEqual(["toolc/contractVersion", "toolc/schemaHash"]);
    expect(side(tool("effect: read\ndeprecated: true")).ir.tools[0]?.meta).toMatchObject({ "toolc/deprecated": true });
  });

  it("a sunset needs deprecated, and must be a calendar day (located errors)", () => {
    const without = compiled(tool("effect: read\nsunset: 2030-06-30"));
    expect(without.diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(/^t0\.yaml:5:1: error TC003: `sunset` needs `deprecated`/)]);
    const day = compiled(tool("effect: read\ndeprecated: true\nsunset: 2030-02-30"));
    expect(day.diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(/^t0\.yaml:6:9: error TC003: `sunset` "2030-02-30" is not a calendar day/)]);
    const format = compiled(tool("effect: read\ndeprecated: true\nsunset: next year"));
    expect(format.side).toBeUndefined();
  });

  it("deprecating is info; a sunset moved earlier is a warning, later is info", () => {
    expect(lines(diffContracts(side(tool("effect: read")), side(deprecated), EMPTY_DIFF_CONFIG))).toEqual(["tool-deprecated info"]);
    const earlier = tool("effect: read\ndeprecated: Use t2 instead.\nsunset: 2030-01-31");
    expect(lines(diffContracts(side(deprecated), side(earlier), EMPTY_DIFF_CONFIG))).toEqual(["sunset-moved-earlier warning"]);
    expect(lines(diffContracts(side(earlier), side(deprecated), EMPTY_DIFF_CONFIG))).toEqual(["sunset-moved-later info"]);
    expect(lines(diffContracts(side(deprecated), side(tool("effect: read")), EMPTY_DIFF_CONFIG))).toEqual(["tool-reactivated info"]);
  });

  it("removing a tool before its sunset is breaking; on or after it, info", () => {
    const other = tool("effect: read", "u");
    const before = diffContracts(side(deprecated, other), side(other), EMPTY_DIFF_CONFIG, "2030-06-29");
    expect(lines(before)).toEqual(["tool-removed breaking"]);
    expect(before.changes[0]?.message).toBe("tool `t` removed before its sunset (2030-06-30)");
    expect(before.unversioned).toEqual(["t"]);
    const on = diffContracts(side(deprecated, other), side(other), EMPTY_DIFF_CONFIG, "2030-06-30");
    expect(lines(on)).toEqual(["tool-removed-after-sunset info"]);
    expect(on.unversioned).toEqual([]);
  });

  it("removing a deprecated tool that has no sunset is breaking: callers were given no day", () => {
    const result = diffContracts(side(tool("effect: read\ndeprecated: true"), tool("effect: read", "u")), side(tool("effect: read", "u")), EMPTY_DIFF_CONFIG, "2999-01-01");
    expect(result.changes[0]?.message).toBe("tool `t` removed (deprecated, but with no sunset: callers were given no day)");
    expect(result.unversioned).toEqual(["t"]);
  });
});

/** A tool file for the loose sides below: input and output as JSON. */
const loose = (input: object, output: object = { type: "object", additionalProperties: false }) => [{ source: "t.yaml", text: JSON.stringify({ name: "t", version: 1, description: "t", effect: "read", input, output }) }];
const closed = (properties: object, extra: object = {}) => ({ type: "object", properties, additionalProperties: false, ...extra });

describe("x-mcp-header (MCP 2026-07-28)", () => {
  const withHeader = (header: string | undefined) => loose(closed({ region: { type: "string", ...(header === undefined ? {} : { "x-mcp-header": header }) }, query: { type: "string" } }, { required: ["region", "query"] }));
  const run = (a: string | undefined, b: string | undefined) => diffContracts(looseSide(withHeader(a)), looseSide(withHeader(b)), EMPTY_DIFF_CONFIG);

  it("changing the header name is breaking: old callers send the old header and are refused", () => {
    const result = run("Region", "Zone");
    expect(lines(result)).toEqual(["mcp-header-changed breaking"]);
    expect(result.changes[0]).toMatchObject({ field: "input.region", message: expect.stringContaining("`Mcp-Param-Region` → `Mcp-Param-Zone`") });
  });

  it("removing it is breaking; adding one is a warning (callers that have not listed again are refused until they do)", () => {
    expect(lines(run("Region", undefined))).toEqual(["mcp-header-removed breaking"]);
    expect(lines(run(undefined, "Region"))).toEqual(["mcp-header-added warning"]);
  });

  it("header names are case-insensitive: a change of case is no change", () => {
    expect(lines(run("Region", "REGION"))).toEqual([]);
  });

  it("is an annotation for the schema comparison: output carries no header", () => {
    const out = (header?: string) => loose({ type: "object", additionalProperties: false }, closed({ r: { type: "string", ...(header ? { "x-mcp-header": header } : {}) } }));
    expect(lines(diffContracts(looseSide(out()), looseSide(out("Region")), EMPTY_DIFF_CONFIG))).toEqual([]);
  });
});

describe("outputs that are not objects (MCP 2026-07-28)", () => {
  const output = (schema: object) => looseSide(loose({ type: "object", additionalProperties: false }, schema));
  const outputLines = (a: object, b: object) => diffContracts(output(a), output(b), EMPTY_DIFF_CONFIG).changes.flatMap((c) => c.affects.map((x) => `${c.rule} ${x.direction} ${x.level}`));

  it("an array output: items widened is breaking, narrowed is compatible", () => {
    expect(outputLines({ type: "array", items: { type: "integer" } }, { type: "array", items: { type: "number" } })).toEqual(["type-widened output breaking"]);
    expect(outputLines({ type: "array", items: { type: "number" } }, { type: "array", items: { type: "integer" } })).toEqual(["type-narrowed output info"]);
  });

  it("an array output of closed objects: a property added is dropped by old clients", () => {
    const item = (props: object) => ({ type: "array", items: closed(props) });
    expect(outputLines(item({ a: { type: "string" } }), item({ a: { type: "string" }, b: { type: "string" } }))).toEqual(["property-added-optional output info"]);
  });

  it("a string output: a pattern removed is breaking, a maxLength added is not", () => {
    expect(outputLines({ type: "string", pattern: "^a" }, { type: "string" })).toEqual(["bound-loosened output breaking"]);
    expect(outputLines({ type: "string" }, { type: "string", maxLength: 5 })).toEqual(["bound-tightened output info"]);
  });

  it("a union output: a branch added is breaking; an object output became a string is a type change", () => {
    expect(outputLines({ anyOf: [{ type: "string" }, { type: "null" }] }, { anyOf: [{ type: "string" }, { type: "null" }, { type: "integer" }] })).toEqual(["type-widened output breaking"]);
    expect(outputLines({ type: "object", additionalProperties: false }, { type: "string" })).toEqual(["type-changed output breaking"]);
  });
});

describe("diff.undecided", () => {
  const locate = () => ({ file: "toolc.config.yaml", line: 1, col: 1 });
  const pattern = (p: string) => side([`name: t`, "version: 1", "description: A tool.", "effect: read", `input: { type: object, properties: { v: { type: string, pattern: "${p}" } } }`, "output: { type: object }", ""].join("\n"));
  const undecided = () => diffContracts(pattern("^(?=a)[a-z]+$"), pattern("^(?=a)[a-z0-9]+$"), EMPTY_DIFF_CONFIG);

  it("by default an undecided change is reported and passes", () => {
    const result = undecided();
    expect(lines(result)).toEqual(["pattern-changed undecided"]);
    expect(result.unversioned).toEqual([]);
  });

  it("with `undecided: fail` it counts as breaking: without a version bump the tool is listed", () => {
    const { config, diagnostics } = parseDiffConfig({ undecided: "fail" }, locate);
    expect(diagnostics).toEqual([]);
    const result = diffContracts(pattern("^(?=a)[a-z]+$"), pattern("^(?=a)[a-z0-9]+$"), config);
    expect(result.unversioned).toEqual(["t"]);
    expect(result.undecidedFails).toBe(true);
  });

  it("refuses any other value, located", () => {
    expect(parseDiffConfig({ undecided: "maybe" }, locate).diagnostics.map((d) => d.message)).toEqual(["`diff.undecided` must be `warn` or `fail`"]);
  });
});
