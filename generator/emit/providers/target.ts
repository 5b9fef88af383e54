/**
 * The providers target: providers.ts, each tool as OpenAI, Anthropic and
 * Gemini take it. Its lints (TC070-TC072: what a provider's strict mode
 * cannot say) run in normalize (the plan's `normalize.providers`); the
 * config's `providers: false` turns both off.
 */
import type { EmitOptions } from "../index.js";
import { optionsOf, type Target } from "../../targets/target.js";

/** `false` for the config's `providers: false` (the plan gives it); absent, the exports are written. */
export type ProvidersOptions = false;

/** Whether this run writes providers.ts (the output folder's README says so too). */
export const providersOn = (options: EmitOptions): boolean => optionsOf(providersTarget, options) !== false;

export const providersTarget: Target<ProvidersOptions> = {
  name: "providers",
  root: "out",
  marker: "generated",
  enabled: providersOn,
  runtime: () => ({ providers: true }),
  async load() {
    const { emitProvidersFiles } = await import("./module.js");
    return { sharedFiles: (ir) => emitProvidersFiles(ir) };
  },
};
