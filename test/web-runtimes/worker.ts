/**
 * The demo's generated tools as a Cloudflare Worker: `createFetchHandler`
 * as the module's `fetch`, run by workerd through `wrangler dev --local`
 * (wrangler.toml: no `nodejs_compat`, so any `node:` import would fail to
 * load). The handler is made on the first request: Workers allow no
 * random values or timers at global scope.
 */
import { createDemoHandlers } from "../../demo/handlers.js";
import { createFetchHandler } from "../../generated/fetch.js";

let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    handler ??= createFetchHandler(createDemoHandlers().handlers);
    return handler(request);
  },
};
