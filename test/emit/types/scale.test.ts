/**
 * 2,000 tool-sized types go through the builder in one batch. No timing
 * assertion (that belongs in bench/); the durations are printed for the record.
 */
import { describe, expect, it } from "vitest";
import { FileBuilder } from "../../../generator/printer/file-builder.js";
import { emitTypeFile, toolTypeStatements } from "../../../generator/emit/types.js";
import type { ContractIR, JsonObject } from "../../../generator/ir.js";
import { toolFixture } from "./helpers.js";

const COUNT = 2000;

/** An object schema about the size of a real tool's input. */
function toolSizedSchema(i: number): JsonObject {
  return {
    type: "object",
    description: `Type number ${i}.`,
    properties: {
      id: { type: "string", minLength: 1, description: "Identifier." },
      count: { type: "integer", default: 10 },
      status: { type: "string", enum: ["pending", "paid", "cancelled"] },
      note: { type: ["string", "null"] },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      when: { type: "string", format: "date-time" },
      meta: { type: "object", additionalProperties: { type: "string" } },
      next: i > 0 ? { $ref: `#/$defs/T${i - 1}` } : { type: "null" },
      filter: {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" }, a: { type: "number" } }, required: ["kind"], additionalProperties: false },
          { type: "object", properties: { kind: { const: "b" }, b: { type: "boolean" } }, required: ["kind"], additionalProperties: false },
        ],
      },
    },
    required: ["id", "status"],
    additionalProperties: false,
  };
}

describe(`${COUNT} types`, () => {
  it("one types file with 2,000 named types prints in one batch", () => {
    const types = Array.from({ length: COUNT }, (_, i) => ({ name: `T${i}`, nameAt: { file: "big.yaml", line: i + 2, col: 3 }, schema: toolSizedSchema(i) }));
    const ir: ContractIR = { tools: [], typeFiles: [{ source: "big.yaml", module: "big", typesAt: { file: "big.yaml", line: 1, col: 1 }, types }] };
    const start = performance.now();
    const file = emitTypeFile(ir.typeFiles[0], ir, "// big");
    const ms = performance.now() - start;
    console.log(`[scale] ${COUNT} named types in one file: ${ms.toFixed(0)} ms, ${(file.text.length / 1e6).toFixed(1)} MB`);
    expect(file.text.match(/^export type T\d+ = /gm)).toHaveLength(COUNT);
  });

  it("2,000 tools, one file each, reusing one in-memory project", () => {
    const start = performance.now();
    let declarations = 0;
    for (let i = 0; i < COUNT; i++) {
      const tool = toolFixture({
        name: `tool_${i}`,
        errors: [{ code: "DENIED", description: "No." }],
        inputSchema: { ...toolSizedSchema(i), $defs: i > 0 ? { [`T${i - 1}`]: true } : {} },
        outputSchema: { ...toolSizedSchema(i), $defs: i > 0 ? { [`T${i - 1}`]: true } : {} },
        inputDefs: i > 0 ? { [`T${i - 1}`]: { kind: "named", name: `T${i - 1}`, module: "big" } } : {},
        outputDefs: i > 0 ? { [`T${i - 1}`]: { kind: "named", name: `T${i - 1}`, module: "big" } } : {},
      });
      const builder = new FileBuilder(`tools/tool_${i}.ts`, "// tool");
      toolTypeStatements(tool, builder);
      declarations += builder.toText().match(/^export type /gm)!.length;
    }
    const ms = performance.now() - start;
    console.log(`[scale] ${COUNT} tool files (${declarations} declarations): ${ms.toFixed(0)} ms`);
    expect(declarations).toBe(COUNT * 4);
  });
});
