/**
 * Deferred loading in the contract and the config: a contract's `loading`,
 * else the config's globs (`eager` over `deferred`), else its `default`,
 * else eager; resolved once in normalize into the IR, so every target reads
 * one answer; and a bad value located in the contract or the config.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadingOf, type LoadingSetting } from "../../generator/config/loading.js";
import { resolvePlan } from "../../generator/plan/index.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize, type NormalizeOptions } from "../../generator/normalize/index.js";
import { runCli } from "./helpers.js";

const contract = (name: string, extra: string[] = []): string =>
  [`name: ${name}`, "version: 1", "description: A tool.", "effect: read", ...extra, "input: { type: object }", "output: { type: object }", ""].join("\n");

function compile(files: Record<string, string>, options: NormalizeOptions = {}) {
  const texts = Object.entries(files).map(([source, text]) => ({ source, display: `definitions/${source}`, text }));
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts(texts), options);
  return { loading: Object.fromEntries(ir.tools.map((t) => [t.name, t.loading ?? "eager"])), diagnostics: diagnostics.map(formatDiagnostic) };
}

const SETTING: LoadingSetting = { default: "eager", deferred: ["definitions/github/**"], eager: ["definitions/github/issues/**"], definitions: "definitions" };

describe("a tool's loading", () => {
  it("is the contract's, else an eager glob, else a deferred glob, else the default, else eager", () => {
    expect(loadingOf(undefined, "orders.yaml", undefined)).toBe("eager");
    expect(loadingOf("deferred", "orders.yaml", undefined)).toBe("deferred");
    expect(loadingOf(undefined, "github/repos/get.yaml", SETTING)).toBe("deferred");
    expect(loadingOf(undefined, "github/issues/create.yaml", SETTING)).toBe("eager");
    expect(loadingOf("deferred", "github/issues/create.yaml", SETTING)).toBe("deferred");
    expect(loadingOf("eager", "github/repos/get.yaml", SETTING)).toBe("eager");
    expect(loadingOf(undefined, "orders.yaml", { ...SETTING, default: "deferred" })).toBe("deferred");
    // Globs are relative to the config's folder: a definitions folder elsewhere is part of the path.
    expect(loadingOf(undefined, "github/repos/get.yaml", { ...SETTING, definitions: "src/defs" })).toBe("eager");
  });

  it("is resolved in normalize into the IR: absent for eager, so eager tools compile as before", () => {
    const files = { "a.yaml": contract("a"), "b.yaml": contract("b", ["loading: deferred"]), "github/repos/get.yaml": contract("c") };
    expect(compile(files)).toEqual({ loading: { a: "eager", b: "deferred", c: "eager" }, diagnostics: [] });
    expect(compile(files, { loading: SETTING }).loading).toEqual({ a: "eager", b: "deferred", c: "deferred" });
  });

  it("refuses a bad value in a contract at its place", () => {
    const { diagnostics } = compile({ "a.yaml": contract("a", ["loading: lazy"]) });
    expect(diagnostics.join("\n")).toMatch(/^definitions\/a\.yaml:5:10: error TC003: `loading` must be one of eager, deferred$/m);
  });
});

describe("the config's `loading:` section", () => {
  function project(config: string): string {
    const dir = mkdtempSync(join(tmpdir(), "toolc-loading-"));
    writeFileSync(join(dir, "package.json"), "{}\n");
    writeFileSync(join(dir, "toolc.config.yaml"), config);
    mkdirSync(join(dir, "defs/github/issues"), { recursive: true });
    writeFileSync(join(dir, "defs/orders.yaml"), contract("orders"));
    writeFileSync(join(dir, "defs/github/repos.yaml"), contract("repos"));
    writeFileSync(join(dir, "defs/github/issues/create.yaml"), contract("issues_create"));
    return dir;
  }

  it("reaches the plan resolved against the definitions folder, and generate defers the matched tools in providers.ts", async () => {
    const dir = project("definitions: defs\ntests: false\nloading:\n  deferred: [defs/github]\n  eager: [defs/github/issues/*.yaml]\n");
    try {
      const { plan, diagnostics } = await resolvePlan(dir, {});
      expect(diagnostics).toEqual([]);
      expect(plan?.normalize.loading).toEqual({ default: "eager", deferred: ["defs/github"], eager: ["defs/github/issues/*.yaml"], definitions: "defs" });
      expect((await runCli(dir, ["generate"])).code).toBe(0);
      const providers = readFileSync(join(dir, "generated/providers.ts"), "utf8");
      // Every provider section reads the one answer from the IR: OpenAI's list, Anthropic's flag, the AI SDK's setting.
      expect(providers).toMatch(/const openaiDeferred: readonly string\[\] = \[\s*"repos",?\s*\];/);
      const anthropicDeferred = providers
        .split("anthropicTool(")
        .slice(1)
        .map((block) => block.split(/\n  \}\),|\}\),\n/)[0] ?? "")
        .filter((block) => block.includes("defer_loading: true"));
      // Each entry names its contract, which gives the tool's name at load.
      expect(anthropicDeferred.map((block) => /^(\w+)Contract,/.exec(block)?.[1])).toEqual(["repos"]);
      expect(providers).toMatch(/repos: \{\s*strict: \w+,\s*deferLoading: true/);
      expect(providers.match(/deferLoading: true/g)).toHaveLength(1);
      // The MCP side is unchanged: tools/list's contracts (the served schemas) and the server say nothing of it.
      for (const file of ["generated/contracts.ts", "generated/index.ts"]) {
        expect(readFileSync(join(dir, file), "utf8")).not.toMatch(/defer|loading/i);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("locates a bad value in the config", async () => {
    const dir = project("definitions: defs\nloading:\n  default: lazy\n  deferal: []\n");
    try {
      const { diagnostics } = await resolvePlan(dir, {});
      const text = diagnostics.map(formatDiagnostic).join("\n");
      // The section's value, with what it takes; an unknown key inside it, at the key.
      expect(text).toContain("toolc.config.yaml:3:3: error TC003: `loading` must be a map with `default: eager | deferred`");
      expect(text).toMatch(/toolc\.config\.yaml:4:3: error TC002: unknown key `deferal`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
