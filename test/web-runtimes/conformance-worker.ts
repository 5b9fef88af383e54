/**
 * The conformance fixture server (test/mcp-conformance: its generated SDK
 * 2.x tree and its handlers) as a Cloudflare Worker, through
 * `createFetchHandler`, with the options the Node server gets
 * (test/mcp-conformance/server.ts). Run by `wrangler dev --local` from
 * conformance.toml, without `nodejs_compat`, for the conformance run on
 * workerd. Made on the first request: Workers allow no random values or
 * timers at global scope.
 */
import { createFetchHandler } from "../mcp-conformance/generated/fetch.js";
import { handlers } from "../mcp-conformance/handlers.js";
import { SERVE_OPTIONS } from "../mcp-conformance/options.js";

let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    handler ??= createFetchHandler(handlers, SERVE_OPTIONS);
    return handler(request);
  },
};
