/**
 * Named types (from types files) copied by functions written once, into
 * `chunks/types/<module>.ts`, instead of in place in every tool's chunk that
 * uses them: a tool's chunk imports the function of each named type it
 * copies, and a named type's function imports those of the named types it
 * uses (a recursive type's calls itself; modules may import each other in a
 * cycle, which function declarations allow).
 *
 * What a use of a named type is copied with is decided from the named types
 * alone (`namedTarget`), so each tool's chunk and the shared modules agree
 * without seeing each other: a type that is an object or array shape is
 * copied by its own function; one that only refers to another named type
 * (`$ref` beside its shape keywords, which the copies ignore as they always
 * have) by that type's; a leaf type by its inline test; anything else, and a
 * chain of references that goes round, by the generic walk. A tool's own
 * `$defs` entries are still written in its chunk.
 *
 * Sharing changes where a copy's code is, never what it does: a schema-aware
 * copy gives what the generic walk gives (runtime/json.ts), whichever
 * function copies a value.
 */
import type { ContractIR, DefOrigin, EmittedFile, JsonObject } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { defsEntryName } from "../../schema/refs.js";
import { FileBuilder, valueSymbol, type Code, type ImportSymbol } from "../../printer/file-builder.js";
import { ANY, containerOf, CopyEmitter, JsonRuntime, leafHint, type FunctionHint, type Hint, type SharedHints } from "./functions.js";

/** Where the shared modules go, below the chunks folder. */
export const SHARED_FOLDER = "types";

/** What a use of a named type is copied with: the shared function of a named type, or a hint written in place (a leaf test, or nothing). */
type NamedTarget = { readonly kind: "type"; readonly typeName: string; readonly container: "object" | "array" } | Exclude<Hint, FunctionHint>;

/** A named type's shared function: its export name (type names are `^[A-Z][A-Za-z0-9]*$`, so no two types' names meet). */
export function sharedCopyName(typeName: string): string {
  return `copy${typeName}`;
}

/**
 * What a use of the named type `name` is copied with, following references
 * from type to type (`defs` holds every named type the chain reaches, by
 * name) until a type with a shape of its own.
 */
function namedTarget(name: string, defs: JsonObject): NamedTarget {
  const seen = new Set<string>();
  for (let current = name; ;) {
    // A chain that goes round without reaching a shape says nothing about it.
    if (seen.has(current) || !Object.hasOwn(defs, current)) return ANY;
    seen.add(current);
    const schema = defs[current];
    if (!isJsonObject(schema)) return ANY;
    const next = defsEntryName(schema["$ref"]);
    if (next !== undefined) {
      current = next;
      continue;
    }
    const container = containerOf(schema);
    if (container === undefined) return leafHint(schema);
    return { kind: "type", typeName: current, container: "properties" in container ? "object" : "array" };
  }
}

/** The named types whose functions some code calls, each with its module. */
export type SharedUses = Map<string, string>;

/**
 * The hints for the named types among `defs` (the entries whose origin is
 * `named`), calling their shared functions: imported from `folder` (the
 * shared modules' folder as the calling file reaches it), or by name when
 * the function is in `ownModule`. Each function called is added to `uses`.
 */
export function sharedHints(defs: JsonObject, origins: Readonly<Record<string, DefOrigin>>, folder: string, uses: SharedUses, ownModule?: string): SharedHints {
  const symbols = new Map<string, string | ImportSymbol>();
  return (def) => {
    if (origins[def]?.kind !== "named") return undefined;
    const target = namedTarget(def, defs);
    if (target.kind !== "type") return target;
    const origin = origins[target.typeName];
    // A chain reaches named types only (a types file cannot refer to a tool's own entries); this is a guard.
    if (origin?.kind !== "named") return ANY;
    let fn = symbols.get(target.typeName);
    if (fn === undefined) {
      const name = sharedCopyName(target.typeName);
      fn = origin.module === ownModule ? name : valueSymbol(name, `${folder}${origin.module}.js`);
      symbols.set(target.typeName, fn);
    }
    uses.set(target.typeName, origin.module);
    return { kind: "fn", fn, container: target.container };
  };
}

/** One named type's functions: its exported one first, then those of the shapes inside it. */
interface SharedFunctions {
  readonly names: readonly string[];
  readonly functions: readonly Code[];
  readonly usesIsArray: boolean;
}

/** The functions of the named type `typeName` in `module`, calling the other named types it uses (added to `uses`). */
function sharedFunctions(
  typeName: string,
  module: string,
  defs: JsonObject,
  origins: Record<string, DefOrigin>,
  runtime: JsonRuntime,
  uses: SharedUses,
): SharedFunctions {
  const exportName = sharedCopyName(typeName);
  const emitter = new CopyEmitter({
    nameOf: (position) => (position === 1 ? exportName : `${exportName}$${position - 1}`),
    defs,
    shared: sharedHints(defs, origins, "./", uses, module),
    runtime,
    exportFirst: true,
  });
  const container = containerOf(defs[typeName] as JsonObject);
  if (container === undefined) throw new Error(`named type ${typeName} has no shape of its own to copy`);
  emitter.containerFunction(container, undefined);
  return { names: emitter.names, functions: emitter.functions, usesIsArray: emitter.usesIsArray };
}

/**
 * `chunks/types/<module>.ts`: for each types file, the functions of its
 * named types that the tools' chunks call (`used`, by type name to module),
 * and of the named types those call in turn, each written once. A tool's
 * chunk imports the ones it calls, so a module loads with the first tool
 * that needs it.
 */
export function emitSharedCopies(ir: ContractIR, used: SharedUses, chunksFolder: string, headerFor: (source: string) => string): EmittedFile[] {
  const defs: JsonObject = {};
  const origins: Record<string, DefOrigin> = {};
  for (const file of ir.typeFiles) {
    for (const type of file.types) {
      defs[type.name] = type.schema;
      origins[type.name] = { kind: "named", name: type.name, module: file.module };
    }
  }
  const runtime = new JsonRuntime("../../");
  const written = new Map<string, SharedFunctions>();
  const pending = [...used.keys()];
  const uses: SharedUses = new Map(used);
  while (pending.length > 0) {
    const typeName = pending.pop()!;
    if (written.has(typeName)) continue;
    const before = uses.size;
    written.set(typeName, sharedFunctions(typeName, uses.get(typeName)!, defs, origins, runtime, uses));
    if (uses.size > before) pending.push(...[...uses.keys()].slice(before));
  }
  return ir.typeFiles.flatMap((file) => {
    const types = [...written.keys()].filter((name) => uses.get(name) === file.module).sort();
    if (types.length === 0) return [];
    const parts = types.map((name) => written.get(name)!);
    const builder = new FileBuilder(`${chunksFolder}/${SHARED_FOLDER}/${file.module}.ts`, headerFor(file.source));
    // Declared before anything is imported, so an import that meets one of these names (a type named Value and the runtime's copyValue) is aliased.
    builder.reserve("isArray", ...parts.flatMap((part) => part.names));
    if (parts.some((part) => part.usesIsArray)) builder.add("const isArray = Array.isArray;");
    builder.add(...parts.flatMap((part) => part.functions));
    return [{ path: builder.path, text: builder.toText() }];
  });
}
