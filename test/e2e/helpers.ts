/**
 * Real wiring for the end-to-end tests: spawned server processes, SDK clients
 * over stdio, Streamable HTTP and in-memory transports, and the Inspector CLI.
 * Every wait is bounded, and every process started here can be stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Server } from "@modelcontextprotocol/server";
import { FAILURE_META_KEY, type ToolFailure } from "../../generated/index.js";
import { inspectorCli } from "../helpers/inspector.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const demoServer = fileURLToPath(new URL("../../demo/serve.ts", import.meta.url));
export const chaosServer = fileURLToPath(new URL("./fixtures/chaos-server.ts", import.meta.url));
const tsxBin = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));

const WAIT_MS = 30_000;

/** Collects a stream's text so tests can read what a server logged. */
export class LogBuffer {
  text = "";
  private waiters: (() => void)[] = [];

  attach(stream: NodeJS.ReadableStream | null): void {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      this.text += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  lines(): string[] {
    return this.text.split("\n").filter((l) => l !== "");
  }

  /** Resolves with the first match of `pattern` in the text so far or to come; rejects after a bound. */
  async waitFor(pattern: RegExp, ms = WAIT_MS): Promise<RegExpMatchArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      const m = this.text.match(pattern);
      if (m !== null) return m;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${pattern} in server log:\n${this.text}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }
}

/**
 * An SDK 2.x client. By default it opens with the 2025 `initialize`
 * handshake, as the SDK's own default does; `modern` probes with
 * `server/discover` and speaks protocol 2026-07-28 to a server that serves it.
 */
export function newClient(era: "legacy" | "modern" = "legacy"): Client {
  const options = era === "modern" ? { versionNegotiation: { mode: "auto" as const } } : {};
  return new Client({ name: "toolc-e2e", version: "1.0.0" }, options);
}

/** An SDK client talking to `script` as a spawned stdio server (`node --import tsx`). */
export async function connectStdio(script: string, args: string[] = [], era: "legacy" | "modern" = "legacy"): Promise<{ client: Client; log: LogBuffer }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", script, ...args],
    cwd: root,
    stderr: "pipe",
  });
  const log = new LogBuffer();
  log.attach(transport.stderr as NodeJS.ReadableStream | null);
  const client = newClient(era);
  await client.connect(transport);
  return { client, log };
}

export interface HttpProcess {
  url: URL;
  log: LogBuffer;
  stop(): Promise<void>;
}

/** Spawns `script` as an HTTP server on a free port and reads its URL from stderr; `env` is added to this process's environment. */
export async function spawnHttp(script: string, args: string[], env: Record<string, string> = {}): Promise<HttpProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stderr);
  log.attach(child.stdout);
  const stop = (): Promise<void> => stopProcess(child);
  try {
    const [, url] = await log.waitFor(/listening on (http:\/\/\S+)/);
    return { url: new URL(url), log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGTERM, then SIGKILL if the process has not exited within a bound. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function connectHttp(url: URL, era: "legacy" | "modern" = "legacy"): Promise<Client> {
  const client = newClient(era);
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

export async function connectInMemory(server: Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = newClient();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** The failure envelope of an isError result; also checks that text and _meta carry the same one. */
export function envelopeOf(result: CallToolResult): ToolFailure<string> {
  if (result.isError !== true) throw new Error(`expected isError, got ${JSON.stringify(result)}`);
  const meta = result._meta?.[FAILURE_META_KEY] as ToolFailure<string> | undefined;
  const block = result.content[0];
  const text = block?.type === "text" ? (JSON.parse(block.text) as unknown) : undefined;
  if (meta === undefined || JSON.stringify(meta) !== JSON.stringify(text)) {
    throw new Error(`envelope missing or inconsistent: ${JSON.stringify(result)}`);
  }
  if (result.structuredContent !== undefined) throw new Error("a failure must not carry structuredContent");
  return meta;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Runs the Inspector CLI (on Node.js 24) and parses the JSON it prints. */
export function inspect(target: string[], method: string[]): Promise<Record<string, unknown>> {
  return inspectorCli([...target, ...method], root);
}

/** How the Inspector launches the demo over stdio. */
export const inspectorStdioTarget = [tsxBin, demoServer];
