/**
 * index.ts re-exports each tool's module whole (`export type * from`), one
 * short line a tool instead of its four long type names (#42), and the
 * contract constants with `export * from "./contracts.js"`. A tool whose
 * local `$defs` type has a name the index exports otherwise keeps the list of
 * its four types: two `export type *` of one name would be ambiguous (TS2308).
 * The generated folder is type-checked as a consumer imports it.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compile } from "../../generator/pipeline/run.js";
import { projectWith, ROOT } from "../compiler/helpers.js";

const tool = (name: string, input: string, output = "{ type: object }"): string =>
  `name: ${name}\nversion: 1\ndescription: Tool ${name}.\neffect: read\ninput: ${input}\noutput: ${output}\n`;

const project = {
  // Its local input type is `AInputInput`, the name of `a_input`'s input type.
  "a.yaml": tool("a", '{ type: object, properties: { x: { $ref: "#/$defs/Input" } }, $defs: { Input: { type: string } } }'),
  "a_input.yaml": tool("a_input", "{ type: object, properties: { y: { type: number } } }"),
  "b.yaml": tool(
    "b",
    "{ type: object }",
    '{ type: object, properties: { items: { type: array, items: { $ref: "#/$defs/Item" } } }, required: [items], $defs: { Item: { type: object, properties: { id: { type: string } }, required: [id] } } }',
  ),
};

describe("index.ts re-exports", () => {
  it("re-exports each tool's module whole unless a local type's name is taken, and type-checks for a consumer", async () => {
    const compiled = await compile("definitions", "generated", projectWith(project));
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const index = compiled.files!.find((f) => f.path === "index.ts")!.text;
    expect(index).toContain('export type * from "./tools/a_input.js";');
    expect(index).toContain('export type * from "./tools/b.js";');
    expect(index).not.toContain('export type * from "./tools/a.js";');
    expect(index).toMatch(/export type \{\s*AInput,\s*AResolvedInput,\s*AOutput,\s*AReason,?\s*\} from "\.\/tools\/a\.js";/);
    expect(index).toContain('export * from "./contracts.js";');
    expect(index).not.toMatch(/export \{[^}]*aContract/);

    const out = mkdtempSync(join(tmpdir(), "toolc-index-reexports-"));
    for (const file of compiled.files!) {
      mkdirSync(dirname(join(out, file.path)), { recursive: true });
      writeFileSync(join(out, file.path), file.text);
    }
    writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
    symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"));
    // What a consumer names from the index: every tool's types, b's local type, the contracts.
    writeFileSync(
      join(out, "consumer.ts"),
      `import { aContract, aInputContract, bContract, type AInput, type AInputInput, type AInputOutput, type BOutput, type BOutputItem, type BReason } from "./index.js";
export const names: string[] = [aContract.name, aInputContract.name, bContract.name];
export const input: AInput = { x: "text" };
export const other: AInputInput = { y: 1 };
export const item: BOutputItem = { id: "1" };
export const output: BOutput = { items: [item] };
export type Unused = [AInputOutput, BReason];
`,
    );
    const program = ts.createProgram([join(out, "consumer.ts")], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
  }, 120_000);
});
