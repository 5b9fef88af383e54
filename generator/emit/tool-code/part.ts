/**
 * A tool's code (its validators and copies) as the compile of the tool makes
 * it, before it is printed into a module: the unit the build cache stores and
 * the worker threads hand back, since which module holds a tool's code
 * depends on every tool of the run (groups.ts), and the print of each layout
 * (join.ts) is cheap next to compiling the validators.
 *
 * It travels as an EmittedFile marked `part` (a JSON text), which the write
 * never sees: the MCP target's `joinParts` turns the run's parts into the
 * files written. Code is kept as its parts, text and import symbols, so the
 * file that prints it binds the imports (printer/file-builder.ts).
 */
import type { EmittedFile, ToolIR } from "../../ir.js";
import { Code } from "../../printer/file-builder.js";
import { copiesCode, type CopiesCode } from "../copies.js";
import { toolFileName } from "../ts-names.js";
import { toolValidatorsCode, type StandaloneCode } from "../validators.js";

/** The target that joins the parts (emit/mcp-target.ts). */
export const PART_OF = "mcp";

type Parts = Code["parts"];

/** A tool's code, as data. */
export interface ToolCodePart {
  readonly name: string;
  /** Its definition file, as headers name it. */
  readonly source: string;
  /** The stem of its own modules' names (toolFileName). */
  readonly fileName: string;
  readonly validators: StandaloneCode;
  readonly copies: {
    readonly exported: readonly Parts[];
    readonly local: readonly Parts[];
    readonly functions: readonly Parts[];
    readonly usesIsArray: boolean;
    readonly names: readonly string[];
  };
}

export function toolCodePart(tool: ToolIR): EmittedFile {
  return partFile(tool, toolFileName(tool), toolValidatorsCode(tool), copiesCode(tool));
}

/** A tool's part from its compiled validators and copies, as the file the compile hands back. */
export function partFile(tool: Pick<ToolIR, "name" | "source">, fileName: string, validators: StandaloneCode, copies: CopiesCode): EmittedFile {
  const parts = (list: readonly Code[]): Parts[] => list.map((c) => c.parts);
  const part: ToolCodePart = {
    name: tool.name,
    source: tool.source,
    fileName,
    validators,
    copies: {
      exported: parts(copies.roots.exported),
      local: parts(copies.roots.local),
      functions: parts(copies.functions),
      usesIsArray: copies.usesIsArray,
      names: copies.names,
    },
  };
  return { path: `${fileName}.part.json`, text: JSON.stringify(part), part: PART_OF };
}

/** A part's data back, with its copies as code again. */
export function readPart(file: EmittedFile): ToolCodePart {
  return JSON.parse(file.text) as ToolCodePart;
}

export const asCode = (list: readonly Parts[]): Code[] => list.map((parts) => new Code(parts));
