/**
 * Starts a Worker under `wrangler dev --local` (workerd) on 127.0.0.1, on
 * the Node.js 24 wrangler needs, and reads its URL from what it prints: for
 * test/e2e/web-runtimes.test.ts and the conformance run on workerd
 * (test/mcp-conformance/server.ts). wrangler comes pinned from
 * test/web-runtimes (npm run runtimes).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LogBuffer, stopProcess } from "../e2e/helpers.js";
import { nodeBin } from "../helpers/node-runtimes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(ROOT, "test/web-runtimes/node_modules/wrangler/bin/wrangler.js");

/** A port nothing listens on now, for wrangler, which takes no port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The command line that serves `config`'s Worker on a free port. */
export async function wranglerArgv(config: string): Promise<string[]> {
  if (!existsSync(WRANGLER)) throw new Error(`wrangler is not installed at ${WRANGLER}: run \`npm run runtimes\` (npm ci in test/web-runtimes)`);
  const ports = ["--port", String(await freePort()), "--inspector-port", String(await freePort())];
  return [nodeBin(24), WRANGLER, "dev", "--local", "--config", config, "--ip", "127.0.0.1", ...ports, "--show-interactive-dev-session=false"];
}

/** `config`'s Worker, answering at `<its URL>/mcp`. */
export async function startWorker(config: string): Promise<{ url: URL; stop(): Promise<void> }> {
  const [command, ...args] = await wranglerArgv(config);
  // No metrics, no prompts; it asks workers.cloudflare.com for `request.cf` and goes on without it.
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stdout);
  log.attach(child.stderr);
  const stop = (): Promise<void> => stopProcess(child);
  try {
    const [, url] = await log.waitFor(/Ready on (http:\/\/[\w.:]+)/, 90_000);
    return { url: new URL("/mcp", url!), stop };
  } catch (error) {
    await stop();
    throw new Error(`workerd did not start: ${log.text}`, { cause: error });
  }
}
