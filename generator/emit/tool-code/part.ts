/**
 * A tool's code (its validators) as the compile of the tool makes
 * it, before it is printed into a module: the unit the build cache stores and
 * the worker threads hand back, since which module holds a tool's code
 * depends on every tool of the run (groups.ts), and the print of each layout
 * (join.ts) is cheap next to compiling the validators.
 *
 * It travels as an EmittedFile marked `part` (a JSON text), which the write
 * never sees: the MCP target's `joinParts` turns the run's parts into the
 * files written. A tool's schema-aware copies are not part of its code: the
 * runtime plans them from the served schemas (runtime/copy-plan.ts).
 */
import type { EmittedFile, ToolIR } from "../../ir.js";
import { toolFileName } from "../ts-names.js";
import { toolValidatorsCode, type StandaloneCode } from "../validators.js";

/** The target that joins the parts (emit/mcp-target.ts). */
export const PART_OF = "mcp";

/** A tool's code, as data. */
export interface ToolCodePart {
  readonly name: string;
  /** Its definition file, as headers name it. */
  readonly source: string;
  /** The stem of its own modules' names (toolFileName). */
  readonly fileName: string;
  readonly validators: StandaloneCode;
}

export function toolCodePart(tool: ToolIR): EmittedFile {
  return partFile(tool, toolFileName(tool), toolValidatorsCode(tool));
}

/** A tool's part from its compiled validators, as the file the compile hands back. */
export function partFile(tool: Pick<ToolIR, "name" | "source">, fileName: string, validators: StandaloneCode): EmittedFile {
  const part: ToolCodePart = { name: tool.name, source: tool.source, fileName, validators };
  return { path: `${fileName}.part.json`, text: JSON.stringify(part), part: PART_OF };
}

/** A part's data back. */
export function readPart(file: EmittedFile): ToolCodePart {
  return JSON.parse(file.text) as ToolCodePart;
}
