/**
 * The MCP Bundle target (`bundle:` in the config, off without it): the
 * manifest.json that `mcpb pack` packs a server into a one-click `.mcpb`
 * from, written into the output folder with the server.json target's.
 */
import { optionsOf, type Target } from "../target.js";
import { parseBundleConfig, type BundleOptions } from "./config.js";

export const mcpbTarget: Target<BundleOptions> = {
  name: "mcpb",
  root: "out",
  marker: "generated",
  config: { key: "bundle", parse: parseBundleConfig },
  enabled: (options) => optionsOf(mcpbTarget, options) !== undefined,
  async load() {
    const { emitManifest } = await import("./emit.js");
    return {
      sharedFiles: (ir, options) => {
        const own = optionsOf(mcpbTarget, options);
        return own === undefined ? [] : [emitManifest(ir, own)];
      },
    };
  },
};
