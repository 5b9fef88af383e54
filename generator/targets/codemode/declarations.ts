/**
 * The declaration text of the code-mode API: one self-contained `.d.ts`
 * (no imports) that a model reads before it writes code against the tools,
 * and that the code it writes type-checks against. It declares the tools as
 * one global object (`tools` unless the config names it otherwise) with a
 * method per tool, the types those methods take and return in a namespace
 * of the same name (so no contract type can clash with a global of the
 * script's runtime), and `ToolCallError`, what a failed call throws.
 *
 * Each method's input is the contract's input as sent (a property with a
 * default may be omitted) and its output the contract's output, both from
 * the same schema-to-type transforms as the tools' modules; its JSDoc is the
 * tool's description, its declared rejections and its first valid example.
 */
import type { ContractIR, DefOrigin, JsonObject, JsonValue, ToolIR } from "../../ir.js";
import { schemaToType, type TypeContext } from "../../emit/types.js";
import { schemaDocLines } from "../../emit/types/jsdoc.js";
import { moduleStem } from "../../normalize/names.js";
import { localTypeName, pascalCase } from "../../emit/ts-names.js";
import { jsDoc, literal } from "../../printer/literal.js";
import { typeText } from "../../printer/types/render.js";
import { toolTypeName } from "../../emit/ts-names.js";

/** `GetOrder` → `getOrder`: a tool's function name in the code-mode API. */
export function codeModeFunctionName(tool: ToolIR): string {
  return `${toolTypeName(tool)[0]?.toLowerCase() ?? ""}${toolTypeName(tool).slice(1)}`;
}

/** The declaration of what a failed call throws, fields as runtime/codemode.ts sets them. */
const ERROR_CLASS = `/** What a failed tool call throws: the failure envelope's fields. */
declare class ToolCallError extends Error {
  readonly name: "ToolCallError";
  /** The MCP tool name. */
  readonly tool: string;
  readonly code: "INVALID_INPUT" | "INVALID_OUTPUT" | "RETRYABLE" | "REJECTED" | "FAILED";
  /** INVALID_INPUT: the fields to fix; empty otherwise. */
  readonly issues: readonly { readonly path: string; readonly message: string }[];
  /** REJECTED: the tool's declared reason. */
  readonly reason: string | undefined;
  /** Whether the same call may be tried again. */
  readonly retryable: boolean;
  /** Whether anything changed before the failure. */
  readonly effect: "none" | "applied" | "unknown";
}`;

/** Every line after the first moved right by `by`, for a multi-line type inside a member. */
function indentRest(text: string, by: string): string {
  return text.replace(/\n/g, `\n${by}`);
}

/**
 * The declared name of every `$defs` entry: a named type by its own name
 * (qualified by its module when two types files declare it), a tool's local
 * def by the tool's base name and its own, so each is declared once.
 */
function defNames(ir: ContractIR): { named: (origin: DefOrigin & { kind: "named" }) => string; local: (tool: ToolIR, tsName: string) => string } {
  const modules = new Map<string, number>();
  for (const file of ir.typeFiles) for (const t of file.types) modules.set(t.name, (modules.get(t.name) ?? 0) + 1);
  return {
    named: (origin) => ((modules.get(origin.name) ?? 0) > 1 ? `${pascalCase(moduleStem(origin.module))}${origin.name}` : origin.name),
    local: (tool, tsName) => (tsName.startsWith(toolTypeName(tool)) ? tsName : `${toolTypeName(tool)}${tsName}`),
  };
}

function contextOf(tool: ToolIR, defs: Readonly<Record<string, DefOrigin>>, names: ReturnType<typeof defNames>): TypeContext {
  return {
    resolved: false,
    resolveRef: (key) => {
      const origin = defs[key];
      if (origin === undefined) throw new Error(`${tool.name}: no $defs entry ${JSON.stringify(key)}`);
      return origin.kind === "named" ? names.named(origin) : names.local(tool, localTypeName(tool, origin));
    },
  };
}

function withoutDefs(schema: JsonObject): JsonObject {
  const { $defs: _defs, ...rest } = schema;
  return rest;
}

/** The namespace's types: every named type a tool uses (in types-file order), then each tool's local defs. */
function typeDeclarations(ir: ContractIR, names: ReturnType<typeof defNames>): string[] {
  const used = new Set<string>();
  for (const tool of ir.tools)
    for (const origin of [...Object.values(tool.inputDefs), ...Object.values(tool.outputDefs)])
      if (origin.kind === "named") used.add(`${origin.module}\u0000${origin.name}`);
  const out: string[] = [];
  for (const file of ir.typeFiles) {
    for (const named of file.types) {
      if (!used.has(`${file.module}\u0000${named.name}`)) continue;
      const schema = named.schema;
      const ctx: TypeContext = {
        resolved: false,
        resolveRef: (key) => {
          const own = file.types.some((t) => t.name === key);
          const module = own ? file.module : (ir.typeFiles.find((f) => f.types.some((t) => t.name === key))?.module ?? file.module);
          return names.named({ kind: "named", name: key, module });
        },
      };
      const docs =
        named.description !== undefined && typeof schema === "object" ? schemaDocLines({ ...schema, description: named.description }) : schemaDocLines(schema);
      out.push(declaration(names.named({ kind: "named", name: named.name, module: file.module }), typeText(schemaToType(schema, ctx)), docs));
    }
  }
  for (const tool of ir.tools) {
    const done = new Set<string>();
    for (const [schema, defs] of [
      [tool.inputSchema, tool.inputDefs],
      [tool.outputSchema, tool.outputDefs],
    ] as const) {
      const all = (schema.$defs ?? {}) as Record<string, JsonValue>;
      for (const [key, origin] of Object.entries(defs)) {
        if (origin.kind !== "local") continue;
        const tsName = localTypeName(tool, origin);
        if (done.has(tsName)) continue;
        done.add(tsName);
        const def = all[key] as JsonObject | boolean;
        out.push(declaration(names.local(tool, tsName), typeText(schemaToType(def, contextOf(tool, defs, names))), schemaDocLines(def)));
      }
    }
  }
  return out;
}

function declaration(name: string, type: string, docs: readonly string[]): string {
  const doc = jsDoc(docs, "  ");
  const text = `  type ${name} = ${indentRest(type, "  ")};`;
  return doc === undefined ? text : `  ${doc}\n${text}`;
}

/** A literal on one line: `{ customerId: "cus_1" }`. */
function oneLine(text: string): string {
  return text.replace(/,(\n\s*[}\]])/g, "$1").replace(/\n\s*/g, " ");
}

/** A tool's JSDoc: its description, the rejections it declares, and its first valid example as a call. */
function methodDocs(tool: ToolIR, namespace: string): string[] {
  const lines: string[] = [];
  const text = tool.description ?? tool.title;
  if (text !== undefined) lines.push(...text.trim().split("\n"));
  if (tool.confirm === true) lines.push("Asks the user to confirm each call before it runs.");
  for (const e of tool.errors) lines.push(`@throws {ToolCallError} REJECTED, reason ${e.code}: ${e.description}`);
  const example = tool.examples.find((e) => e.invalid === undefined && e.rejected === undefined);
  if (example !== undefined) lines.push(`@example await ${namespace}.${codeModeFunctionName(tool)}(${oneLine(literal(example.input))})`);
  return lines;
}

function method(tool: ToolIR, namespace: string, names: ReturnType<typeof defNames>): string {
  const input = typeText(schemaToType(withoutDefs(tool.inputSchema), contextOf(tool, tool.inputDefs, names)));
  const output = typeText(schemaToType(withoutDefs(tool.outputSchema), contextOf(tool, tool.outputDefs, names)));
  const signature = `  ${codeModeFunctionName(tool)}(input: ${indentRest(input, "  ")}): Promise<${indentRest(output, "  ")}>;`;
  const doc = jsDoc(methodDocs(tool, namespace), "  ");
  return doc === undefined ? signature : `  ${doc}\n${signature}`;
}

/**
 * The declaration text. Type references inside the namespace use the bare
 * names; the methods, outside it, are typed with the namespace's names
 * qualified, so `namespace.Order` names a contract type in a script too.
 */
export function codeModeDeclarations(ir: ContractIR, namespace: string): string {
  const names = defNames(ir);
  const qualified: ReturnType<typeof defNames> = {
    named: (origin) => `${namespace}.${names.named(origin)}`,
    local: (tool, tsName) => `${namespace}.${names.local(tool, tsName)}`,
  };
  const types = typeDeclarations(ir, names);
  const parts = [
    `// The tools as async functions: \`await ${namespace}.<name>(input)\` resolves to the output; a failed call throws ToolCallError.`,
    ERROR_CLASS,
  ];
  if (types.length > 0) parts.push(`declare namespace ${namespace} {\n${types.join("\n")}\n}`);
  parts.push(`declare const ${namespace}: {\n${ir.tools.map((tool) => method(tool, namespace, qualified)).join("\n")}\n};`);
  return `${parts.join("\n")}\n`;
}
