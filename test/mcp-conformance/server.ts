/**
 * Serves the conformance handlers from one generated tree over Streamable
 * HTTP on 127.0.0.1, through that tree's own `createHttpHandler`. The tree is
 * loaded by path, so the committed 2.x tree and a scratch 1.x tree serve the
 * same handlers. The committed tree is also served through its
 * `createFetchHandler`: on Node (@hono/node-server, in this process) and on
 * workerd (test/web-runtimes/conformance-worker.ts under `wrangler dev
 * --local`, without `nodejs_compat`), on Deno and on Bun
 * (test/web-runtimes/conformance-serve.ts under `Deno.serve` and
 * `Bun.serve`), with the same options (options.ts).
 */
import { createServer as createNodeServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { startOnRuntime, type WebRuntime } from "../web-runtimes/runtimes.js";
import { startWorker } from "../web-runtimes/wrangler.js";
import { handlers } from "./handlers.js";
import { SERVE_OPTIONS } from "./options.js";

/** The committed tree, generated for MCP SDK 2.x by `npm run generate`. */
export const COMMITTED_TREE = fileURLToPath(new URL("./generated", import.meta.url));
export const CONFORMANCE_DIR = fileURLToPath(new URL(".", import.meta.url));

type HttpModule = {
  createHttpHandler(handlers: unknown, options?: Record<string, unknown>): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
};

export interface RunningServer {
  url: URL;
  close(): Promise<void>;
}

export async function serveTree(tree: string, name: string): Promise<RunningServer> {
  const { createHttpHandler } = (await import(pathToFileURL(join(tree, "http.ts")).href)) as HttpModule;
  const options = { ...SERVE_OPTIONS, name };
  const http = createNodeServer(createHttpHandler(handlers, options));
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

type FetchModule = {
  createFetchHandler(handlers: unknown, options?: Record<string, unknown>): (request: Request) => Promise<Response>;
};

/** The committed tree's createFetchHandler, on Node under @hono/node-server, as a Node user hosts a fetch handler. */
export async function serveFetchOnNode(): Promise<RunningServer> {
  const { createFetchHandler } = (await import(pathToFileURL(join(COMMITTED_TREE, "fetch.ts")).href)) as FetchModule;
  const fetch = createFetchHandler(handlers, { ...SERVE_OPTIONS });
  const server = await new Promise<HttpServer>((resolve) => {
    const started = serve({ fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started as HttpServer));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The committed tree's createFetchHandler as a Worker, on workerd. */
export async function serveFetchOnWorkerd(): Promise<RunningServer> {
  const worker = await startWorker(fileURLToPath(new URL("../web-runtimes/conformance.toml", import.meta.url)));
  return { url: worker.url, close: worker.stop };
}

/** The committed tree's createFetchHandler served by Deno or Bun. */
export async function serveFetchOn(runtime: WebRuntime): Promise<RunningServer> {
  const served = await startOnRuntime(runtime);
  return { url: served.url, close: served.stop };
}
