/**
 * The catalog runs on the project's own settings, and writes only where a
 * run is told to: `toolc docs` and the changelog normalize the contracts as
 * generate and `toolc diff` do (the config's `auth.defaultScopes`), and a run
 * whose --definitions or --out override the config's leaves the config's
 * catalog alone.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";

function git(dir: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "pipe" });
}

const AUTH = ["auth:", "  resource: https://mcp.example.com/mcp", "  authorizationServers: [https://auth.example.com/]", "  defaultScopes: [orders:read]"];

function config(...lines: string[]): string {
  return ["tests: false", "mcp: { sdk: 2 }", ...lines, ""].join("\n");
}

describe("the catalog normalizes with the project's settings", () => {
  it("keeps auth.defaultScopes in `toolc docs`' pages, and its changelog reports a default scope added as `toolc diff` does", async () => {
    const dir = copyDemo();
    writeFileSync(join(dir, "toolc.config.yaml"), config("docs:", "  out: docs/catalog"));
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "v1");
    git(dir, "tag", "v1");
    writeFileSync(join(dir, "toolc.config.yaml"), config(...AUTH, "docs:", "  out: docs/catalog", "  changelog: [git:v1]"));

    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const generated = snapshotTree(join(dir, "docs/catalog"));
    expect(generated["tools/get_order.md"]).toContain("orders:read");
    const docs = await runCli(dir, ["docs"]);
    expect(docs.code).toBe(0);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(generated);
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // The changelog lists every change `toolc diff` reports against the same base: the default scope, added to each tool.
    const reported = JSON.parse((await runCli(dir, ["diff", "--base", "git:v1", "--format", "json"])).stdout) as { changes: { tool: string; rule: string; message: string }[] };
    expect(reported.changes.length).toBe(4);
    const changelog = generated["changelog.md"] ?? "";
    expect(changelog).not.toContain("No contract changes");
    for (const change of reported.changes) {
      expect(change.rule).toBe("scope-added");
      const section = changelog.slice(changelog.indexOf(`### [\`${change.tool}\`]`)).split("\n### ")[0];
      // The changelog's Markdown escapes the message's underscores.
      expect(section).toContain(`| **⚠ breaking** | ${change.message.replaceAll("_", "\\_")} | the tool | \`scope-added\` |`);
    }

    // The base's config is part of what the changelog depends on: a tag moved to a commit with the same
    // definitions but the default scope in its config leaves nothing to report, and check sees it without a generate.
    git(dir, "add", "toolc.config.yaml");
    git(dir, "commit", "-qm", "auth");
    git(dir, "tag", "-f", "v1");
    const moved = await runCli(dir, ["check"]);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain("  changed: docs/catalog/changelog.md\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(readFileSync(join(dir, "docs/catalog/changelog.md"), "utf8")).toContain("No contract changes");
  });
});

describe("a run that overrides the config's folders leaves the config's catalog alone", () => {
  function project(changelog: string[] = []): { dir: string } {
    const dir = copyDemo();
    writeFileSync(join(dir, "toolc.config.yaml"), config("docs:", "  out: docs/catalog", ...changelog));
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "v1");
    git(dir, "tag", "v1");
    mkdirSync(join(dir, "other"));
    // Other contracts: one of the demo's tools, with the types it uses (search_orders: get_order's view calls create_refund).
    for (const file of ["search_orders.yaml", "types.yaml"]) copyFileSync(join(dir, "definitions", file), join(dir, "other", file));
    return { dir };
  }

  it("generate --definitions X --out Y writes Y only, not docs.out", async () => {
    const { dir } = project();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const before = snapshotTree(join(dir, "docs/catalog"));
    expect(Object.keys(before).length).toBe(13);
    const other = await runCli(dir, ["generate", "--definitions", "other", "--out", "other-out"]);
    expect(other.code).toBe(0);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(before);
    expect(existsSync(join(dir, "other-out/index.ts"))).toBe(true);
    expect((await runCli(dir, ["check", "--definitions", "other", "--out", "other-out"])).code).toBe(0);
    // --out alone, or --definitions alone, is another run too.
    expect((await runCli(dir, ["generate", "--out", "third-out"])).code).toBe(0);
    expect((await runCli(dir, ["generate", "--definitions", "other"])).code).toBe(0);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(before);
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect((await runCli(dir, ["check"])).code).toBe(0);
  });

  it("does not look the config's changelog refs up for other definitions", async () => {
    const { dir } = project(["  changelog: [git:v1]"]);
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const before = snapshotTree(join(dir, "docs/catalog"));
    const other = await runCli(dir, ["generate", "--definitions", "other", "--out", "other-out"]);
    expect(other.stderr).not.toContain("TC090");
    expect(other.code).toBe(0);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(before);
  });

  it("toolc docs --definitions X needs --out, and then reads no changelog base of the config's", async () => {
    const { dir } = project(["  changelog: [git:v1]"]);
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const before = snapshotTree(join(dir, "docs/catalog"));
    const refused = await runCli(dir, ["docs", "--definitions", "other"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--out");
    const elsewhere = await runCli(dir, ["docs", "--definitions", "other", "--out", "other-docs"]);
    expect(elsewhere.stderr).not.toContain("TC090");
    expect(elsewhere.stderr).not.toContain("to keep this catalog fresh");
    expect(elsewhere.code).toBe(0);
    expect(readFileSync(join(dir, "other-docs/index.md"), "utf8")).toContain("search_orders");
    expect(existsSync(join(dir, "other-docs/changelog.md"))).toBe(false);
    expect(snapshotTree(join(dir, "docs/catalog"))).toEqual(before);
  });
});
