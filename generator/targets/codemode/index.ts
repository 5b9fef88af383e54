/**
 * The code-mode target (`codemode:` in the config, off without it):
 * codemode.ts, the tools as a typed async API for agents that write code,
 * with its declaration text for the model's context (module.ts,
 * declarations.ts), and runtime/codemode.ts, the part a sandbox loads.
 */
import { optionsOf, type Target } from "../target.js";
import { parseCodeModeConfig, type CodeModeOptions } from "./config.js";

export const codeModeTarget: Target<CodeModeOptions> = {
  name: "codemode",
  root: "out",
  marker: "generated",
  config: { key: "codemode", parse: parseCodeModeConfig },
  enabled: (options) => optionsOf(codeModeTarget, options) !== undefined,
  runtime: () => ({ codemode: true }),
  async load() {
    const { emitCodeModeModule } = await import("./module.js");
    return {
      sharedFiles: (ir, options) => {
        const own = optionsOf(codeModeTarget, options);
        return own === undefined ? [] : [emitCodeModeModule(ir, own)];
      },
    };
  },
};
