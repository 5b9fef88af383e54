/** The fetch target: fetch.ts, the same server behind a web-standard `(Request) => Response` handler. */
import type { Target } from "../targets/target.js";

export const fetchTarget: Target = {
  name: "fetch",
  root: "out",
  marker: "generated",
  async load() {
    const { emitFetchModule } = await import("./fetch-module.js");
    return { sharedFiles: (_ir, options) => [emitFetchModule(options.auth)] };
  },
};
