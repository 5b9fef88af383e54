/** The validators target: Ajv standalone validators per tool, and those of the named types shared by several tools. */
import type { Target } from "../../targets/target.js";

export const validatorsTarget: Target = {
  name: "validators",
  root: "out",
  marker: "generated",
  async load() {
    const [{ emitSharedValidators, emitValidators }, { headerComment }] = await Promise.all([import("../validators.js"), import("../../printer/header.js")]);
    return {
      toolFiles: (tool) => emitValidators(tool, headerComment(tool.source)),
      sharedFiles: (ir) => emitSharedValidators(ir, headerComment),
    };
  },
};
