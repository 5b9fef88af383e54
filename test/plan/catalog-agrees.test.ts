/**
 * Every reader of the definitions sees the same contracts: with the config's
 * non-default normalize options (`auth.defaultScopes`, `providers: false`),
 * the catalog that `generate` writes, the one `toolc docs` writes, the
 * served schemas and `toolc diff` agree on each tool's scopes, and the
 * catalog's changelog lists exactly the changes `toolc diff` reports.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";

function git(dir: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "pipe" });
}

const CONFIG = [
  "tests: false",
  "mcp: { sdk: 2 }",
  "providers: false",
  "schemasJson: true",
  "auth:",
  "  resource: https://mcp.example.com/mcp",
  "  authorizationServers: [https://auth.example.com/]",
  "  defaultScopes: [orders:read, orders:audit]",
  "docs:",
  "  out: docs/catalog",
  "  changelog: [git:v1]",
  "",
].join("\n");

/** Each tool's scopes as the served schema states them (generated/schemas/<tool>.json, `policy.scopes`, written with `schemasJson: true`). */
function servedScopes(dir: string, tools: readonly string[]): Record<string, readonly string[]> {
  return Object.fromEntries(
    tools.map((tool) => {
      const document = JSON.parse(readFileSync(join(dir, "generated/schemas", `${tool}.json`), "utf8")) as { policy: { scopes?: string[] } };
      return [tool, document.policy.scopes ?? []];
    }),
  );
}

/** Each tool's scopes as the catalog's index lists them (index.md: name | title | effect | scopes | ...). */
function catalogScopes(catalog: Record<string, string>, tools: readonly string[]): Record<string, readonly string[]> {
  const index = catalog["index.md"] ?? "";
  return Object.fromEntries(
    tools.map((tool) => {
      const row = index.split("\n").find((line) => line.startsWith(`| [\`${tool}\`]`)) ?? "";
      const cell = row.split(" | ")[3] ?? "";
      return [tool, [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "")];
    }),
  );
}

describe("catalog, docs, diff and the served schemas agree on the plan's normalize options", () => {
  it("shows the default scopes everywhere, and the changelog is `toolc diff`'s report", async () => {
    const dir = copyDemo();
    // v1: the same contracts, with no auth section (so no scopes).
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\n");
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "v1");
    git(dir, "tag", "v1");
    writeFileSync(join(dir, "toolc.config.yaml"), CONFIG);

    const generated = await runCli(dir, ["generate"]);
    expect(generated.code).toBe(0);
    // providers: false is applied: no provider exports, and none of their lints.
    expect(existsSync(join(dir, "generated/providers.ts"))).toBe(false);
    expect(generated.stderr).not.toMatch(/TC07[0-2]/);
    const catalog = snapshotTree(join(dir, "docs/catalog"));
    const tools = ["create_refund", "delete_customer", "get_order", "search_orders"];

    const served = servedScopes(dir, tools);
    for (const tool of tools) expect(served[tool]).toEqual(["orders:read", "orders:audit"]);
    expect(catalogScopes(catalog, tools)).toEqual(served);

    // `toolc docs` writes the very same catalog, and check agrees.
    expect((await runCli(dir, ["docs"])).code).toBe(0);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(catalog);
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // The changelog holds every change `toolc diff` reports against the same base, and no other.
    const diff = await runCli(dir, ["diff", "--base", "git:v1", "--format", "json"]);
    const reported = JSON.parse(diff.stdout) as { changes: { tool: string; rule: string; message: string }[] };
    expect(reported.changes.map((c) => c.rule)).toEqual(tools.flatMap(() => ["scope-added", "scope-added"]));
    const changelog = catalog["changelog.md"] ?? "";
    const rows = changelog.split("\n").filter((line) => line.startsWith("| **"));
    expect(rows).toHaveLength(reported.changes.length);
    for (const change of reported.changes) expect(changelog).toContain(change.message.replaceAll("_", "\\_"));
  });
});
