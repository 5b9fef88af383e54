/**
 * contracts.ts past its size budget is split into parts under
 * `contracts/` (generator/emit/contracts-module.ts `emitContractsFiles`), so
 * no generated file of a large API is past what a review tool opens (#42).
 * Pinned on a small project with a small budget, which splits the same way a
 * 1,223-tool API does at the real one: every part is under the budget, the
 * shared `$defs` are still written once, and the contracts the split module
 * exports serve exactly the schemas normalize produced.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTRACTS_PART_BYTES, emitContractsFiles, emitContractsModule } from "../../generator/emit/contracts-module.js";
import { compile } from "../../generator/pipeline/run.js";
import { withContractRuntime } from "./contract-runtime.js";
import { projectWith } from "../compiler/helpers.js";

const TYPES = `types:
  Address:
    type: object
    properties:
      street: { type: string, maxLength: 200, description: "The street and number, as printed on a letter" }
      city: { type: string, maxLength: 100 }
    required: [street, city]
  Parcel:
    type: object
    properties:
      weightGrams: { type: integer, minimum: 1, description: "What the parcel weighs, packed" }
      to: { $ref: "types.yaml#/Address" }
    required: [weightGrams, to]
`;
const tool = (name: string, type: string): string => `name: ${name}
version: 1
description: Tool ${name}, which takes a ${type}.
effect: read
input:
  type: object
  properties:
    what: { $ref: "types.yaml#/${type}" }
  required: [what]
output: { type: object, properties: { ok: { type: boolean } }, required: [ok] }
`;

describe("contracts.ts past its size budget", () => {
  it("splits into parts under the budget that export the same contracts, with shared $defs written once", async () => {
    const files: Record<string, string> = { "types.yaml": TYPES };
    for (let i = 0; i < 12; i++) files[`tool_${i}.yaml`] = tool(`tool_${i}`, i % 2 === 0 ? "Address" : "Parcel");
    const compiled = await compile("definitions", "generated", projectWith(files));
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ir = compiled.ir!;
    // Under the real budget this project is one file, as it was before the split existed.
    expect(emitContractsFiles(ir).map((f) => f.path)).toEqual(["contracts.ts"]);
    expect(emitContractsModule(ir).text.length).toBeLessThan(CONTRACTS_PART_BYTES);

    const budget = 3000;
    const parts = emitContractsFiles(ir, budget);
    const paths = parts.map((f) => f.path);
    expect(paths[0]).toBe("contracts.ts");
    expect(paths.filter((p) => /^contracts\/tools-\d+\.ts$/.test(p)).length).toBeGreaterThan(2);
    expect(paths.filter((p) => /^contracts\/defs-\d+\.ts$/.test(p)).length).toBeGreaterThan(0);
    for (const part of parts) expect(part.text.length, part.path).toBeLessThanOrEqual(budget);
    const all = parts.map((f) => f.text).join("\n");
    expect(all.split("The street and number, as printed on a letter")).toHaveLength(2);
    expect(all.split("What the parcel weighs, packed")).toHaveLength(2);

    const out = withContractRuntime(mkdtempSync(join(tmpdir(), "toolc-contract-parts-")));
    for (const part of parts) {
      mkdirSync(dirname(join(out, part.path)), { recursive: true });
      writeFileSync(join(out, part.path), part.text);
    }
    const module = (await import(pathToFileURL(join(out, "contracts.ts")).href)) as Record<
      string,
      { name: string; inputSchema: unknown; outputSchema: unknown }
    >;
    expect(Object.keys(module)).toHaveLength(ir.tools.length);
    for (const t of ir.tools) {
      const contract = Object.values(module).find((c) => c.name === t.name)!;
      expect(JSON.stringify(contract.inputSchema), t.name).toBe(JSON.stringify(t.inputSchema));
      expect(JSON.stringify(contract.outputSchema), t.name).toBe(JSON.stringify(t.outputSchema));
    }
  });
});
