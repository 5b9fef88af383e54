/**
 * The MCP Bundle target through the CLI: with `bundle:` in the config,
 * generate writes manifest.json into the output folder, accepted by the
 * strict zod schema `@anthropic-ai/mcpb` itself validates with (pinned in
 * test/mcpb-runtimes); the credentials an imported API reads become its
 * user configuration; a bad section stops the run with located diagnostics
 * and writes nothing; without the section nothing is written.
 * test/targets/mcpb-bundle.test.ts packs the demo with the bundle's own CLI.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { getMcpConfigForManifest, v0_3 } from "../helpers/mcpb.js";
import { bundleVariables } from "../../generator/targets/mcpb/credentials.js";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";
import { importSpec, OK_OBJECT, openapi30, scratchProject } from "../import/openapi/helpers.js";

type Manifest = Record<string, unknown> & { user_config?: Record<string, Record<string, unknown>>; server: { mcp_config: { env?: Record<string, string> } } };

function demo(packageJson: Record<string, unknown>, ...lines: string[]): string {
  const dir = copyDemo();
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, ...packageJson }, null, 2)}\n`);
  writeFileSync(join(dir, "toolc.config.yaml"), ["tests: false", "mcp: { sdk: 2 }", ...lines, ""].join("\n"));
  return dir;
}

function manifestIn(dir: string, out = "generated"): Manifest {
  return JSON.parse(readFileSync(join(dir, out, "manifest.json"), "utf8")) as Manifest;
}

const ORDERS = {
  name: "@acme/orders-mcp",
  version: "1.4.0",
  description: "Orders and refunds",
  author: "Acme Dev <dev@acme.example> (https://acme.example)",
  engines: { node: ">=22" },
};

describe("the MCP Bundle target", () => {
  it("writes a manifest the bundle's own schema accepts, with package.json's facts and every tool with its description", async () => {
    const dir = demo(ORDERS, "bundle:", "  displayName: Acme orders", "  platforms: [darwin, linux]");
    const generated = await runCli(dir, ["generate"]);
    expect(generated.code, generated.stderr).toBe(0);
    const manifest = manifestIn(dir);
    const parsed = v0_3.McpbManifestSchema.safeParse(manifest);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // The schema is no rubber stamp: it is strict, and the server needs its entry point.
    expect(v0_3.McpbManifestSchema.safeParse({ ...manifest, tools_list: [] }).success).toBe(false);
    expect(v0_3.McpbManifestSchema.safeParse({ ...manifest, server: { type: "node", mcp_config: { command: "node" } } }).success).toBe(false);
    const served = parse(readFileSync(join(dir, "definitions/get_order.yaml"), "utf8")) as { description: string };
    expect(manifest).toMatchObject({
      manifest_version: "0.3",
      name: "orders-mcp",
      display_name: "Acme orders",
      version: "1.4.0",
      description: "Orders and refunds",
      author: { name: "Acme Dev", email: "dev@acme.example", url: "https://acme.example" },
      server: { type: "node", entry_point: "dist/server.js", mcp_config: { command: "node", args: ["${__dirname}/dist/server.js"] } },
      compatibility: { platforms: ["darwin", "linux"], runtimes: { node: ">=22" } },
    });
    expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual(["create_refund", "delete_customer", "get_order", "search_orders"]);
    expect(manifest.tools).toContainEqual({ name: "get_order", description: served.description });
    expect(manifest.user_config).toBeUndefined();
    expect((await runCli(dir, ["check"])).code).toBe(0);

    // Without the section the target is off: its file is toolc's (the marker in `_meta`), so generate removes it.
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\n");
    const removed = await runCli(dir, ["generate"]);
    expect(removed.stdout).toContain("1 removed");
    expect(existsSync(join(dir, "generated/manifest.json"))).toBe(false);
  });

  it("the config overrides package.json, and `bundle: {}` takes every default", async () => {
    const dir = demo(
      { name: "orders", version: "2.0.0", description: "Orders", author: { name: "Acme" } },
      "bundle:",
      "  name: acme-orders",
      "  version: 2.0.1",
      "  author: { name: Ops, email: ops@acme.example }",
      "  entry: ./server/index.js",
      "  node: '>=24.0.0'",
    );
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(manifestIn(dir)).toMatchObject({
      name: "acme-orders",
      version: "2.0.1",
      author: { name: "Ops", email: "ops@acme.example" },
      server: { entry_point: "server/index.js", mcp_config: { args: ["${__dirname}/server/index.js"] } },
      compatibility: { runtimes: { node: ">=24.0.0" } },
    });
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\nbundle: {}\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(manifestIn(dir)).toMatchObject({ name: "orders", version: "2.0.0", author: { name: "Acme" }, compatibility: { runtimes: { node: ">=20.0.0" } } });
  });

  it("stops on a bad section with located diagnostics, and writes nothing", async () => {
    const dir = demo(
      { name: "orders", version: "1.0.0" },
      "bundle:",
      "  author: { name: Acme, email: not-an-email }",
      "  entry: ../server.js",
      "  platforms: [linux, beos]",
      "  credentials: src/missing-handlers.ts",
      "  icon: icon.png",
    );
    const before = snapshotTree(join(dir, "generated"));
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n");
    expect(lines).toContain(
      "toolc.config.yaml:8:3: error TC002: unknown key `icon` in `bundle`; it takes name, displayName, version, description, author, entry, node, platforms, credentials",
    );
    expect(lines).toContain("toolc.config.yaml:3:1: error TC003: `bundle` needs `description`, a description (package.json has none)");
    expect(lines).toContain('toolc.config.yaml:4:32: error TC003: `bundle.author.email` must be an email address, not "not-an-email"');
    expect(lines).toContain(
      'toolc.config.yaml:5:10: error TC003: `bundle.entry` must be a .js file inside the bundle, relative to its root with / separators, not "../server.js"',
    );
    expect(lines).toContain('toolc.config.yaml:6:22: error TC003: `bundle.platforms[1]` must be one of darwin, win32, linux, not "beos"');
    expect(lines).toContain('toolc.config.yaml:7:16: error TC003: `bundle.credentials`: "src/missing-handlers.ts" cannot be read');
    expect(snapshotTree(join(dir, "generated"))).toEqual(before);
  });

  it("asks on install for the credentials an imported API's handlers read, and passes them in the server's environment", async () => {
    const single = openapi30(
      { "/orders": { get: { operationId: "listOrders", responses: { 200: OK_OBJECT } } } },
      { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      { security: [{ bearer: [] }] },
    );
    const dir = scratchProject("mcpb-credentials", { name: "shop-mcp", version: "0.1.0", description: "The shop", author: "Shop" });
    const imported = await importSpec(single, undefined, {}, dir);
    expect(imported.messages.filter((m) => m.startsWith("error"))).toEqual([]);
    writeFileSync(
      join(dir, "toolc.config.yaml"),
      "definitions: definitions\nout: generated\ntests: false\nmcp: { sdk: 2 }\nbundle:\n  credentials: openapi-handlers.ts\n",
    );
    const generated = await runCli(dir, ["generate"]);
    expect(generated.code, generated.stderr).toBe(0);
    const manifest = manifestIn(dir);
    expect(v0_3.McpbManifestSchema.safeParse(manifest).success).toBe(true);
    expect(manifest.user_config).toEqual({
      shop_base_url: {
        type: "string",
        title: "Server URL",
        description: "The API's base URL (SHOP_BASE_URL)",
        required: false,
        default: "https://shop.example/v1",
      },
      shop_bearer_token: {
        type: "string",
        title: "bearer: API key or token",
        description: 'The API key or token for security scheme "bearer" (SHOP_BEARER_TOKEN)',
        sensitive: true,
        required: true,
      },
    });
    // What a host runs, through the bundle's own resolution of `${__dirname}` and `${user_config.*}`.
    const config = await getMcpConfigForManifest({
      manifest: manifest as never,
      extensionPath: "/bundles/shop",
      systemDirs: {},
      userConfig: { shop_bearer_token: "secret-token" },
      pathSeparator: "/",
    });
    expect(config).toMatchObject({
      command: "node",
      args: ["/bundles/shop/dist/server.js"],
      env: { SHOP_BASE_URL: "https://shop.example/v1", SHOP_BEARER_TOKEN: "secret-token" },
    });
  });

  it("with several schemes, asks for each variable and requires none (the handlers send the first whose variables are set)", async () => {
    const several = openapi30(
      { "/orders": { get: { operationId: "listOrders", security: [{ apiKey: [] }, { basic: [] }], responses: { 200: OK_OBJECT } } } },
      {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
          basic: { type: "http", scheme: "basic" },
        },
      },
    );
    const dir = scratchProject("mcpb-schemes", { name: "shop-mcp", version: "0.1.0", description: "The shop", author: "Shop" });
    await importSpec(several, undefined, {}, dir);
    writeFileSync(
      join(dir, "toolc.config.yaml"),
      "definitions: definitions\nout: generated\ntests: false\nmcp: { sdk: 2 }\nbundle: { credentials: openapi-handlers.ts }\n",
    );
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const manifest = manifestIn(dir);
    expect(v0_3.McpbManifestSchema.safeParse(manifest).success).toBe(true);
    const asked = Object.entries(manifest.user_config ?? {}).map(([key, option]) => [key, option.sensitive === true, option.required]);
    expect(asked).toEqual([
      ["shop_base_url", false, false],
      ["shop_api_key", true, false],
      ["shop_basic_username", false, false],
      ["shop_basic_password", true, false],
    ]);
    // A host resolves a setting left blank to "" (the handlers' runtime reads it as unset), never to the literal placeholder.
    const config = await getMcpConfigForManifest({
      manifest: manifest as never,
      extensionPath: "/bundles/shop",
      systemDirs: {},
      userConfig: { shop_basic_username: "u", shop_basic_password: "p" },
      pathSeparator: "/",
    });
    expect(config?.env).toEqual({ SHOP_BASE_URL: "https://shop.example/v1", SHOP_API_KEY: "", SHOP_BASIC_USERNAME: "u", SHOP_BASIC_PASSWORD: "p" });
    expect(manifest.server.mcp_config.env).toEqual({
      SHOP_BASE_URL: "${user_config.shop_base_url}",
      SHOP_API_KEY: "${user_config.shop_api_key}",
      SHOP_BASIC_USERNAME: "${user_config.shop_basic_username}",
      SHOP_BASIC_PASSWORD: "${user_config.shop_basic_password}",
    });
  });

  it("reads each form of the import's environment header: a server URL without default is required, an OAuth scheme's variables never", () => {
    const header = [
      "// Environment:",
      "//   ACME_BASE_URL: the server URL (required: the description names none)",
      '//   ACME_OAUTH_TOKEN, ACME_OAUTH_CLIENT_ID, ACME_OAUTH_CLIENT_SECRET, ACME_OAUTH_TOKEN_URL: security scheme "oauth"',
      "",
      "import { x } from './y.js';",
    ].join("\n");
    const read = bundleVariables(header);
    expect(read.variables?.map((v) => [v.env, v.key, v.sensitive, v.required, v.default])).toEqual([
      ["ACME_BASE_URL", "acme_base_url", false, true, undefined],
      ["ACME_OAUTH_TOKEN", "acme_oauth_token", true, false, undefined],
      ["ACME_OAUTH_CLIENT_ID", "acme_oauth_client_id", false, false, undefined],
      ["ACME_OAUTH_CLIENT_SECRET", "acme_oauth_client_secret", true, false, undefined],
      ["ACME_OAUTH_TOKEN_URL", "acme_oauth_token_url", false, false, undefined],
    ]);
    expect(bundleVariables('// Environment:\n//   A, B, C: security scheme "odd"').problem).toBe(
      'has a line toolc import openapi does not write in its environment header: "//   A, B, C: security scheme \\"odd\\""',
    );
  });

  it("refuses a credentials module that is not the import's handlers", async () => {
    const dir = demo({ name: "orders", version: "1.0.0", description: "Orders", author: "Acme" }, "bundle:", "  credentials: definitions/get_order.yaml");
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "toolc.config.yaml:4:16: error TC003: `bundle.credentials`: definitions/get_order.yaml has no `// Environment:` header: name the handlers module `toolc import openapi` wrote",
    );
  });
});
