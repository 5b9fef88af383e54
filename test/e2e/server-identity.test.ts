/**
 * `createHttpHandler` given no name says who it is from the project's
 * package.json: a scratch project with its own name and version is compiled
 * by the real CLI, its generated `http.ts` serves on 127.0.0.1, and the
 * server's identity is read as a client reads it, on each MCP SDK line.
 */
import { once } from "node:events";
import { createServer, type RequestListener, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { projectWith, ROOT, runCli } from "../compiler/helpers.js";
import { connectHttp } from "./helpers.js";
import { final, modernRequest, post } from "./rpc.js";

const IDENTITY = { name: "acme-orders", version: "4.2.0" };

const GREET = `name: greet
version: 1
description: Greets someone.
effect: read
input:
  type: object
  properties:
    name: { type: string, maxLength: 40 }
  required: [name]
output:
  type: object
  properties:
    greeting: { type: string }
  required: [greeting]
`;

/** The generated http.ts, loaded; its handlers are typed by the project, not here. */
type HttpModule = { createHttpHandler: (handlers: unknown) => RequestListener };

/** A project named IDENTITY on the given SDK line, generated, and its http.ts loaded. */
async function generatedProject(sdk: Record<string, string>): Promise<HttpModule> {
  const dir = projectWith({ "greet.yaml": GREET });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ ...IDENTITY, private: true, type: "module", dependencies: sdk }, null, 2)}\n`);
  const result = await runCli(dir, ["generate"]);
  if (result.code !== 0) throw new Error(result.stderr);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return import(pathToFileURL(join(dir, "generated/http.ts")).href);
}

let http: HttpServer | undefined;
afterEach(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  http = undefined;
});

/** Serves the project's handler, created with no options at all, on loopback. */
async function serve(createHttpHandler: HttpModule["createHttpHandler"]): Promise<URL> {
  http = createServer(createHttpHandler({ greet: (input: { name: string }) => ({ greeting: `Hello, ${input.name}` }) }));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

describe("createHttpHandler without a name reports the package's name and version", () => {
  it("MCP SDK 2.x: in initialize, in server/discover, and to the SDK's Client", async () => {
    const url = await serve((await generatedProject({ "@modelcontextprotocol/server": "2.4.0" })).createHttpHandler);
    const init = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "8.0.0" } } }, {});
    expect(final(init)).toMatchObject({ result: { serverInfo: IDENTITY } });
    const { result } = final(await modernRequest(url, "server/discover")) as { result: Record<string, unknown> };
    expect(result["_meta"]).toEqual({ "io.modelcontextprotocol/serverInfo": IDENTITY });
    const client = await connectHttp(url, "legacy");
    try {
      expect(client.getServerVersion()).toMatchObject(IDENTITY);
    } finally {
      await client.close();
    }
  });

  it("MCP SDK 1.x: in initialize, as the SDK's Client reads it", async () => {
    const url = await serve((await generatedProject({ "@modelcontextprotocol/sdk": "1.32.2" })).createHttpHandler);
    const client = new ClientV1({ name: "identity-test", version: "1.0.0" });
    await client.connect(new TransportV1(url));
    try {
      expect(client.getServerVersion()).toMatchObject(IDENTITY);
    } finally {
      await client.close();
    }
  });
});
