/**
 * The conformance fixture server (test/mcp-conformance: its generated SDK
 * 2.x tree and its handlers) through `createFetchHandler`, with the options
 * every other entry gets (options.ts), served on 127.0.0.1 by whichever of
 * Deno (`Deno.serve`) and Bun (`Bun.serve`) runs this file, as their users
 * serve a fetch handler. Prints `listening on http://127.0.0.1:<port>/mcp`.
 * Run by test/mcp-conformance/server.ts for the conformance run on Deno and
 * on Bun.
 */
import { createFetchHandler } from "../mcp-conformance/generated/fetch.js";
import { handlers } from "../mcp-conformance/handlers.js";
import { SERVE_OPTIONS } from "../mcp-conformance/options.js";

type FetchHandler = (request: Request) => Promise<Response>;

/** The parts of Deno's and Bun's globals this file uses, so it type-checks without their types. */
interface Runtimes {
  Deno?: { serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: FetchHandler): unknown };
  Bun?: { serve(options: { hostname: string; port: number; fetch: FetchHandler }): { port: number } };
}

const runtime = globalThis as Runtimes;
const handler = createFetchHandler(handlers, SERVE_OPTIONS);
const announce = (port: number): void => console.log(`listening on http://127.0.0.1:${port}/mcp`);

if (runtime.Deno !== undefined) runtime.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => announce(port) }, handler);
else if (runtime.Bun !== undefined) announce(runtime.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port);
else throw new Error("conformance-serve.ts runs on Deno or Bun");
