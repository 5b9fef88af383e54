/**
 * Runs a model-written script in workerd (wrangler's, pinned in
 * test/web-runtimes) as a Worker whose only binding is the tools: a service
 * binding `TOOLS` to the host, which runs each call through the generated
 * executor. Its global outbound, where `fetch` and `connect` go, is a
 * network service that allows no address, and it has no `nodejs_compat`,
 * so no `node:fs`. The Worker's modules: the code-mode runtime
 * (runtime/codemode.ts, compiled), the script, and an entry that puts
 * `tools` and `ToolCallError` on the global and runs the script per request.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LogBuffer, stopProcess } from "../e2e/helpers.js";
import { freePort } from "../web-runtimes/wrangler.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const WORKERD = join(ROOT, "test/web-runtimes/node_modules/.bin/workerd");

const MAIN = `import { codeModeFunctions, ToolCallError } from "./codemode.js";
import script from "./script.js";

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/ready") return new Response("ready");
    const call = async (tool, input) => {
      const response = await env.TOOLS.fetch("http://tools/call", { method: "POST", body: JSON.stringify({ tool, input: input === undefined ? null : input }) });
      return await response.json();
    };
    globalThis.tools = codeModeFunctions(env.NAMES, call);
    globalThis.ToolCallError = ToolCallError;
    try {
      return Response.json({ ok: true, value: await script() });
    } catch (error) {
      return Response.json({ ok: false, error: error instanceof Error ? error.name + ": " + error.message : String(error) });
    }
  },
};
`;

function capnp(names: Readonly<Record<string, string>>, toolsPort: number, port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "sandbox", worker = (
      modules = [
        (name = "main.js", esModule = embed "main.js"),
        (name = "codemode.js", esModule = embed "codemode.js"),
        (name = "script.js", esModule = embed "script.js"),
      ],
      compatibilityDate = "2026-11-01",
      bindings = [
        (name = "TOOLS", service = "tools"),
        (name = "NAMES", json = ${JSON.stringify(JSON.stringify(names))}),
      ],
      globalOutbound = "nowhere",
    )),
    (name = "tools", external = (address = "127.0.0.1:${toolsPort}", http = ())),
    (name = "nowhere", network = (allow = [], deny = [])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "sandbox") ],
);
`;
}

export interface WorkerdRun {
  readonly outcome: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };
  /** The tool calls the host ran, in order. */
  readonly calls: readonly string[];
}

/** Runs `script` (an async arrow function's source) once in a fresh workerd; `call` is the host's side (`codeModeHost(handlers)`). */
export async function runInWorkerd(options: {
  readonly runtime: string;
  readonly names: Readonly<Record<string, string>>;
  readonly script: string;
  readonly call: (tool: string, input: unknown) => Promise<unknown>;
}): Promise<WorkerdRun> {
  const calls: string[] = [];
  const host = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const { tool, input } = JSON.parse(body) as { tool: string; input: unknown };
      calls.push(tool);
      void options.call(tool, input).then((result) => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(result));
      });
    });
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const toolsPort = (host.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), "toolc-workerd-"));
  const port = await freePort();
  writeFileSync(join(dir, "main.js"), MAIN);
  writeFileSync(join(dir, "codemode.js"), options.runtime);
  writeFileSync(join(dir, "script.js"), `export default ${options.script};\n`);
  writeFileSync(join(dir, "config.capnp"), capnp(options.names, toolsPort, port));
  const child = spawn(WORKERD, ["serve", join(dir, "config.capnp")], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const log = new LogBuffer();
  log.attach(child.stdout);
  log.attach(child.stderr);
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries += 1) {
      if (child.exitCode !== null) throw new Error(`workerd exited: ${log.text}`);
      const ready = await fetch(`${base}/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (tries > 300) throw new Error(`workerd did not start: ${log.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const outcome = (await (await fetch(`${base}/run`)).json()) as WorkerdRun["outcome"];
    return { outcome, calls };
  } finally {
    await stopProcess(child);
    await new Promise((resolve) => host.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
