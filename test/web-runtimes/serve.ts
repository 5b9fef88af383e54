/**
 * The demo's generated tools served through `createFetchHandler` on
 * 127.0.0.1, on whichever runtime runs this file: Deno (`Deno.serve`), Bun
 * (`Bun.serve`) or Node (`@hono/node-server`, as a Node user hosts a fetch
 * handler). It prints `listening on http://127.0.0.1:<port>/mcp` once it
 * answers. With TOOLC_RT_AUTH set to a generated auth project (test/e2e/auth/
 * harness.ts), it serves that project's tools behind its OAuth gate instead.
 * Run by test/e2e/web-runtimes.test.ts.
 */
import { createDemoHandlers } from "../../demo/handlers.js";
import { createFetchHandler } from "../../generated/fetch.js";

type FetchHandler = (request: Request) => Promise<Response>;

/** The parts of Deno's and Bun's globals this file uses, so it type-checks without their types. */
interface Runtimes {
  Deno?: {
    env: { get(name: string): string | undefined };
    serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: FetchHandler): unknown;
  };
  Bun?: { serve(options: { hostname: string; port: number; fetch: FetchHandler }): { port: number } };
  process?: { env: Record<string, string | undefined> };
}

const runtime = globalThis as Runtimes;
const env = (name: string): string | undefined => runtime.Deno?.env.get(name) ?? runtime.process?.env[name];

async function authHandler(dir: string): Promise<FetchHandler> {
  const generated = (await import(new URL(`file://${dir}/generated/fetch.ts`).href)) as {
    createFetchHandler(handlers: unknown, options?: object): FetchHandler;
  };
  // The gate refuses before any handler runs; a call that passes gets a plain result.
  const handlers = new Proxy({}, { get: () => () => ({ ok: true }) });
  return generated.createFetchHandler(handlers);
}

const authDir = env("TOOLC_RT_AUTH");
const handler: FetchHandler = authDir === undefined ? createFetchHandler(createDemoHandlers().handlers) : await authHandler(authDir);

const announce = (port: number): void => console.log(`listening on http://127.0.0.1:${port}/mcp`);

if (runtime.Deno !== undefined) {
  runtime.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => announce(port) }, handler);
} else if (runtime.Bun !== undefined) {
  announce(runtime.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port);
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: handler, hostname: "127.0.0.1", port: 0 }, (info) => announce(info.port));
}
