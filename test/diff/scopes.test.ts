/**
 * `toolc diff` on a tool's scopes: a scope a call newly needs breaks the
 * callers whose tokens lack it; one dropped is info. The config's default
 * scopes count for a tool without `scopes` of its own, on both sides.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import type { NormalizeOptions } from "../../generator/normalize/index.js";

const tool = (scopes: string | undefined): string =>
  ["name: t", "version: 1", "description: A tool.", "effect: write", ...(scopes === undefined ? [] : [`scopes: ${scopes}`]), "input: { type: object }", "output: { type: object }", ""].join("\n");

function side(text: string, options: NormalizeOptions) {
  const result = sideFromTexts([{ source: "t.yaml", display: "t.yaml", text }], ".", options);
  if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.side;
}

/** Every change as `rule level line:col: message`, and the tools left without a version bump. */
function diff(base: string, head: string, options: NormalizeOptions = {}) {
  const result = diffContracts(side(base, options), side(head, options), EMPTY_DIFF_CONFIG);
  return { changes: result.changes.map((c) => `${c.rule} ${c.level} ${c.line}:${c.col}: ${c.message}`), unversioned: result.unversioned };
}

const withDefault = (scopes: string[]): NormalizeOptions => ({ auth: { defaultScopes: scopes, server: {} } });

describe("scope rules", () => {
  const cases: [string, string | undefined, string | undefined, NormalizeOptions, string[]][] = [
    ["a scope added", "[orders:read]", "[orders:read, orders:write]", {}, ["scope-added breaking 5:9: scope orders:write now required: callers whose tokens lack it are refused (403 insufficient_scope)"]],
    ["the first scope", undefined, "[orders:write]", {}, ["scope-added breaking 5:9: scope orders:write now required: callers whose tokens lack it are refused (403 insufficient_scope)"]],
    ["a scope removed", "[orders:read, orders:write]", "[orders:read]", {}, ["scope-removed info 5:9: scope orders:write no longer required"]],
    ["the same scopes in another order", "[a:x, b:y]", "[b:y, a:x]", {}, []],
    ["the default written out", undefined, "[mcp:tools]", withDefault(["mcp:tools"]), []],
    ["more than the default", undefined, "[mcp:tools, orders:write]", withDefault(["mcp:tools"]), ["scope-added breaking 5:9: scope orders:write now required: callers whose tokens lack it are refused (403 insufficient_scope)"]],
    ["opting out of the default", undefined, "[]", withDefault(["mcp:tools"]), ["scope-removed info 5:9: scope mcp:tools no longer required"]],
  ];
  it.each(cases)("%s", (_name, base, head, options, expected) => {
    expect(diff(tool(base), tool(head), options).changes).toEqual(expected);
  });

  it("a scope added without a version bump fails the diff", () => {
    expect(diff(tool("[orders:read]"), tool("[orders:read, orders:write]")).unversioned).toEqual(["t"]);
    expect(diff(tool("[orders:read, orders:write]"), tool("[orders:read]")).unversioned).toEqual([]);
  });
});

describe("confirm rules", () => {
  const confirmTool = (confirm: boolean): string => tool(undefined).replace("effect: write\n", `effect: write\n${confirm ? "confirm: true\n" : ""}`);

  it("confirm added is breaking: clients that cannot ask the user are refused", () => {
    const { changes, unversioned } = diff(confirmTool(false), confirmTool(true));
    expect(changes.filter((c) => c.startsWith("confirm-"))).toEqual([
      "confirm-added breaking 5:10: confirm false → true: every call now waits for the user's approval; clients that cannot ask for it, and unattended runs, are refused (CONFIRMATION_UNAVAILABLE)",
    ]);
    expect(unversioned).toEqual(["t"]);
  });

  it("confirm removed is info", () => {
    const { changes, unversioned } = diff(confirmTool(true), confirmTool(false));
    expect(changes.filter((c) => c.startsWith("confirm-"))).toEqual(["confirm-removed info 1:7: confirm true → false: calls no longer wait for the user's approval"]);
    expect(unversioned).toEqual([]);
  });

  it("confirm removed from a destructive tool is a warning: the last guard before a deletion is gone", () => {
    const destructive = (confirm: boolean): string => confirmTool(confirm).replace("effect: write\n", "effect: destructive\n");
    const { changes, unversioned } = diff(destructive(true), destructive(false));
    expect(changes.filter((c) => c.startsWith("confirm-"))).toEqual([
      "confirm-removed warning 1:7: confirm true → false: destructive calls no longer wait for the user's approval",
    ]);
    expect(unversioned).toEqual([]);
  });
});
