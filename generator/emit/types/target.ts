/** The types target: one TypeScript module of named types per types file (the tools' own types are in their tool modules). */
import type { Target } from "../../targets/target.js";
import { lintTypeModules } from "../ts-name-lints.js";

export const typesTarget: Target = {
  name: "types",
  root: "out",
  marker: "generated",
  // Two types files written as one module (TC023).
  lint: (ir) => lintTypeModules(ir),
  async load() {
    const [{ emitTypeFile }, { headerComment }] = await Promise.all([import("../types.js"), import("../../printer/header.js")]);
    return { sharedFiles: (ir) => ir.typeFiles.map((file) => emitTypeFile(file, ir, headerComment(file.source))) };
  },
};
