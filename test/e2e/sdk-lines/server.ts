/**
 * Serves the SDK-line handlers from a generated tree over stdio, or over
 * Streamable HTTP with `--http`, on the SDK line that tree was generated
 * for. TOOLC_E2E_OUT names the tree, TOOLC_E2E_SDK the line. Handler calls
 * go to stderr as `call {...}` lines. TOOLC_E2E_HANDLERS=outputs serves a
 * tree generated from test/fixtures/outputs instead of the demo.
 */
import { createServer as createNodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { lineHandlers, outputHandlers, type GeneratedApi } from "./handlers.js";

interface Connectable {
  connect(transport: unknown): Promise<void>;
}
type IndexModule = GeneratedApi & { createServer(handlers: unknown, options?: unknown): Connectable };
type HttpModule = { createHttpHandler(handlers: unknown, options?: unknown): Parameters<typeof createNodeServer>[1] };

const out = process.env["TOOLC_E2E_OUT"];
const line = process.env["TOOLC_E2E_SDK"];
if (out === undefined || (line !== "1" && line !== "2")) throw new Error("TOOLC_E2E_OUT and TOOLC_E2E_SDK (1 or 2) must be set");

const write = (text: string): void => void process.stderr.write(`${text}\n`);
const api = (await import(pathToFileURL(join(out, "index.ts")).href)) as IndexModule;
const handlersFor = process.env["TOOLC_E2E_HANDLERS"] === "outputs" ? outputHandlers : lineHandlers;
const handlers = handlersFor(api, (call) => write(`call ${JSON.stringify(call)}`));
const logLevel = process.env["TOOLC_E2E_LOG_LEVEL"];
const options = { name: `sdk-${line}-line`, ...(logLevel === undefined ? {} : { logLevel }) };

if (process.argv.includes("--http")) {
  const { createHttpHandler } = (await import(pathToFileURL(join(out, "http.ts")).href)) as HttpModule;
  const http = createNodeServer(createHttpHandler(handlers, options));
  http.listen(0, "127.0.0.1", () => write(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
  process.once("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
} else if (line === "1") {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  await api.createServer(handlers, options).connect(new StdioServerTransport());
} else {
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  await api.createServer(handlers, options).connect(new StdioServerTransport());
}
