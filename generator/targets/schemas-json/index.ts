/**
 * The schemas target (`schemasJson: true` in the config, off without it):
 * `schemas/<name>.json`, each tool as `tools/list` serves it and its policy,
 * as plain JSON for tools and languages that do not import TypeScript.
 *
 * Off by default because `contracts.ts` is the one source of the served
 * schemas: the server lists what it holds, and writing every schema a second
 * time made `schemas/` the largest part of a big API's folder (17 MB of
 * GitHub's 70 MB, #42). When on, the files are built from the same IR by
 * `listedTool` and `policyOf`, so they say what the server serves.
 */
import { Codes, error } from "../../diagnostics.js";
import { optionsOf, type Target } from "../target.js";

/** Present (as `true`) only when the config turns the target on. */
export type SchemasJsonOptions = true;

export const schemasJsonTarget: Target<SchemasJsonOptions> = {
  name: "schemas-json",
  root: "out",
  marker: "generated",
  config: {
    key: "schemasJson",
    parse: (value, context) =>
      typeof value === "boolean"
        ? { diagnostics: [], ...(value ? { options: true as const } : {}) }
        : { diagnostics: [error(context.locate(["schemasJson"]), Codes.invalidValue, `\`schemasJson\` must be true or false, not ${JSON.stringify(value)}`)] },
  },
  enabled: (options) => optionsOf(schemasJsonTarget, options) === true,
  async load() {
    const { emitSchemaJson } = await import("../../emit/schemas-json.js");
    return { toolFiles: (tool) => [emitSchemaJson(tool)] };
  },
};
