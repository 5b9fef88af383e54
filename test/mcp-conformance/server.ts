/**
 * Serves the conformance handlers from one generated tree over Streamable
 * HTTP on 127.0.0.1, through that tree's own `createHttpHandler`. The tree is
 * loaded by path, so the committed 2.x tree and a scratch 1.x tree serve the
 * same handlers.
 */
import { createServer as createNodeServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { handlers } from "./handlers.js";

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
  // logLevel info: the suite's logging scenario is a 2025-era client that sends logging/setLevel on one POST
  // and calls the tool on the next, which over stateless HTTP meets a fresh server; by default such a client
  // gets no log messages. 2026-07-28 requests are not affected (they carry their level themselves).
  const options = { name, version: "1.0.0", path: "/mcp", logLevel: "info" };
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
