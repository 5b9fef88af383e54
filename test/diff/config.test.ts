/** The `diff:` section, parsed by the pure function any config loader can call. */
import { describe, expect, it } from "vitest";
import { parseDiffConfig, ruleApplies } from "../../generator/diff/config.js";

/** Locates a node by its path, so each error can be checked for where it points. */
const locate = (path: readonly (string | number)[]) => ({ file: "toolc.config.yaml", line: path.length + 1, col: String(path.at(-1) ?? "").length + 1 });

describe("parseDiffConfig", () => {
  it("reads except, ignore and ignore_only", () => {
    const { config, diagnostics } = parseDiffConfig({ except: ["default-changed"], ignore: ["legacy"], ignore_only: { "enum-value-added": ["list_orders"] } }, locate);
    expect(diagnostics).toEqual([]);
    expect(ruleApplies(config, "default-changed", "any_tool")).toBe(false);
    expect(ruleApplies(config, "type-narrowed", "legacy")).toBe(false);
    expect(ruleApplies(config, "enum-value-added", "list_orders")).toBe(false);
    expect(ruleApplies(config, "enum-value-added", "get_order")).toBe(true);
  });

  it("a missing section turns nothing off", () => {
    const { config, diagnostics } = parseDiffConfig(undefined, locate);
    expect(diagnostics).toEqual([]);
    expect(ruleApplies(config, "tool-removed", "t")).toBe(true);
  });

  it("reports every problem at its node", () => {
    const { diagnostics } = parseDiffConfig({ excpt: [], except: ["nope", 3], ignore: "t", ignore_only: { "type-narowed": ["t"] } }, locate);
    expect(diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual([
      "2:6 TC002 unknown key `excpt` in `diff`; did you mean `except`?",
      "3:2 TC003 `diff.except` must hold names (strings)",
      "3:2 TC003 unknown diff rule `nope`; docs/evolution.md lists the rules",
      "2:7 TC003 `diff.ignore` must be a list of names",
      "3:13 TC003 unknown diff rule `type-narowed`; did you mean `type-narrowed`?",
    ]);
  });

  it("refuses a section that is not a map", () => {
    expect(parseDiffConfig(["except"], locate).diagnostics.map((d) => d.code)).toEqual(["TC003"]);
  });
});

describe("the config file's schema", () => {
  it("describes the diff section exactly as parseDiffConfig reads it, for editors", async () => {
    const { readFileSync } = await import("node:fs");
    const { DIFF_CONFIG_SCHEMA } = await import("../../generator/diff/config.js");
    const schema = JSON.parse(readFileSync(new URL("../../schema/config.schema.json", import.meta.url), "utf8")) as { properties: Record<string, Record<string, unknown>> };
    const { "x-expects": expects, ...diff } = schema.properties["diff"] ?? {};
    expect(typeof expects).toBe("string");
    expect(diff).toEqual(JSON.parse(JSON.stringify(DIFF_CONFIG_SCHEMA)));
  });
});
