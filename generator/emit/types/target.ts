/** The types target: one TypeScript module of named types per types file (the tools' own types are in their tool modules). */
import type { Target } from "../../targets/target.js";

export const typesTarget: Target = {
  name: "types",
  root: "out",
  marker: "generated",
  async load() {
    const [{ emitTypeFile }, { headerComment }] = await Promise.all([import("../types.js"), import("../../printer/header.js")]);
    return { sharedFiles: (ir) => ir.typeFiles.map((file) => emitTypeFile(file, ir, headerComment(file.source))) };
  },
};
