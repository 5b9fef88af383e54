/**
 * Named types: every entry of a types file's `types:` map, normalized once
 * and shared by every tool that refers to it.
 */
import { Codes, error, hasErrors } from "../diagnostics.js";
import type { Diagnostic, JsonSchema, NamedTypeIR, TypeFileIR } from "../ir.js";
import type { YamlSource } from "../load/index.js";
import { moduleStem } from "./names.js";
import { checkTypeFileHeaders } from "./mcp-headers.js";
import { normalizeSchema, type TypeRegistry } from "./schemas.js";
import { lintSensitive } from "./sensitive.js";
import { isJsonObject } from "../schema/json.js";

export interface NamedTypes {
  readonly registry: TypeRegistry;
  readonly files: readonly TypeFileIR[];
  /** Type name → normalized schema and the named types it refers to directly. */
  readonly byName: ReadonlyMap<
    string,
    { readonly schema: JsonSchema; readonly deps: ReadonlySet<string>; readonly file: YamlSource; readonly hasErrors?: boolean }
  >;
  readonly diagnostics: readonly Diagnostic[];
}

function typesOf(file: YamlSource): Record<string, JsonSchema> {
  return (file.data as { types: Record<string, JsonSchema> }).types;
}

function buildRegistry(files: readonly YamlSource[], diagnostics: Diagnostic[]): Map<string, { file: string; module: string; schema: JsonSchema }> {
  const registry = new Map<string, { file: string; module: string; schema: JsonSchema }>();
  for (const file of files) {
    for (const name of Object.keys(typesOf(file))) {
      const existing = registry.get(name);
      if (existing) {
        diagnostics.push(
          error(
            file.locate(["types", name], { key: true }),
            Codes.duplicateType,
            `type \`${name}\` is already declared in ${existing.file}; type names are shared by all generated code and must be unique`,
          ),
        );
        continue;
      }
      registry.set(name, { file: file.source, module: moduleStem(file.source), schema: typesOf(file)[name]! });
    }
  }
  return registry;
}

/**
 * A named type is compiled as a schema of its own, where Ajv applies no
 * `default` (defaults fill in properties and items, not a whole value) and
 * strict mode refuses one at the root.
 */
function rootDefault(raw: JsonSchema, name: string, file: YamlSource): Diagnostic[] {
  if (!isJsonObject(raw) || !("default" in raw)) return [];
  return [
    error(
      file.locate(["types", name, "default"], { key: true }),
      Codes.invalidDefault,
      `\`default\` on the named type \`${name}\` itself is never applied (a default fills in a property or an item); put it where the type is used: \`{ $ref: ..., default: ... }\``,
    ),
  ];
}

export function normalizeTypeFiles(files: readonly YamlSource[]): NamedTypes {
  const diagnostics: Diagnostic[] = [];
  const registry = buildRegistry(files, diagnostics);
  const byName = new Map<string, { schema: JsonSchema; deps: ReadonlySet<string>; file: YamlSource; hasErrors?: boolean }>();
  const irFiles: TypeFileIR[] = files.map((file) => {
    const types: NamedTypeIR[] = [];
    for (const [name, raw] of Object.entries(typesOf(file))) {
      if (registry.get(name)?.file !== file.source) continue;
      const normalized = normalizeSchema(raw, ["types", name], { file, registry, localDefs: new Set() });
      diagnostics.push(...normalized.diagnostics, ...lintSensitive(raw, ["types", name], file, "type"), ...rootDefault(raw, name, file));
      checkTypeFileHeaders(raw, ["types", name], file, diagnostics);
      // A type normalize already refused is not compiled: Ajv would only restate the problem, less clearly.
      byName.set(name, { schema: normalized.schema, deps: normalized.namedDeps, file, ...(hasErrors(normalized.diagnostics) ? { hasErrors: true } : {}) });
      const description = isJsonObject(raw) && typeof raw.description === "string" ? raw.description : undefined;
      types.push({
        name,
        nameAt: file.locate(["types", name], { key: true }),
        schema: normalized.schema,
        ...(description === undefined ? {} : { description }),
      });
    }
    return { source: file.source, module: moduleStem(file.source), typesAt: file.locate(["types"], { key: true }), types };
  });
  return { registry, files: irFiles, byName, diagnostics };
}

/** Every named type reachable from `roots`, sorted by name for a stable `$defs`. */
export function closureOf(roots: Iterable<string>, types: NamedTypes): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const dep of types.byName.get(name)?.deps ?? []) stack.push(dep);
  }
  return [...seen].sort();
}
