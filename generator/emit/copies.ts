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

/** The copy function for one root schema (an output's may be an array, SEP-2106): `export`ed from a module of its own, local to the tool's function in a group's module. */
function rootFunction(exportName: string, prefix: string, body: Code, exported: boolean): Code {
  return code`/** A copy of the ${prefix === "input" ? "caller's input" : "handler's output"} as plain JSON data, or why it is not JSON (see runtime/json.ts). */
${exported ? "export " : ""}function ${exportName}(value: unknown): ${RUNTIME.JsonCopy} {
  return ${body};
}`;
}

/** The functions copying one root schema, and the call its root copy makes; with `write` false, only the calls (added to `uses`). */
function rootCopy(prefix: string, schema: JsonObject, origins: Readonly<Record<string, DefOrigin>>, uses: SharedUses, write = true) {
  const defs = isJsonObject(schema["$defs"]) ? schema["$defs"] : {};
  const emitter = new CopyEmitter({
    nameOf: (position) => `${prefix}${position}`,
    defs,
    shared: sharedHints(defs, origins, `./${SHARED_FOLDER}/`, uses),
    runtime: RUNTIME,
    write,
  });
  return { body: rootCall(emitter.hintOf(schema)), emitter };
}

/** A tool's two copies, and the named types' shared functions they call (added to `uses`); with `write` false, only the calls. */
function toolCopies(tool: ToolIR, uses: SharedUses, write = true) {
  return {
    input: rootCopy("input", tool.inputSchema, tool.inputDefs, uses, write),
    output: rootCopy("output", tool.outputSchema, tool.outputDefs, uses, write),
  };
}

/** A tool's copies: `copyInput` and `copyOutput` (`export`ed from the tool's own module; local to its function in a group module), the functions they call, whether those need `isArray`, and the names they declare. */
export interface CopiesCode {
  readonly roots: { readonly exported: readonly Code[]; readonly local: readonly Code[] };
  readonly functions: readonly Code[];
  readonly usesIsArray: boolean;
  /** Every name the copies declare: a file reserves them before it imports anything, so a shared function whose name meets one (a type named Input) is aliased. */
  readonly names: readonly string[];
}

export function copiesCode(tool: ToolIR): CopiesCode {
  const { input, output } = toolCopies(tool, new Map());
  const roots = (exported: boolean) => [rootFunction("copyInput", "input", input.body, exported), rootFunction("copyOutput", "output", output.body, exported)];
  return {
    roots: { exported: roots(true), local: roots(false) },
    functions: [...input.emitter.functions, ...output.emitter.functions],
    usesIsArray: input.emitter.usesIsArray || output.emitter.usesIsArray,
    names: ["copyInput", "copyOutput", "isArray", ...input.emitter.names, ...output.emitter.names],
  };
}

/** `const isArray = Array.isArray;`, which copies that test for an array call. */
export const IS_ARRAY = "const isArray = Array.isArray;";

/** `chunks/<tool>.ts`: the tool's copies, with its validators (`validators/<tool>.ts`) re-exported. */
export function printCopiesModule(fileName: string, header: string, copies: CopiesCode): EmittedFile {
  const file = new FileBuilder(`${CHUNKS_FOLDER}/${fileName}.ts`, header);
  file.reserve(...copies.names);
  // Only what the code uses is imported, as each piece of code is added: the generated code compiles with noUnusedLocals.
  file.add({ kind: "exportFrom", names: ["validateInput", "validateOutput"], from: `../validators/${fileName}.js` });
  if (copies.usesIsArray) file.add(IS_ARRAY);
  file.add(...copies.roots.exported, ...copies.functions);
  return { path: file.path, text: file.toText() };
}

export function emitCopies(tool: ToolIR, header: string): EmittedFile {
  return printCopiesModule(toolFileName(tool), header, copiesCode(tool));
}

/** `chunks/types/<module>.ts`: the shared functions of the named types the tools' chunks call (copies/named-types.ts). */
export function emitSharedCopies(ir: ContractIR, headerFor: (source: string) => string): EmittedFile[] {
  const uses: SharedUses = new Map();
  // The same walk as each chunk's, so both agree on what is called; no code is written for the chunks here.
  for (const tool of ir.tools) toolCopies(tool, uses, false);
  return emitSharedModules(ir, uses, CHUNKS_FOLDER, headerFor);
}
