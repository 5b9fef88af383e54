/**
 * The demo's generated tools as a Cloudflare Worker: `createFetchHandler`
 * as the module's `fetch`, run by workerd through `wrangler dev --local`
 * (wrangler.toml: no `nodejs_compat`, so any `node:` import would fail to
 * load). The handler is made on the first request: Workers allow no
 * random values or timers at global scope. `gatedWorker` adds a generated
 * auth project's gated server beside it (routes.ts): the test writes a
 * two-line entry and a wrangler.toml into that project, whose `vars` hold
 * the key set.
 */
import { createDemoHandlers } from "../../demo/handlers.js";
import { createFetchHandler } from "../../generated/fetch.js";
import { gatedHandlers, gatedOptions, route, type FetchHandler } from "./routes.js";

type Factory = (handlers: unknown, options?: object) => FetchHandler;

/** A Worker serving the demo, and with `createGated` the auth project's gated server beside it. */
export function gatedWorker(createGated?: Factory): { fetch(request: Request, env: { TOOLC_RT_KEYS?: string }): Promise<Response> } {
  let handler: FetchHandler | undefined;
  return {
    fetch(request, env) {
      handler ??= route(createFetchHandler(createDemoHandlers().handlers), createGated?.(gatedHandlers, gatedOptions(env.TOOLC_RT_KEYS ?? "")));
      return handler(request);
    },
  };
}

export default gatedWorker();
