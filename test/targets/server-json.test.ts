/**
 * The server.json target, end to end through the CLI: with `registry:` in
 * the config, generate writes server.json into the output folder, valid
 * against the registry's documented format (server-json.checks.json beside
 * this test, written for toolc: see its README); without the section it
 * writes none (and removes the one it wrote); a bad section stops the run
 * with located diagnostics and writes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { TARGETS } from "../../generator/targets/registry.js";
import { copyDemo, ROOT, runCli, snapshotTree } from "../compiler/helpers.js";

const SCHEMA = JSON.parse(readFileSync(join(ROOT, "test/targets/server-json/server-json.checks.json"), "utf8")) as object;

function validator() {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(SCHEMA);
}

function withConfig(...lines: string[]): string {
  const dir = copyDemo();
  writeFileSync(join(dir, "toolc.config.yaml"), ["tests: false", "mcp: { sdk: 2 }", ...lines, ""].join("\n"));
  return dir;
}

describe("the server.json target", () => {
  it("writes a server.json the registry's format accepts, with package.json's version and the config's packages and remotes", async () => {
    const dir = withConfig(
      "registry:",
      "  name: io.github.acme/orders",
      "  description: Orders, refunds and customers for the Acme shop",
      "  packages:",
      "    - registryType: npm",
      "      identifier: '@acme/orders-mcp'",
      "  remotes:",
      "    - url: https://mcp.acme.example/mcp",
    );
    const generated = await runCli(dir, ["generate"]);
    expect(generated.code).toBe(0);
    const document = JSON.parse(readFileSync(join(dir, "generated/server.json"), "utf8")) as Record<string, unknown>;
    const validate = validator();
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    // The schema is no rubber stamp: a name without its namespace is refused.
    expect(validate({ ...document, name: "orders" })).toBe(false);
    const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
    expect(document).toMatchObject({
      name: "io.github.acme/orders",
      version,
      packages: [{ registryType: "npm", identifier: "@acme/orders-mcp", version, transport: { type: "stdio" } }],
      remotes: [{ type: "streamable-http", url: "https://mcp.acme.example/mcp" }],
    });
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // Without the section the target is off: its file is toolc's (the marker in `_meta`), so generate removes it.
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\n");
    const removed = await runCli(dir, ["generate"]);
    expect(removed.stdout).toContain("1 removed");
    expect(existsSync(join(dir, "generated/server.json"))).toBe(false);
  });

  it("stops on a bad section with located diagnostics, and writes nothing", async () => {
    const dir = withConfig(
      "registry:",
      "  name: orders",
      `  description: ${"x".repeat(101)}`,
      "  packages:",
      "    - registryType: cargo",
      "  remotes:",
      "    - url: http://mcp.acme.example/mcp",
      "      headers: []",
    );
    const before = snapshotTree(join(dir, "generated"));
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n");
    expect(lines).toContain("toolc.config.yaml:4:9: error TC003: `registry.name` must be a reverse-DNS name with one slash, as io.github.user/server, not \"orders\"");
    expect(lines).toContain("toolc.config.yaml:5:16: error TC003: `registry.description` must be at most 100 characters for the registry, not 101");
    expect(lines).toContain("toolc.config.yaml:7:21: error TC003: `registry.packages[0].registryType` must be one of npm, pypi, nuget, oci, mcpb, not \"cargo\"");
    expect(lines).toContain("toolc.config.yaml:9:12: error TC003: `registry.remotes[0].url` must be an https:// URL, not \"http://mcp.acme.example/mcp\"");
    expect(lines).toContain("toolc.config.yaml:10:7: error TC002: unknown key `headers` in `registry.remotes[0]`; it takes type, url");
    expect(snapshotTree(join(dir, "generated"))).toEqual(before);
  });

  it("is one line of the registry, and its config key is described for editors", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema/config.schema.json"), "utf8")) as { properties: Record<string, { "x-target"?: string }> };
    for (const target of TARGETS) {
      if (target.config === undefined) continue;
      expect(schema.properties[target.config.key]?.["x-target"], target.name).toBe(target.name);
    }
    expect(TARGETS.filter((t) => t.name === "server-json")).toHaveLength(1);
  });
});
