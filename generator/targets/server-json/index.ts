/**
 * The server.json target (`registry:` in the config, off without it): the
 * file the MCP registry publishes a server from, written into the output
 * folder. The smallest target: a config section, one shared file.
 */
import { optionsOf, type Target } from "../target.js";
import { parseServerJsonConfig, type ServerJsonOptions } from "./config.js";

export const serverJsonTarget: Target<ServerJsonOptions> = {
  name: "server-json",
  root: "out",
  marker: "generated",
  config: { key: "registry", parse: parseServerJsonConfig },
  enabled: (options) => optionsOf(serverJsonTarget, options) !== undefined,
  async load() {
    const { emitServerJson } = await import("./emit.js");
    return {
      sharedFiles: (_ir, options) => {
        const own = optionsOf(serverJsonTarget, options);
        return own === undefined ? [] : [emitServerJson(own)];
      },
    };
  },
};
