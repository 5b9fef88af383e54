/**
 * The cold-path bench's synthetic tools (bench/lib/varied.ts) must be what
 * makes the bench honest: every tool with input and output schemas of its
 * own (so sharing identical validators cannot flatter toolc), drawn the same
 * on every run, and the zod server's shapes accepting and refusing the same
 * values as the contract's schema, so both servers do the same work.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sharedAjv } from "../../generator/ajv-shared.js";
import { variedTool } from "../../bench/lib/varied.js";

const TOOLS = 300;
const tools = Array.from({ length: TOOLS }, (_, i) => variedTool(i, 42));

/** The schema as toolc serves it: every object closed (contract-format.md, closed objects). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === "enum" ? value : closed(value);
  if (out.type === "object" && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}

/** The zod object of a raw shape's source, as McpServer builds it (strict here: toolc's root is closed too). */
const zodObject = (source: string): z.ZodType => z.strictObject(new Function("z", `return ${source};`)(z) as z.ZodRawShape);

describe("bench/lib/varied.ts: the cold-path bench's tools", () => {
  it("gives every tool an input and an output schema of its own", () => {
    expect(new Set(tools.map((t) => JSON.stringify(t.input))).size).toBe(TOOLS);
    expect(new Set(tools.map((t) => JSON.stringify(t.output))).size).toBe(TOOLS);
  });

  it("draws the same tools from the same seed, and others from another", () => {
    expect(variedTool(7, 42)).toEqual(tools[7]);
    expect(JSON.stringify(variedTool(7, 43).input)).not.toBe(JSON.stringify(tools[7]?.input));
  });

  it("calls every tool with an input its schema and its zod shape accept, and returns an output both accept", () => {
    const ajv = sharedAjv({ applyDefaults: false });
    for (const tool of tools.slice(0, 100)) {
      expect(ajv.validate(closed(tool.input) as object, structuredClone(tool.arguments)), `${tool.name} input`).toBe(true);
      expect(ajv.validate(closed(tool.output) as object, structuredClone(tool.result)), `${tool.name} output`).toBe(true);
      expect(zodObject(tool.zodInput).safeParse(tool.arguments).success, `${tool.name} zod input`).toBe(true);
      expect(zodObject(tool.zodOutput).safeParse(tool.result).success, `${tool.name} zod output`).toBe(true);
    }
  });

  it("makes the zod shapes refuse what the schema refuses: an unknown field, a missing required one", () => {
    const ajv = sharedAjv({ applyDefaults: false });
    for (const tool of tools.slice(0, 100)) {
      const extra = { ...tool.result, notDeclared: 1 };
      expect(ajv.validate(closed(tool.output) as object, extra)).toBe(false);
      expect(zodObject(tool.zodOutput).safeParse(extra).success).toBe(false);
      const first = (tool.output.required as string[])[0] as string;
      const missing: Record<string, unknown> = { ...tool.result };
      delete missing[first];
      expect(ajv.validate(closed(tool.output) as object, missing)).toBe(false);
      expect(zodObject(tool.zodOutput).safeParse(missing).success).toBe(false);
    }
  });
});
