/** The HTTP target: http.ts, the Streamable HTTP handler for Node (with the config's `auth:`, an OAuth resource server). */
import type { Target } from "../targets/target.js";

export const httpTarget: Target = {
  name: "http",
  root: "out",
  marker: "generated",
  runtime: (options) => (options.auth === undefined ? {} : { auth: true }),
  async load() {
    const { emitHttpModule } = await import("./http-module.js");
    return { sharedFiles: (_ir, options) => [emitHttpModule(options.auth)] };
  },
};
