/**
 * Chunks target: `chunks/<tool>.ts`, the module the runtime loads on a tool's
 * first call (one chunk per tool, so a server that never calls a tool never
 * loads its code). It re-exports the tool's validators and adds `copyInput` and
 * `copyOutput`, copies of plain JSON data written for the shapes of the
 * tool's schemas (copies/functions.ts). The named types a tool uses are
 * copied by functions written once for all tools, in
 * `chunks/types/<module>.ts` (copies/named-types.ts), which the chunk imports.
 * See runtime/json.ts for what a copy guarantees.
 */
import type { ContractIR, EmittedFile, JsonObject, DefOrigin, ToolIR } from "../ir.js";
import { isJsonObject } from "../schema/json.js";
import { code, FileBuilder, type Code } from "../printer/file-builder.js";
import { CopyEmitter, JsonRuntime, type Hint } from "./copies/functions.js";
import { emitSharedCopies as emitSharedModules, SHARED_FOLDER, sharedHints, type SharedUses } from "./copies/named-types.js";
import { toolFileName } from "./ts-names.js";

/** The folder of the per-tool chunks; `copies/` before, which the write step removes from an older project as stale. */
export const CHUNKS_FOLDER = "chunks";
/** The runtime as a chunk imports it. */
const RUNTIME = new JsonRuntime("../");

/** The runtime call that copies a root with this hint: schema-aware for an object or array shape, else the generic copy. */
function rootCall(hint: Hint): Code {
  if (hint.kind !== "fn") return code`${RUNTIME.value("copyJson")}(value)`;
  return code`${RUNTIME.value(hint.container === "object" ? "copyJsonWith" : "copyJsonArrayWith")}(value, ${hint.fn})`;
}

/** The exported copy function for one root schema (an output's may be an array, SEP-2106), and the functions it calls. */
function rootCopy(exportName: string, prefix: string, schema: JsonObject, origins: Readonly<Record<string, DefOrigin>>, uses: SharedUses, write = true) {
  const defs = isJsonObject(schema["$defs"]) ? schema["$defs"] : {};
  const emitter = new CopyEmitter({
    nameOf: (position) => `${prefix}${position}`,
    defs,
    shared: sharedHints(defs, origins, `./${SHARED_FOLDER}/`, uses),
    runtime: RUNTIME,
    write,
  });
  const body = rootCall(emitter.hintOf(schema));
  const exported = code`/** A copy of the ${prefix === "input" ? "caller's input" : "handler's output"} as plain JSON data, or why it is not JSON (see runtime/json.ts). */
export function ${exportName}(value: unknown): ${RUNTIME.JsonCopy} {
  return ${body};
}`;
  return { exported, emitter };
}

/** A tool's two copies, and the named types' shared functions they call (added to `uses`); with `write` false, only the calls. */
function toolCopies(tool: ToolIR, uses: SharedUses, write = true) {
  return {
    input: rootCopy("copyInput", "input", tool.inputSchema, tool.inputDefs, uses, write),
    output: rootCopy("copyOutput", "output", tool.outputSchema, tool.outputDefs, uses, write),
  };
}

export function emitCopies(tool: ToolIR, header: string): EmittedFile {
  const { input, output } = toolCopies(tool, new Map());
  const file = new FileBuilder(`${CHUNKS_FOLDER}/${toolFileName(tool)}.ts`, header);
  // Declared before anything is imported, so a shared function whose name meets one of these (a type named Input) is aliased.
  file.reserve("copyInput", "copyOutput", "isArray", ...input.emitter.names, ...output.emitter.names);
  // Only what the code uses is imported, as each piece of code is added: the generated code compiles with noUnusedLocals.
  file.add({ kind: "exportFrom", names: ["validateInput", "validateOutput"], from: `../validators/${toolFileName(tool)}.js` });
  if (input.emitter.usesIsArray || output.emitter.usesIsArray) file.add("const isArray = Array.isArray;");
  file.add(input.exported, output.exported, ...input.emitter.functions, ...output.emitter.functions);
  return { path: file.path, text: file.toText() };
}

/** `chunks/types/<module>.ts`: the shared functions of the named types the tools' chunks call (copies/named-types.ts). */
export function emitSharedCopies(ir: ContractIR, headerFor: (source: string) => string): EmittedFile[] {
  const uses: SharedUses = new Map();
  // The same walk as each chunk's, so both agree on what is called; no code is written for the chunks here.
  for (const tool of ir.tools) toolCopies(tool, uses, false);
  return emitSharedModules(ir, uses, CHUNKS_FOLDER, headerFor);
}
