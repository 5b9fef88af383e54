/**
 * Serves the demo handlers over MCP.
 *
 *   npm run serve                      stdio (for desktop clients and the Inspector)
 *   npm run serve:http -- --port 3000  Streamable HTTP, stateless, at http://127.0.0.1:3000/mcp
 *
 * stdout carries the protocol on stdio, so every log line goes to stderr.
 * `--port 0` picks a free port; the URL line on stderr names the real one.
 */
import { createServer as createNodeServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serveStdio as serveOnStdio } from "@modelcontextprotocol/server/stdio";
import { createHttpHandler } from "../generated/http.js";
import { createServer, type Handlers, type TraceEvent } from "../generated/index.js";
import { createDemoHandlers } from "./handlers.js";

const HOST = "127.0.0.1";
const DEFAULT_PORT = 3000;

interface Args {
  http: boolean;
  port: number;
}

function log(line: string): void {
  process.stderr.write(`toolc-demo: ${line}\n`);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { http: false, port: DEFAULT_PORT };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--http") args.http = true;
    else if (argv[i] === "--port") args.port = parsePort(argv[++i]);
    else if (argv[i]?.startsWith("--port=")) args.port = parsePort(argv[i].slice("--port=".length));
    else throw new Error(`unknown argument ${argv[i]}; usage: serve.ts [--http] [--port N]`);
  }
  return args;
}

function parsePort(value: string | undefined): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port needs 0-65535, got ${value}`);
  return port;
}

/** One line per attempt, built only from fields that never carry payload values. */
function formatTrace(e: TraceEvent): string {
  const parts = [`trace ${e.tool}@${e.version}`, `attempt=${e.attempt}`, `code=${e.code}`, `effect=${e.effect}`, `${Math.round(e.durationMs)}ms`];
  if (e.protocolEra !== undefined) parts.push(`protocol=${e.protocolVersion ?? e.protocolEra}`);
  if (e.issuePaths.length > 0) parts.push(`issues=${e.issuePaths.map((p) => JSON.stringify(p)).join(",")}`);
  // The error's name only: its message may quote upstream responses, which are not ours to log.
  if (e.error instanceof Error) parts.push(`error=${e.error.name}`);
  return parts.join(" ");
}

const serverOptions = { name: "toolc-demo", version: "1.0.0", onTrace: (e: TraceEvent) => log(formatTrace(e)) };

function serveStdio(handlers: Handlers): void {
  // The SDK's stdio entry: the client's first message decides the protocol generation, 2026-07-28 or 2025.
  const handle = serveOnStdio(() => createServer(handlers, serverOptions));
  log("serving on stdio");
  // Closing on a signal lets the transport flush before the process ends.
  onShutdown(async () => handle.close());
}

async function serveHttp(handlers: Handlers, port: number): Promise<void> {
  const http = createNodeServer(createHttpHandler(handlers, { ...serverOptions, path: "/mcp" }));
  await listen(http, port);
  const actual = (http.address() as AddressInfo).port;
  log(`listening on http://${HOST}:${actual}/mcp`);
  onShutdown(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
}

function listen(http: NodeServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, HOST, () => resolve());
  });
}

function onShutdown(close: () => Promise<unknown>): void {
  const stop = (signal: string): void => {
    log(`${signal}, shutting down`);
    close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { handlers } = createDemoHandlers();
  if (args.http) await serveHttp(handlers, args.port);
  else serveStdio(handlers);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
