/**
 * The demo as an MCP Bundle, made with the bundle's own CLI and started the
 * way a host starts it. A scratch project holds the demo's contracts, its
 * handlers and a stdio server, with `bundle:` in its config; `toolc
 * generate` writes the manifest; the server is built into one file (esbuild,
 * the SDK included, so the bundle needs no node_modules); then `mcpb
 * validate` accepts the manifest, `mcpb pack` packs the bundle into a
 * `.mcpb` and `mcpb unpack` unpacks it where a host would. The command the
 * manifest gives, resolved by the package's own `getMcpConfigForManifest`,
 * runs on Node.js 24, and the MCP SDK's client lists the tools over stdio and
 * calls one.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { build, stop } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../compiler/helpers.js";
import { getMcpConfigForManifest, mcpbCli, v0_3 } from "../helpers/mcpb.js";
import { nodeBin } from "../helpers/node-runtimes.js";

const run = promisify(execFile);

const SERVER = `import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServer } from "./generated/index.js";
import { createDemoHandlers } from "./handlers.js";

// stdout carries the protocol: nothing else may be written there.
const { handlers } = createDemoHandlers();
serveStdio(() => createServer(handlers, { name: "orders-mcp", version: "1.2.3" }));
`;

const PACKAGE = {
  name: "@acme/orders-mcp",
  version: "1.2.3",
  description: "Orders, refunds and customers for the Acme shop",
  author: "Acme Dev <dev@acme.example>",
  private: true,
  type: "module",
  dependencies: { "@modelcontextprotocol/server": "2.4.0" },
};

/** `mcpb <args>` on the Node.js running the suite; its output, or the failure with what it printed. */
async function mcpb(cwd: string, ...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, [mcpbCli(), ...args], { cwd });
    return stdout + stderr;
  } catch (e) {
    const failure = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mcpb ${args.join(" ")} failed: ${failure.message}\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
}

let project: string;
let unpacked: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "toolc-mcpb-"));
  cpSync(join(ROOT, "definitions"), join(project, "definitions"), { recursive: true });
  writeFileSync(join(project, "package.json"), `${JSON.stringify(PACKAGE, null, 2)}\n`);
  writeFileSync(
    join(project, "toolc.config.yaml"),
    "definitions: definitions\nout: src/generated\ntests: false\nmcp: { sdk: 2 }\nbundle: { displayName: Acme orders }\n",
  );
  mkdirSync(join(project, "src"));
  // The demo's handlers, importing the project's generated folder instead of the repository's.
  writeFileSync(
    join(project, "src/handlers.ts"),
    readFileSync(join(ROOT, "demo/handlers.ts"), "utf8").replaceAll('"../generated/index.js"', '"./generated/index.js"'),
  );
  writeFileSync(join(project, "src/server.ts"), SERVER);
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
  const generated = await runCli(project, ["generate"]);
  if (generated.code !== 0) throw new Error(`toolc generate failed:\n${generated.stderr}`);

  // The bundle's root: the manifest toolc wrote, and the server at the entry point it names.
  const staged = join(project, "bundle");
  mkdirSync(staged);
  cpSync(join(project, "src/generated/manifest.json"), join(staged, "manifest.json"));
  await build({
    entryPoints: [join(project, "src/server.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: join(staged, "dist/server.js"),
    logLevel: "warning",
  });
  // esbuild keeps a service process for further builds: end it, so the test worker can exit.
  await stop();
  await mcpb(project, "pack", "bundle", "orders.mcpb");
  unpacked = join(project, "installed");
  await mcpb(project, "unpack", "orders.mcpb", unpacked);
}, 120_000);

describe("the demo as an MCP Bundle", () => {
  it("`mcpb validate` accepts the manifest toolc wrote, and refuses it without its server", async () => {
    const manifest = join(project, "src/generated/manifest.json");
    expect(await mcpb(project, "validate", manifest)).toContain("Manifest schema validation passes!");
    const broken = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, unknown>;
    delete broken.server;
    writeFileSync(join(project, "broken.json"), JSON.stringify(broken));
    await expect(mcpb(project, "validate", "broken.json")).rejects.toThrow(/server/);
  });

  it("`mcpb pack` packs the manifest and the built server, and nothing else", () => {
    expect(statSync(join(project, "orders.mcpb")).size).toBeGreaterThan(0);
    const files = (dir: string, prefix = ""): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
    expect(files(unpacked).sort()).toEqual(["dist/server.js", "manifest.json"]);
  });

  it("the unpacked server, started as its manifest says on Node.js 24, answers tools/list and a call through the MCP SDK client over stdio", async () => {
    const manifest = v0_3.McpbManifestSchema.parse(JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")));
    const config = await getMcpConfigForManifest({ manifest, extensionPath: unpacked, systemDirs: {}, userConfig: {}, pathSeparator: "/" });
    expect(config?.command).toBe("node");
    expect(config?.args).toEqual([join(unpacked, "dist/server.js")]);
    const node = nodeBin(24);
    // The host runs `node`; here that is Node.js 24, in an empty folder, so nothing outside the bundle is found.
    const cwd = mkdtempSync(join(tmpdir(), "toolc-mcpb-host-"));
    const transport = new StdioClientTransport({ command: node, args: config!.args!, cwd, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "bundle-host", version: "1.0.0" });
    try {
      await client.connect(transport);
      expect(readlinkSync(`/proc/${transport.pid}/exe`)).toBe(realpathSync(node));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(manifest.tools!.map((t) => t.name));
      for (const tool of tools) expect(manifest.tools).toContainEqual({ name: tool.name, description: tool.description });
      const called = await client.callTool({ name: "get_order", arguments: { customerId: "cus_1" } });
      expect(called.isError ?? false, JSON.stringify(called)).toBe(false);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  });
});
