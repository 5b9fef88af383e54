/**
 * The demo's generated tools served on 127.0.0.1 by whichever runtime runs
 * this file, through `createFetchHandler`: Deno (`Deno.serve`), Bun
 * (`Bun.serve`) or Node (`@hono/node-server`, as a Node user hosts a fetch
 * handler); or, with TOOLC_RT_ENTRY=node-http, through Node's own
 * `createHttpHandler` on `node:http`. With TOOLC_RT_AUTH set to a generated
 * auth project (test/e2e/auth/harness.ts) and TOOLC_RT_KEYS to a key set,
 * that project's tools are served too, behind its OAuth gate (routes.ts).
 * It prints `listening on http://127.0.0.1:<port>/mcp` once it answers.
 * Run by test/e2e/web-runtimes.test.ts.
 */
import { createDemoHandlers } from "../../demo/handlers.js";
import { createFetchHandler } from "../../generated/fetch.js";
import { gatedHandlers, gatedOptions, isGated, route, type FetchHandler } from "./routes.js";

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
const authDir = env("TOOLC_RT_AUTH");
const keys = env("TOOLC_RT_KEYS") ?? "";

const generated = <T>(file: string): Promise<T> => import(new URL(`file://${authDir}/generated/${file}`).href) as Promise<T>;
type Factory<H> = (handlers: unknown, options?: object) => H;

const announce = (port: number): void => console.log(`listening on http://127.0.0.1:${port}/mcp`);

if (env("TOOLC_RT_ENTRY") === "node-http") {
  const { createServer } = await import("node:http");
  const { createHttpHandler } = await import("../../generated/http.js");
  type Listener = ReturnType<typeof createHttpHandler>;
  const demo = createHttpHandler(createDemoHandlers().handlers);
  const gated = authDir === undefined ? undefined : (await generated<{ createHttpHandler: Factory<Listener> }>("http.ts")).createHttpHandler(gatedHandlers, gatedOptions(keys));
  const server = createServer((req, res) => void (gated !== undefined && isGated(req.url ?? "") ? gated : demo)(req, res));
  server.listen(0, "127.0.0.1", () => announce((server.address() as { port: number }).port));
} else {
  const demo = createFetchHandler(createDemoHandlers().handlers);
  const gated = authDir === undefined ? undefined : (await generated<{ createFetchHandler: Factory<FetchHandler> }>("fetch.ts")).createFetchHandler(gatedHandlers, gatedOptions(keys));
  const handler = route(demo, gated);
  if (runtime.Deno !== undefined) {
    runtime.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => announce(port) }, handler);
  } else if (runtime.Bun !== undefined) {
    announce(runtime.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port);
  } else {
    const { serve } = await import("@hono/node-server");
    serve({ fetch: handler, hostname: "127.0.0.1", port: 0 }, (info) => announce(info.port));
  }
}
