/** Shared fixtures for the type-emitter tests. */
import type { DefOrigin, JsonObject, JsonSchema, ToolIR } from "../../../generator/ir.js";
import { schemaToType, type TypeContext } from "../../../generator/emit/types/index.js";
import { typeText } from "../../../generator/printer/types/render.js";

/** A context whose refs resolve to the key itself (or to `names[key]`). */
export function testContext(options: { resolved?: boolean; names?: Record<string, string> } = {}): TypeContext {
  return {
    resolved: options.resolved ?? false,
    resolveRef: (key) => {
      const name = options.names ? options.names[key] : key;
      if (name === undefined) throw new Error(`unknown def ${key}`);
      return name;
    },
  };
}

/** The type of `schema` as the transforms render it, before layout: objects one member per line, the rest on one line. */
export function typeTextOf(schema: JsonSchema, ctx: TypeContext): string {
  return typeText(schemaToType(schema, ctx));
}

/** A ToolIR with only what the type emitter reads filled in meaningfully. */
export function toolFixture(fields: {
  name: string;
  inputSchema: JsonObject;
  outputSchema: JsonObject;
  inputDefs?: Record<string, DefOrigin>;
  outputDefs?: Record<string, DefOrigin>;
  errors?: { code: string; description: string }[];
}): ToolIR {
  return {
    name: fields.name,
    nameAt: { file: `${fields.name}.yaml`, line: 1, col: 1 },
    version: 1,
    effect: "read",
    idempotent: true,
    openWorld: false,
    timeoutMs: 10_000,
    retry: { attempts: 1, backoffMs: 100, maxBackoffMs: 1000, budgetMs: 10_000 },
    errors: fields.errors ?? [],
    source: `${fields.name}.yaml`,
    inputSchema: fields.inputSchema,
    outputSchema: fields.outputSchema,
    inputDefs: fields.inputDefs ?? {},
    outputDefs: fields.outputDefs ?? {},
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: {},
    examples: [],
    sensitive: { input: [], output: [] },
  };
}
