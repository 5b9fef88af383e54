/**
 * The validators target: the validators of the named types shared by several
 * tools (`validators/types/`). Each tool's own validators are part of its
 * code, which the MCP target writes (emit/tool-code/).
 */
import type { Target } from "../../targets/target.js";

export const validatorsTarget: Target = {
  name: "validators",
  root: "out",
  marker: "generated",
  async load() {
    const [{ emitSharedValidators }, { headerComment }] = await Promise.all([import("../validators.js"), import("../../printer/header.js")]);
    return { sharedFiles: (ir) => emitSharedValidators(ir, headerComment) };
  },
};
