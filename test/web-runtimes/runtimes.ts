/**
 * Starts test/web-runtimes/conformance-serve.ts on Deno or Bun, the pinned
 * binaries of test/web-runtimes (npm run runtimes), and reads its URL from
 * what it prints: for the conformance run on those runtimes
 * (test/mcp-conformance/server.ts).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LogBuffer, stopProcess } from "../e2e/helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVE = join(ROOT, "test/web-runtimes/conformance-serve.ts");

export type WebRuntime = "deno" | "bun";

/** How each runtime runs TypeScript: Deno maps the `.js` imports of the generated code to their `.ts` files with `--sloppy-imports`; Bun does by itself. */
const ARGS: Record<WebRuntime, readonly string[]> = {
  deno: ["run", "--allow-all", "--sloppy-imports", SERVE],
  bun: ["run", SERVE],
};

/** The installed binary of `runtime`; throws, saying how to install it, when it is missing. */
export function runtimeBin(runtime: WebRuntime): string {
  const bin = join(ROOT, "test/web-runtimes/node_modules/.bin", runtime);
  if (!existsSync(bin)) throw new Error(`${runtime} is not installed at ${bin}: run \`npm run runtimes\` (npm ci in test/web-runtimes)`);
  return bin;
}

/** The conformance fixture server through createFetchHandler on `runtime`, answering at its URL. */
export async function startOnRuntime(runtime: WebRuntime): Promise<{ url: URL; stop(): Promise<void> }> {
  const child = spawn(runtimeBin(runtime), [...ARGS[runtime]], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stdout);
  log.attach(child.stderr);
  const stop = (): Promise<void> => stopProcess(child);
  try {
    const [, url] = await log.waitFor(/listening on (http:\/\/[\w.:/]+)/, 60_000);
    return { url: new URL(url!), stop };
  } catch (error) {
    await stop();
    throw new Error(`${runtime} did not start: ${log.text}`, { cause: error });
  }
}
