/**
 * contracts.ts writes a `$defs` entry that several served schemas hold alike
 * once, as a constant they refer to (generator/emit/contracts-module.ts); the
 * schemas a server serves must be exactly what normalize produced.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compile } from "../../generator/pipeline/run.js";
import { withContractRuntime } from "./contract-runtime.js";
import { projectWith } from "../compiler/helpers.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { toolListing } from "../../generator/runtime/server.js";

const TYPES = `types:
  Address:
    type: object
    properties:
      street: { type: string, maxLength: 200, description: "The street and number, as printed on a letter" }
      city: { type: string, maxLength: 100 }
    required: [street, city]
`;
const tool = (name: string, effect: string): string => `name: ${name}
version: 1
description: A tool using the shared address.
effect: ${effect}
input:
  type: object
  properties:
    to: { $ref: "types.yaml#/Address" }
    from: { $ref: "types.yaml#/Address" }
  required: [to]
output:
  type: object
  properties:
    at: { $ref: "types.yaml#/Address" }
  required: [at]
`;

describe("contracts.ts with $defs shared by several tools", () => {
  it("writes the shared entry once and serves every schema unchanged", async () => {
    const dir = projectWith({ "types.yaml": TYPES, "send_letter.yaml": tool("send_letter", "write"), "track_letter.yaml": tool("track_letter", "read") });
    const compiled = await compile("definitions", "generated", dir);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const text = compiled.files!.find((f) => f.path === "contracts.ts")!.text;
    // Four schemas bundle Address (two distinct ones, each served by both tools); its text is written once.
    expect(text.split("The street and number, as printed on a letter")).toHaveLength(2);
    expect(text.match(/Address: def_Address\b/g)).toHaveLength(2);

    const out = withContractRuntime(mkdtempSync(join(tmpdir(), "toolc-shared-defs-")));
    writeFileSync(join(out, "contracts.ts"), text);
    const module = (await import(pathToFileURL(join(out, "contracts.ts")).href)) as Record<
      string,
      { name: string; inputSchema: unknown; outputSchema: unknown }
    >;
    for (const ir of compiled.ir!.tools) {
      const contract = Object.values(module).find((c) => c.name === ir.name)!;
      expect(JSON.stringify(contract.inputSchema)).toBe(JSON.stringify(ir.inputSchema));
      expect(JSON.stringify(contract.outputSchema)).toBe(JSON.stringify(ir.outputSchema));
    }
  });

  it("keeps an entry one schema alone holds in place", async () => {
    const dir = projectWith({
      "types.yaml": TYPES,
      "send_letter.yaml": tool("send_letter", "write")
        .replace(/output:[\s\S]*$/, "output: { type: object }\n")
        .replace('    from: { $ref: "types.yaml#/Address" }\n', ""),
    });
    const compiled = await compile("definitions", "generated", dir);
    const text = compiled.files!.find((f) => f.path === "contracts.ts")!.text;
    expect(text).not.toContain("def_Address");
    expect(text.split("The street and number, as printed on a letter")).toHaveLength(2);
  });
  it("writes a served schema several tools serve alike once, and each tool serves it unchanged over tools/list", async () => {
    const dir = projectWith({ "types.yaml": TYPES, "send_letter.yaml": tool("send_letter", "write"), "track_letter.yaml": tool("track_letter", "read") });
    const compiled = await compile("definitions", "generated", dir);
    const text = compiled.files!.find((f) => f.path === "contracts.ts")!.text;
    // Both tools serve the same input schema and the same output schema: each is one constant both contracts name.
    expect(text.match(/const schema_\w+: JsonSchemaObject = /g)).toHaveLength(2);
    expect(text.match(/inputSchema: schema_SendLetterInput,/g)).toHaveLength(2);
    expect(text.match(/outputSchema: schema_SendLetterOutput,/g)).toHaveLength(2);
    expect(text.match(/Address: def_Address\b/g)).toHaveLength(2);

    const out = withContractRuntime(mkdtempSync(join(tmpdir(), "toolc-shared-schemas-")));
    writeFileSync(join(out, "contracts.ts"), text);
    const module = (await import(pathToFileURL(join(out, "contracts.ts")).href)) as Record<string, AnyToolContract>;
    const listed = Object.values(module).map(toolListing);
    expect(listed).toHaveLength(2);
    for (const ir of compiled.ir!.tools) {
      const served = listed.find((t) => t.name === ir.name)!;
      expect(JSON.stringify(served.inputSchema)).toBe(JSON.stringify(ir.inputSchema));
      expect(JSON.stringify(served.outputSchema)).toBe(JSON.stringify(ir.outputSchema));
    }
  });

  it("keeps a short schema several tools serve in place, where it reads better than a name", async () => {
    const small = (name: string): string =>
      `name: ${name}\nversion: 1\ndescription: A tool.\neffect: read\ninput: { type: object }\noutput: { type: object }\n`;
    const compiled = await compile("definitions", "generated", projectWith({ "a_tool.yaml": small("a_tool"), "b_tool.yaml": small("b_tool") }));
    const text = compiled.files!.find((f) => f.path === "contracts.ts")!.text;
    expect(text).not.toContain("schema_");
    expect(text.match(/inputSchema: \{ type: "object"/g)).toHaveLength(2);
  });
});
