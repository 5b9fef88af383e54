/**
 * Phase 2, normalize: from loaded YAML to the IR. After this, nothing reads
 * YAML; every emitter works from the plain, immutable model returned here.
 */
import { Codes, error, hasErrors, sortDiagnostics, warning } from "../diagnostics.js";
import type { ContractIR, Diagnostic, JsonObject, SourceLocation, ToolIR } from "../ir.js";
import type { LoadedDefinitions, YamlSource } from "../load/index.js";
import { compileSchema, type ToolSchemaCompiler } from "./compile.js";
import type { NormalizeOptions } from "./access.js";
import { normalizeTool } from "./tool.js";
import { closureOf, normalizeTypeFiles, type NamedTypes } from "./types-files.js";
import { findFanouts } from "./union-fanout.js";
import { lintViews } from "./ui-set.js";

/** Portable to OpenAI and Anthropic tool calling, not only valid MCP. */
const PORTABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export type { NormalizeOptions };

export interface NormalizeResult {
  readonly ir: ContractIR;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * What the outputs say of the IR beyond the contracts' own checks (the
 * targets' lints, emit/index.ts lintTargets): given by the caller, so
 * normalize knows no target, and run with the lints across tools, so their
 * diagnostics are sorted and gate "no tools" with the rest.
 */
export type OutputLint = (ir: ContractIR) => readonly Diagnostic[];

export function isTypesFile(file: YamlSource): boolean {
  return Object.hasOwn(file.data as object, "types");
}

/** The named types of `names` with every type they refer to, as a schema's `$defs` (a name no file declares stands for `true`). */
function defsOf(names: readonly string[], types: NamedTypes): JsonObject {
  return Object.fromEntries(closureOf(names, types).map((n) => [n, types.byName.get(n)?.schema ?? true]));
}

/**
 * Whether the named types compile as one schema that refers to each of them. Ajv then compiles each type
 * once; compiled on its own, a type compiles again every type it refers to (GitHub's 420 component schemas:
 * 1.2 s against 2.2 s). Each type is compiled here where it is on its own (a branch of the root, with no
 * `type` around it) and every `$ref` inside it in the same place, so if this schema compiles, so does each
 * type alone; when it does not, the types are compiled one by one to tell which.
 */
function compileTogether(names: readonly string[], types: NamedTypes, file: YamlSource): boolean {
  const all = { $defs: defsOf(names, types), anyOf: names.map((name) => ({ $ref: `#/$defs/${name}` })) } as JsonObject;
  return compileSchema(all, file, ["types"], false).diagnostics.length === 0;
}

/** Compiles each named type, so a broken type is reported once, in its own file. */
function compileNamedTypes(types: NamedTypes, out: Diagnostic[]): Set<string> {
  const failed = new Set<string>();
  const names: string[] = [];
  for (const [name, entry] of types.byName) {
    if (entry.hasErrors) failed.add(name);
    else names.push(name);
  }
  const first = names[0] === undefined ? undefined : types.byName.get(names[0]);
  if (first !== undefined && names.length > 1 && compileTogether(names, types, first.file)) return failed;
  for (const name of names) {
    const entry = types.byName.get(name)!;
    const defs = defsOf([name], types);
    const compiled = compileSchema({ $defs: defs, $ref: `#/$defs/${name}` } as JsonObject, entry.file, ["types", name], false);
    if (compiled.diagnostics.length > 0) {
      failed.add(name);
      out.push(...compiled.diagnostics.map((d) => ({ ...d, ...entry.file.locate(["types", name]) })));
    }
  }
  return failed;
}

/**
 * Tool names that become keys of plain objects in generated code and in the
 * caller's own code (`contracts`, `handlers`, the typed client), where the
 * language gives them a meaning of their own.
 */
const RESERVED_TOOL_NAMES: ReadonlyMap<string, string> = new Map([
  ["__proto__", "as an object key it sets the object's prototype instead of adding the tool"],
  ["then", "an object with a `then` method is a thenable, so `await createClient(client)` would never settle"],
]);

/** One tool normalized on its own: what it contributes to the IR, with its diagnostics. */
export interface NormalizedTool {
  readonly tool: ToolIR;
  readonly diagnostics: readonly Diagnostic[];
}

/** The named types every tool is normalized against, with the types files' own diagnostics. */
export interface NormalizedTypes {
  readonly types: NamedTypes;
  readonly failedTypes: ReadonlySet<string>;
  readonly diagnostics: readonly Diagnostic[];
}

/** Recursive named types whose validation would take time exponential in the nesting of the value (union-fanout.ts). */
function checkFanouts(types: NamedTypes, failed: Set<string>, out: Diagnostic[]): void {
  const defs = Object.fromEntries([...types.byName].map(([name, entry]) => [name, entry.schema]));
  for (const fanout of findFanouts({ $defs: defs } as JsonObject, (name) => !failed.has(name))) {
    const entry = types.byName.get(fanout.def);
    if (entry === undefined) continue;
    failed.add(fanout.def);
    out.push(error(entry.file.locate(["types", fanout.def, ...fanout.path], { key: true }), Codes.exponentialUnion, fanout.message));
  }
}

export function normalizeTypes(typeFiles: readonly YamlSource[]): NormalizedTypes {
  const types = normalizeTypeFiles(typeFiles);
  const diagnostics: Diagnostic[] = [...types.diagnostics];
  const failedTypes = compileNamedTypes(types, diagnostics);
  checkFanouts(types, failedTypes, diagnostics);
  return { types, failedTypes, diagnostics };
}

/**
 * A tool depends on its own file and the named types alone, so a build cache
 * or a worker thread can normalize it apart from the others; `assemble` then
 * adds what needs every tool at once.
 */
export function normalizeOneTool(file: YamlSource, types: NormalizedTypes, options: NormalizeOptions = {}, compile?: ToolSchemaCompiler): NormalizedTool {
  const result = normalizeTool(file, types.types, types.failedTypes, options, compile);
  return { tool: result.tool, diagnostics: result.diagnostics };
}

function lintNames(tools: readonly NormalizedTool[], out: Diagnostic[]): void {
  const byName = new Map<string, SourceLocation>();
  const byIdentifier = new Map<string, string>();
  for (const { tool } of tools) {
    const at = tool.nameAt;
    const first = byName.get(tool.name);
    if (first) {
      out.push(error(at, Codes.duplicateTool, `duplicate tool name \`${tool.name}\`: already defined in ${first.file}`));
      continue;
    }
    byName.set(tool.name, at);
    if (RESERVED_TOOL_NAMES.has(tool.name)) {
      out.push(error(at, Codes.reservedToolName, `tool name \`${tool.name}\` cannot be served safely: ${RESERVED_TOOL_NAMES.get(tool.name)}; rename the tool`));
      continue;
    }
    if (!PORTABLE_NAME.test(tool.name)) {
      out.push(
        warning(at, Codes.nonPortableName, `tool name \`${tool.name}\` is valid MCP, but OpenAI and Anthropic tool names must match ^[A-Za-z0-9_-]{1,64}$`),
      );
    }
    // Every target names a tool's own files by its name (a tool's page, its module, its schema), so two names
    // one case-insensitive file system holds as one file are an error whatever is generated. The TypeScript
    // names a tool's types take are the TypeScript targets' own lint (emit/ts-name-lints.ts).
    const identifier = tool.name.toLowerCase();
    const clash = byIdentifier.get(identifier);
    if (clash !== undefined) {
      out.push(error(at, Codes.identifierClash, `tool name \`${tool.name}\` maps to the same generated name as \`${clash}\` (${identifier}); rename one`));
    }
    byIdentifier.set(identifier, tool.name);
  }
}

/**
 * The IR from the named types and every tool, in load order: the lints that
 * need all tools at once (names, views, and the outputs' own `lint`), "no
 * tools", and the diagnostics sorted. `earlier` holds what loading reported.
 */
export function assemble(types: NormalizedTypes, tools: readonly NormalizedTool[], earlier: readonly Diagnostic[] = [], lint?: OutputLint): NormalizeResult {
  const diagnostics: Diagnostic[] = [...earlier, ...types.diagnostics, ...tools.flatMap((t) => t.diagnostics)];
  lintNames(tools, diagnostics);
  lintViews(
    tools.map((t) => t.tool),
    diagnostics,
  );
  const sortedTools = tools.map((t) => t.tool).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ir: ContractIR = { tools: sortedTools, typeFiles: types.types.files };
  if (lint !== undefined) diagnostics.push(...lint(ir));
  if (tools.length === 0 && !hasErrors(diagnostics)) {
    diagnostics.push(error({ file: ".", line: 1, col: 1 }, Codes.emptyDefinitions, "the definitions contain no tools"));
  }
  return { ir, diagnostics: sortDiagnostics(diagnostics) };
}

export function normalize(loaded: LoadedDefinitions, options: NormalizeOptions = {}, lint?: OutputLint): NormalizeResult {
  const types = normalizeTypes(loaded.files.filter(isTypesFile));
  const tools = loaded.files.filter((f) => !isTypesFile(f)).map((file) => normalizeOneTool(file, types, options));
  return assemble(types, tools, loaded.diagnostics, lint);
}
