/**
 * What the sandbox tests share: the model's script (fixtures/orders-script.ts.txt)
 * as the JavaScript a sandbox evaluates, the code-mode runtime compiled for
 * one, and a listening server the script is told about and must not reach.
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { toJs } from "../helpers/transpile.js";
import { codeModeProject } from "./project.js";

const HERE = new URL(".", import.meta.url).pathname;

/** The script, compiled, as an async arrow function's source; `hostUrl` is the address it tries to fetch. */
export function orderScript(hostUrl: string): string {
  const source = readFileSync(join(HERE, "fixtures/orders-script.ts.txt"), "utf8").replace('"HOST_URL"', JSON.stringify(hostUrl));
  return toJs(source, "orders-script.ts")
    .replace(/^\/\/.*\n/gm, "")
    .trim()
    .replace(/;$/, "");
}

/** The project's runtime/codemode.ts compiled, as an ES module (`module`) or as a script whose declarations are the context's globals. */
export function codeModeRuntime(project: string, as: "module" | "script"): string {
  const js = toJs(readFileSync(join(project, "generated/runtime/codemode.ts"), "utf8"), "codemode.ts");
  return as === "module" ? js : js.replace(/^export \{\};?\s*$/gm, "").replace(/^export /gm, "");
}

/** A server that counts the requests it gets: what the sandbox's network attempt aims at. */
export async function listeningServer(): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests += 1;
    response.end("reached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What the sandbox tests load from the generated codemode.ts. */
export interface CodeModeModule {
  codeModeHost(handlers: unknown): (tool: string, input: unknown) => Promise<unknown>;
  codeModeTools: Record<string, string>;
}

/** Set up once per test file: the demo generated with code mode on, its codemode.ts loaded, and a listening server the sandboxed script must not reach. */
export interface CodeModeSandbox {
  readonly dir: string;
  readonly codemode: CodeModeModule;
  readonly target: Awaited<ReturnType<typeof listeningServer>>;
}

/** Registers the file's beforeAll/afterAll for the sandbox fixture; the returned object is filled in before the first test runs. */
export function useCodeModeSandbox(): CodeModeSandbox {
  const fixture = {} as { dir: string; codemode: CodeModeModule; target: Awaited<ReturnType<typeof listeningServer>> };
  beforeAll(async () => {
    fixture.dir = await codeModeProject();
    fixture.codemode = (await import(pathToFileURL(join(fixture.dir, "generated/codemode.ts")).href)) as CodeModeModule;
    fixture.target = await listeningServer();
  }, 120_000);
  afterAll(async () => {
    await fixture.target.close();
    rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
