/**
 * The types target: one `types/<module>.ts` per types file, and the type
 * declarations of each tool (input as sent, input after defaults, output,
 * rejection reasons, local `$defs`), which the tool's module composes with
 * its contract constant.
 */
import type { ContractIR, DefOrigin, EmittedFile, JsonObject, JsonSchema, ToolIR, TypeFileIR } from "../ir.js";
import { isJsonObject } from "../schema/json.js";
import { FileBuilder, type TypeAliasStatement } from "../printer/file-builder.js";
import { schemaDocLines } from "./types/jsdoc.js";
import { schemaToType, type TypeContext, type TypeNode } from "./types/index.js";
import { scalarLiteral, unionOf } from "../printer/types/node.js";
import { typeText } from "../printer/types/render.js";
import { localTypeName, toolExportNames, toolTypeName } from "./ts-names.js";

export { schemaToType, type TypeContext, type TypeNode } from "./types/index.js";

/** The names `toolTypeStatements` declares for a tool. */
export interface ToolTypeNames {
  /** Input as the caller sends it: properties with a default may be omitted. */
  readonly input: string;
  /** Input as the handler receives it, after Ajv applied defaults. */
  readonly resolvedInput: string;
  readonly output: string;
  /** Union of the declared rejection codes, `never` when there are none. */
  readonly reason: string;
}

/** `GetOrderInput`, `GetOrderResolvedInput`, `GetOrderOutput`, `GetOrderReason`. */
export function toolTypeNames(tool: ToolIR): ToolTypeNames {
  const { input, resolvedInput, output, reason } = toolExportNames(toolTypeName(tool));
  return { input, resolvedInput, output, reason };
}

/** `export type <name> = <type>;`, with JSDoc when there is any. */
function typeAlias(name: string, type: TypeNode | string, docLines: readonly string[]): TypeAliasStatement {
  return { kind: "typeAlias", name, type, docs: docLines };
}

/** The import specifier of a types module, relative to a file in `fromDir` (`types` or `tools`). */
function typesModuleSpecifier(module: string, fromDir: "types" | "other"): string {
  return fromDir === "types" ? `./${module}.js` : `../types/${module}.js`;
}

function defsOf(schema: JsonObject): Record<string, JsonSchema> {
  return isJsonObject(schema.$defs) ? (schema.$defs as Record<string, JsonSchema>) : {};
}

/**
 * The `$defs` resolver for a tool schema: named types are imported from their
 * types module, local defs are referenced by their TS name in this file.
 */
function toolRefResolver(tool: ToolIR, defs: Readonly<Record<string, DefOrigin>>, builder: FileBuilder): (key: string) => string {
  return (key) => {
    const origin = defs[key];
    if (origin === undefined) throw new Error(`${tool.name}: no $defs entry ${JSON.stringify(key)}`);
    if (origin.kind === "local") return localTypeName(tool, origin);
    return builder.importType(origin.name, typesModuleSpecifier(origin.module, "other"));
  };
}

/** The local `$defs` of one schema, as `[tsName, schema]`, in `$defs` order. */
function localDefs(tool: ToolIR, schema: JsonObject, origins: Readonly<Record<string, DefOrigin>>): [string, JsonSchema][] {
  const defs = defsOf(schema);
  const out: [string, JsonSchema][] = [];
  for (const [key, origin] of Object.entries(origins)) {
    if (origin.kind !== "local") continue;
    const def = defs[key];
    if (def === undefined) throw new Error(`local def ${JSON.stringify(key)} is missing from $defs`);
    out.push([localTypeName(tool, origin), def]);
  }
  return out;
}

/** The JSDoc for the Reason type: one line per declared error. */
function reasonDocLines(tool: ToolIR): string[] {
  const head = `Rejection reasons \`${tool.name}\` declares; the handler returns one with \`ctx.reject\`.`;
  if (tool.errors.length === 0) return [`\`${tool.name}\` declares no rejection reasons.`];
  return [head, "", ...tool.errors.map((e) => `- ${e.code}: ${e.description}`)];
}

/**
 * Adds a tool's type declarations to `builder`: local defs (shared between
 * input and output when they have the same TS name), then Input,
 * ResolvedInput, Output and Reason. Named types are imported as needed.
 * Returns the declared names so the caller can refer to them.
 *
 * Local defs are emitted once, as sent; a default inside a local def (or a
 * named type) is therefore optional in ResolvedInput too — wider, never wrong.
 *
 * A declaration whose type is written exactly as an earlier one's, property
 * docs included, is an alias of it (`XResolvedInput = XInput` when no default
 * applies, an output that is one of its local defs): the same type, its own
 * doc, the text once.
 */
export function toolTypeStatements(tool: ToolIR, builder: FileBuilder): ToolTypeNames {
  const names = toolTypeNames(tool);
  const inputLocals = localDefs(tool, tool.inputSchema, tool.inputDefs);
  const outputLocals = localDefs(tool, tool.outputSchema, tool.outputDefs);
  builder.reserve(names.input, names.resolvedInput, names.output, names.reason);
  builder.reserve(...[...inputLocals, ...outputLocals].map(([tsName]) => tsName));

  const inputCtx: TypeContext = { resolveRef: toolRefResolver(tool, tool.inputDefs, builder), resolved: false };
  const outputCtx: TypeContext = { resolveRef: toolRefResolver(tool, tool.outputDefs, builder), resolved: false };
  // A def used by both input and output is emitted once; the same name with a different type is a bug upstream.
  const emitted = new Map<string, string>();
  // Each type written out once: a declaration written as an earlier one (docs included) is an alias of it.
  const declaredAs = new Map<string, string>();
  const declare = (name: string, type: TypeNode, docLines: readonly string[]) => {
    const text = typeText(type);
    const same = declaredAs.get(text);
    builder.add(typeAlias(name, same ?? type, docLines));
    if (same === undefined) declaredAs.set(text, name);
  };
  const emitLocal = ([tsName, def]: [string, JsonSchema], ctx: TypeContext) => {
    const type = schemaToType(def, ctx);
    const previous = emitted.get(tsName);
    if (previous !== undefined && previous !== typeText(type)) throw new Error(`${tool.name}: two different local defs named ${tsName}`);
    if (previous === undefined) declare(tsName, type, schemaDocLines(def));
    emitted.set(tsName, typeText(type));
  };
  for (const def of inputLocals) emitLocal(def, inputCtx);
  for (const def of outputLocals) emitLocal(def, outputCtx);

  const name = tool.name;
  const input = stripDefs(tool.inputSchema);
  const output = stripDefs(tool.outputSchema);
  // Without a default that applies, the input as the handler receives it is the input as sent: the same type, written once.
  declare(names.input, schemaToType(input, inputCtx), schemaDocLines(input, [`Input of \`${name}\` as sent: properties with a default may be omitted.`]));
  declare(names.resolvedInput, schemaToType(input, { ...inputCtx, resolved: true }), [
    `Input of \`${name}\` as the handler receives it: validated, with defaults applied.`,
  ]);
  declare(names.output, schemaToType(output, outputCtx), schemaDocLines(output, [`Output of \`${name}\`.`]));
  builder.add(typeAlias(names.reason, unionOf(tool.errors.map((e) => scalarLiteral(e.code))), reasonDocLines(tool)));
  return names;
}

/** The schema without `$defs`: those are emitted (or imported) separately, not inlined. */
function stripDefs(schema: JsonObject): JsonObject {
  const { $defs: _defs, ...rest } = schema;
  return rest;
}

/** Maps every named type to the modules that export a type of that name. */
function namedTypeModules(ir: ContractIR): Map<string, string[]> {
  const modules = new Map<string, string[]>();
  for (const file of ir.typeFiles) {
    for (const t of file.types) modules.set(t.name, [...(modules.get(t.name) ?? []), file.module]);
  }
  return modules;
}

/**
 * The `$defs` resolver inside a types module: a name declared in the same
 * module is used directly (it shadows same-named types elsewhere); another
 * module's type is imported; a name several other modules declare is ambiguous.
 */
function namedRefResolver(file: TypeFileIR, ir: ContractIR, builder: FileBuilder): (key: string) => string {
  const own = new Set(file.types.map((t) => t.name));
  const modules = namedTypeModules(ir);
  return (key) => {
    if (own.has(key)) return key;
    const found = modules.get(key) ?? [];
    if (found.length === 0) throw new Error(`${file.source}: no named type ${JSON.stringify(key)}`);
    if (found.length > 1) throw new Error(`${file.source}: named type ${JSON.stringify(key)} is ambiguous (${found.join(", ")})`);
    return builder.importType(key, typesModuleSpecifier(found[0], "types"));
  };
}

/**
 * Emits `types/<module>.ts`: one exported type per named type, in the order of
 * the types file. `#/$defs/<Name>` refers to another named type; one from
 * another module is imported (aliased if its name clashes with a local one).
 */
export function emitTypeFile(file: TypeFileIR, ir: ContractIR, header: string): EmittedFile {
  const path = `types/${file.module}.ts`;
  const builder = new FileBuilder(path, header);
  builder.reserve(...file.types.map((t) => t.name));
  const ctx: TypeContext = { resolved: false, resolveRef: namedRefResolver(file, ir, builder) };
  for (const named of file.types) {
    const schema = named.schema;
    const withDescription = named.description !== undefined && typeof schema === "object" ? { ...schema, description: named.description } : schema;
    builder.add(typeAlias(named.name, schemaToType(schema, ctx), schemaDocLines(withDescription)));
  }
  return { path, text: builder.toText() };
}
