/**
 * toolc.config.yaml: every command reads it, flags override it, and a bad
 * config is a located diagnostic with nothing written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";
import { projectFiles } from "../helpers/target-files.js";

function project(config: string | undefined, pkg?: object): string {
  const dir = copyDemo();
  // The demo's own config is not part of these cases: each writes the config it is about, or none.
  rmSync(join(dir, "toolc.config.yaml"));
  if (config !== undefined) writeFileSync(join(dir, "toolc.config.yaml"), config);
  if (pkg) writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  return dir;
}

const HANDLERS = `import type { Handlers } from "../out/index.js";
export const handlers: Handlers = {};
`;

describe("toolc.config.yaml", () => {
  it("sets the folders for generate, and a plain check agrees, handler tests included", async () => {
    const dir = project("definitions: definitions\nout: out\ntests: spec/contracts\nhandlers: src/handlers.ts\n");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/handlers.ts"), HANDLERS);
    const generated = await runCli(dir, ["generate"]);
    expect(generated.code, generated.stderr).toBe(0);
    expect(existsSync(join(dir, "out/index.ts"))).toBe(true);
    expect(existsSync(join(dir, "generated"))).toBe(false);
    const tests = snapshotTree(join(dir, "spec/contracts"));
    expect(Object.keys(tests).sort()).toEqual(["create_refund.test.ts", "delete_customer.test.ts", "get_order.test.ts", "search_orders.test.ts"]);
    expect(tests["get_order.test.ts"]).toContain('from "../../out/index.js"');
    expect(tests["get_order.test.ts"]).toContain('import { handlers } from "../../src/handlers.js";');
    const check = await runCli(dir, ["check"]);
    expect(check.code, check.stderr).toBe(0);
    // A check that leaves out the handlers (as a setup with flags in two places could) sees the difference.
    writeFileSync(join(dir, "no-handlers.yaml"), "out: out\ntests: spec/contracts\n");
    const other = await runCli(dir, ["check", "--config", "no-handlers.yaml"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("changed: spec/contracts/get_order.test.ts");
  });

  it("is overridden by flags", async () => {
    const dir = project("out: out\ntests: false\n");
    expect((await runCli(dir, ["generate", "--out", "elsewhere", "--tests", "t"])).code).toBe(0);
    expect(existsSync(join(dir, "elsewhere/index.ts"))).toBe(true);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(readdirSync(join(dir, "t"))).toHaveLength(4);
    const check = await runCli(dir, ["check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("missing: out/index.ts");
  });

  it("is found from a subfolder, with its paths relative to its own folder", async () => {
    const dir = project("out: out\ntests: false\n");
    mkdirSync(join(dir, "src"));
    const result = await runCli(join(dir, "src"), ["generate"]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "out/index.ts"))).toBe(true);
    expect(existsSync(join(dir, "src/out"))).toBe(false);
  });

  it("reports an unknown key at its place, with a suggestion, and writes nothing", async () => {
    const dir = project("# settings\nout: out\ndefinitons: definitions\n");
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("toolc.config.yaml:3:1: error TC002: unknown key `definitons` in toolc.config.yaml; did you mean `definitions`?");
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(existsSync(join(dir, "generated"))).toBe(false);
  });

  it("reports a value of the wrong kind at the value, for every command", async () => {
    const dir = project("out: out\ntests: true\nhandlers: 3\n");
    for (const args of [["generate"], ["check"], ["import", "x.json"]]) {
      const result = await runCli(dir, args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toContain("toolc.config.yaml:2:8: error TC003: `tests` must be a folder path, or false for no contract tests, not true");
      expect(result.stderr).toContain("toolc.config.yaml:3:11: error TC003: `handlers` must be a module path (e.g. src/handlers.ts), not 3");
    }
  });

  it("reports YAML syntax errors and folder clashes at their place", async () => {
    const broken = await runCli(project("out: [generated\n"), ["generate"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^toolc\.config\.yaml:\d+:\d+: error TC001: YAML syntax error/m);
    const clash = await runCli(project("out: gen\ntests: gen\n"), ["check"]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("toolc.config.yaml:2:8: error TC003: `tests` must be a folder of its own, not gen");
    const root = await runCli(project("out: .\n"), ["generate"]);
    expect(root.stderr).toContain("toolc.config.yaml:1:6: error TC003: `out` must be a folder inside the project");
  });

  it("is read from --config, which must exist", async () => {
    const dir = project(undefined);
    writeFileSync(join(dir, "ci.yaml"), "out: ci-out\ntests: false\n");
    expect((await runCli(dir, ["generate", "--config", "ci.yaml"])).code).toBe(0);
    expect(existsSync(join(dir, "ci-out/index.ts"))).toBe(true);
    const missing = await runCli(dir, ["generate", "--config", "nope.yaml"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.yaml:1:1: error TC006: config file not found: nope.yaml");
  });

  it("turns the provider exports and their warnings off with providers: false", async () => {
    const dir = project("tests: false\n");
    const withProviders = await runCli(dir, ["generate"]);
    expect(withProviders.stderr).toMatch(/warning TC070/);
    expect(withProviders.stderr).toMatch(/warning TC071/);
    expect(existsSync(join(dir, "generated/providers.ts"))).toBe(true);
    // What the providers target writes: providers.ts and the runtime only it imports (asked of the registry, not listed).
    const planned = await projectFiles(dir);
    const providerFiles = [...planned.byTarget.get("providers")!, ...planned.runtimeOf.get("providers")!];
    expect(providerFiles).toEqual(expect.arrayContaining(["generated/providers.ts", "generated/runtime/providers.ts", "generated/runtime/provider-nulls.ts"]));
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nproviders: false\n");
    const without = await runCli(dir, ["generate"]);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stderr).not.toMatch(/TC07\d/);
    expect(without.stdout).toContain(`, ${providerFiles.length} removed`);
    for (const file of providerFiles) expect(existsSync(join(dir, file)), file).toBe(false);
    expect((await runCli(dir, ["check"])).code).toBe(0);
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nproviders: no\n");
    expect((await runCli(dir, ["generate"])).stderr).toContain('toolc.config.yaml:2:12: error TC003: `providers` must be true or false, not "no"');
  });

  it("groups the tools' code by toolsPerChunk, and refuses a value that is not a whole number from 1 to 1000, located, writing nothing", async () => {
    const dir = project("tests: false\ntoolsPerChunk: 2\n");
    const grouped = await runCli(dir, ["generate"]);
    expect(grouped.code, grouped.stderr).toBe(0);
    // The groups alone: no copies are written (the runtime plans them from the served schemas, runtime/copy-plan.ts).
    const chunks = readdirSync(join(dir, "generated/chunks"));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((f) => /^group-\d+\.ts$/.test(f)), chunks.join(", ")).toBe(true);
    expect(existsSync(join(dir, "generated/validators/get_order.ts"))).toBe(false);
    expect((await runCli(dir, ["check"])).code).toBe(0);
    for (const bad of ["0", "2.5", "1001", '"many"']) {
      const refused = project(`tests: false\ntoolsPerChunk: ${bad}\n`);
      const result = await runCli(refused, ["generate"]);
      expect(result.code, bad).toBe(1);
      expect(result.stderr).toContain("toolc.config.yaml:2:16: error TC003: `toolsPerChunk` must be a whole number from 1 to 1000");
      expect(existsSync(join(refused, "generated"))).toBe(false);
    }
  });

  it("gives import its definitions folder", async () => {
    const dir = project("definitions: contracts\ntests: false\n");
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object" } }] }));
    const result = await runCli(dir, ["import", "tools.json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "contracts/ping.yaml"))).toBe(true);
  });
});

describe("contract tests by default", () => {
  it("go to test/toolc when package.json lists vitest, and are off otherwise", async () => {
    const withVitest = project(undefined, { devDependencies: { vitest: "4.1.12" } });
    expect((await runCli(withVitest, ["generate"])).code).toBe(0);
    expect(readdirSync(join(withVitest, "test/toolc"))).toHaveLength(4);
    expect(existsSync(join(withVitest, "generated/tests"))).toBe(false);

    const without = project(undefined, { dependencies: { ajv: "8.20.0" } });
    expect((await runCli(without, ["generate"])).code).toBe(0);
    expect(existsSync(join(without, "test"))).toBe(false);
    expect(Object.keys(snapshotTree(join(without, "generated"))).some((p) => p.endsWith(".test.ts"))).toBe(false);
  });

  it("are not written with --out alone, and a run for other folders removes none of the project's tests", async () => {
    const dir = project("tests: test/toolc\n", { devDependencies: { vitest: "4.1.12" } });
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const projectTests = snapshotTree(join(dir, "test/toolc"));
    expect(Object.keys(projectTests)).toContain("get_order.test.ts");
    mkdirSync(join(dir, "other"));
    writeFileSync(
      join(dir, "other/ping.yaml"),
      "name: ping\nversion: 1\ndescription: Ping.\neffect: read\ninput: { type: object }\noutput: { type: object }\n",
    );

    const outOnly = await runCli(dir, ["generate", "--definitions", "other", "--out", "elsewhere"]);
    expect(outOnly.code, outOnly.stderr).toBe(0);
    expect(existsSync(join(dir, "elsewhere/index.ts"))).toBe(true);
    expect(snapshotTree(join(dir, "test/toolc"))).toEqual(projectTests);
    expect(Object.keys(snapshotTree(join(dir, "elsewhere"))).some((p) => p.endsWith(".test.ts"))).toBe(false);

    // Both folders named: ping's test goes beside the project's, which import another output and stay.
    const both = await runCli(dir, ["generate", "--definitions", "other", "--out", "elsewhere", "--tests", "test/toolc"]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/, 0 removed/);
    expect(snapshotTree(join(dir, "test/toolc"))).toEqual({ ...projectTests, "ping.test.ts": expect.stringContaining('from "../../elsewhere/index.js"') });
    const check = await runCli(dir, ["check"]);
    expect(check.stderr).not.toMatch(/stale|missing|changed/);
  });

  it("moving them removes the old copies toolc wrote, and nothing else", async () => {
    const dir = project("tests: generated/tests\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(readdirSync(join(dir, "generated/tests"))).toHaveLength(4);
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: test/toolc\n");
    // The contract-tests target's files (one per tool) move; nothing else changes.
    const tests = (await projectFiles(dir)).byTarget.get("contract-tests")!;
    expect(tests).toHaveLength(4);
    const moved = await runCli(dir, ["generate"]);
    expect(moved.stdout).toMatch(new RegExp(`${tests.length} files written, \\d+ unchanged, ${tests.length} removed`));
    expect(existsSync(join(dir, "generated/tests"))).toBe(false);
    expect(readdirSync(join(dir, "test/toolc"))).toHaveLength(4);
  });

  describe("mcp.sdk: the MCP SDK line", () => {
    const portOf = (dir: string): string => readFileSync(join(dir, "generated/runtime/sdk.ts"), "utf8");
    const LINE_1 = '"@modelcontextprotocol/sdk/server/index.js"';
    const LINE_2 = '"@modelcontextprotocol/server"';

    it("follows package.json: the 1.x package gives line 1, the 2.x packages line 2, neither line 2", async () => {
      const cases: [object, string][] = [
        [{ dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } }, LINE_1],
        [{ dependencies: { "@modelcontextprotocol/server": "2.4.0" } }, LINE_2],
        [{ devDependencies: { "@modelcontextprotocol/client": "2.4.0", "@modelcontextprotocol/sdk": "1.32.2" } }, LINE_2],
        [{ name: "nothing-yet" }, LINE_2],
      ];
      for (const [pkg, expected] of cases) {
        const dir = project(undefined, pkg);
        const result = await runCli(dir, ["generate"]);
        expect(result.code, result.stderr).toBe(0);
        expect(portOf(dir), JSON.stringify(pkg)).toContain(expected);
      }
    });

    it("is set by the config over package.json, and by --mcp-sdk over both; check reads the same setting", async () => {
      const dir = project("mcp: { sdk: 2 }\n", { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });
      expect((await runCli(dir, ["generate"])).code).toBe(0);
      expect(portOf(dir)).toContain(LINE_2);
      expect((await runCli(dir, ["check"])).code).toBe(0);
      const stale = await runCli(dir, ["check", "--mcp-sdk", "1"]);
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain("changed: generated/runtime/sdk.ts");
      expect((await runCli(dir, ["generate", "--mcp-sdk", "1"])).code).toBe(0);
      expect(portOf(dir)).toContain(LINE_1);
    });

    it("refuses any other value, located, and a bad flag as a usage error", async () => {
      const dir = project("out: out\nmcp:\n  sdk: 3\n");
      const result = await runCli(dir, ["generate"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("toolc.config.yaml:3:3: error TC003: `mcp` must be a map with `sdk: 1` or `sdk: 2`");
      const flag = await runCli(project(undefined), ["generate", "--mcp-sdk", "3"]);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain('--mcp-sdk must be 1 or 2, not "3"');
    });
  });
});
