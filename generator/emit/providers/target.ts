/**
 * The providers target: providers.ts, each tool as OpenAI, Anthropic and
 * Gemini take it. Its lints (TC070-TC072: what a provider's strict mode
 * cannot say) run in normalize (the plan's `normalize.providers`); the
 * config's `providers: false` turns both off.
 */
import type { Target } from "../../targets/target.js";

export const providersTarget: Target = {
  name: "providers",
  root: "out",
  marker: "generated",
  enabled: (options) => options.providers !== false,
  runtime: () => ({ providers: true }),
  async load() {
    const { emitProvidersFiles } = await import("./module.js");
    return { sharedFiles: (ir) => emitProvidersFiles(ir) };
  },
};
