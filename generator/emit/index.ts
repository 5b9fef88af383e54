/**
 * Phase 3, emit: every target is a pure function from the IR to files. No
 * target reads another's output; they agree because they share the IR.
 */
import type { ContractIR, EmittedFile } from "../ir.js";
import { headerComment } from "./header.js";
import { emitIndexModule } from "./index-module.js";
import { emitRuntimeFiles } from "./runtime-files.js";
import { emitSchemaJson } from "./schemas-json.js";
import { emitToolModule } from "./tool-module.js";
import { emitTypeFile } from "./types.js";
import { emitValidators } from "./validators.js";

export interface EmitOptions {
  /** The consumer's handlers module, as a posix path relative to the output folder. */
  readonly handlersModule?: string;
}

export function emitAll(ir: ContractIR, options: EmitOptions = {}): EmittedFile[] {
  void options;
  const files = [
    ...ir.typeFiles.map((file) => emitTypeFile(file, ir, headerComment(file.source))),
    ...ir.tools.flatMap((tool) => [emitToolModule(tool), ...emitValidators(tool, headerComment(tool.source)), emitSchemaJson(tool)]),
    emitIndexModule(ir),
    ...emitRuntimeFiles(),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
