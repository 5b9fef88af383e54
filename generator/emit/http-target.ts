/** The HTTP target: http.ts, the Streamable HTTP handler for Node (with the config's `auth:`, an OAuth resource server). */
import type { AuthSetting } from "../config/auth.js";
import { optionsOf, type Target } from "../targets/target.js";

/** What the HTTP and fetch entries read of the plan: the config's `auth:` section, when there is one. */
export interface EntryOptions {
  readonly auth?: AuthSetting;
}

export const httpTarget: Target<EntryOptions> = {
  name: "http",
  root: "out",
  marker: "generated",
  runtime: (options) => (optionsOf(httpTarget, options)?.auth === undefined ? {} : { auth: true }),
  async load() {
    const { emitHttpModule } = await import("./http-module.js");
    return { sharedFiles: (_ir, options) => [emitHttpModule(optionsOf(httpTarget, options)?.auth)] };
  },
};
