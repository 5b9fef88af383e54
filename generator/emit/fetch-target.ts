/** The fetch target: fetch.ts, the same server behind a web-standard `(Request) => Response` handler. */
import { optionsOf, type Target } from "../targets/target.js";
import type { EntryOptions } from "./http-target.js";

export const fetchTarget: Target<EntryOptions> = {
  name: "fetch",
  root: "out",
  marker: "generated",
  async load() {
    const { emitFetchModule } = await import("./fetch-module.js");
    return { sharedFiles: (_ir, options) => [emitFetchModule(optionsOf(fetchTarget, options)?.auth)] };
  },
};
