/**
 * `toolc init --view`: the example contract gets a minimal MCP Apps view. The
 * initialized project generates, its sources and generated code (the view's
 * typed wrapper on ext-apps' App included) type-check under strict flags, and
 * its server lists the tool with the view's `_meta.ui` and serves the view's
 * HTML through the SDK's client.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { createServer as createNodeServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { EXT_APPS_VERSION } from "../../generator/init/index.js";
import { ROOT, runCli } from "../compiler/helpers.js";
import { scratch } from "./init-project.js";

const exec = promisify(execFile);
const MIME = "text/html;profile=mcp-app";
const URI = "ui://greet/view.html";

describe("toolc init --view", () => {
  it("adds a view to the example contract; the project generates, type-checks and serves it", async () => {
    const dir = scratch();
    const init = await runCli(dir, ["init", "--view"]);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(dir, "definitions/greet.yaml"), "utf8")).toContain("ui:\n  source: views/greet.html");
    expect(existsSync(join(dir, "definitions/views/greet.html"))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies["@modelcontextprotocol/ext-apps"]).toBe(EXT_APPS_VERSION);

    const generate = await runCli(dir, ["generate"]);
    expect(generate.code, generate.stderr).toBe(0);
    expect(existsSync(join(dir, "src/generated/views/greet.ts"))).toBe(true);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    // TypeScript 7, the release init installs (typescript 7.x in the project's devDependencies).
    const tsc = await exec(process.execPath, [join(ROOT, "node_modules/typescript-7/bin/tsc"), "--singleThreaded", "-p", "tsconfig.json", "--noEmit"], { cwd: dir }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }),
    );
    expect(tsc.stdout).toBe("");

    const { createHttpHandler } = (await import(pathToFileURL(join(dir, "src/generated/http.ts")).href)) as { createHttpHandler(h: unknown): RequestListener };
    const http = createNodeServer(createHttpHandler({ greet: (input: { name: string }) => ({ greeting: `Hello, ${input.name}.` }) }));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = new Client(
      { name: "init-view-test", version: "1" },
      { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "greet")?._meta).toMatchObject({ ui: { resourceUri: URI }, "ui/resourceUri": URI });
      const read = await client.readResource({ uri: URI });
      expect(read.contents[0]).toMatchObject({ uri: URI, mimeType: MIME });
      expect((read.contents[0] as { text: string }).text).toBe(readFileSync(join(dir, "definitions/views/greet.html"), "utf8"));
    } finally {
      await client.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  }, 180_000);

  it("pins the ext-apps release the view wrappers are tested with", () => {
    const pinned = JSON.parse(readFileSync(join(ROOT, "test/apps-runtimes/package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(EXT_APPS_VERSION).toBe(pinned.dependencies["@modelcontextprotocol/ext-apps"]);
  });

  it("is refused beside another command", async () => {
    const run = await runCli(scratch(), ["generate", "--view"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--view goes with init");
  });
});
