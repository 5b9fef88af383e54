/**
 * contracts.ts writes an error table several tools declare alike once, as a
 * constant named by its text's hash (generator/emit/contracts-module.ts): an
 * API's import gives most operations the same generic entries, 0.56 MB written
 * per tool on GitHub's 1,223 (#42). Each contract's `errors` must still be the
 * table normalize produced, key order included, in one file and in parts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { emitContractsFiles } from "../../generator/emit/contracts-module.js";
import { policyOf } from "../../generator/emit/schemas-json.js";
import type { EmittedFile, ToolIR } from "../../generator/ir.js";
import { compile } from "../../generator/pipeline/run.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { withContractRuntime } from "./contract-runtime.js";
import { projectWith } from "../compiler/helpers.js";

const GENERIC = `errors:
  NOT_FOUND: { description: "The API answered 404: what the call names does not exist (check the ids)." }
  CONFLICT: { description: "The API answered 409: the call conflicts with the current state of what it changes." }
  HTTP_4XX: { description: "The API refused the call with another 4xx status; the message gives the status and the API's words." }
`;
const tool = (name: string, errors: string): string => `name: ${name}
version: 1
description: Tool ${name}.
effect: write
input: { type: object, properties: { id: { type: string } }, required: [id] }
output: { type: object }
${errors}`;

async function compiled() {
  const dir = projectWith({
    "a_tool.yaml": tool("a_tool", GENERIC),
    "b_tool.yaml": tool("b_tool", GENERIC),
    "c_tool.yaml": tool("c_tool", GENERIC),
    "d_tool.yaml": tool("d_tool", "errors:\n  GONE: { description: Gone. }\n"),
    "e_tool.yaml": tool("e_tool", "errors:\n  GONE: { description: Gone. }\n"),
  });
  const result = await compile("definitions", "generated", dir);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return result.ir!;
}

/** Writes the files and imports contracts.ts: each tool's contract by name. */
async function loaded(files: readonly EmittedFile[]): Promise<Map<string, AnyToolContract>> {
  const out = withContractRuntime(mkdtempSync(join(tmpdir(), "toolc-shared-errors-")));
  for (const file of files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.text);
  }
  const module = (await import(pathToFileURL(join(out, "contracts.ts")).href)) as Record<string, AnyToolContract>;
  return new Map(Object.values(module).map((c) => [c.name, c]));
}

function expectTablesAsDeclared(tools: readonly ToolIR[], contracts: Map<string, AnyToolContract>): void {
  expect(contracts.size).toBe(tools.length);
  for (const t of tools) expect(JSON.stringify(contracts.get(t.name)!.errors), t.name).toBe(JSON.stringify(policyOf(t).errors));
}

describe("contracts.ts with an error table several tools declare alike", () => {
  it("writes the table once, named by its hash, and each contract holds it as declared", async () => {
    const ir = await compiled();
    const [file] = emitContractsFiles(ir);
    expect(file!.path).toBe("contracts.ts");
    expect(file!.text.split("what the call names does not exist")).toHaveLength(2);
    expect(file!.text.match(/^const errors_[0-9a-f]{8} = \{$/gm)).toHaveLength(1);
    expect(file!.text.match(/ {2}errors: errors_[0-9a-f]{8},$/gm)).toHaveLength(3);
    // A short table stays where it is read.
    expect(file!.text.match(/errors: \{ GONE: "Gone\." \}/g)).toHaveLength(2);
    expectTablesAsDeclared(ir.tools, await loaded([file!]));
  });

  it("keeps the table's name when another tool's table changes", async () => {
    const ir = await compiled();
    const name = (text: string) => /errors: (errors_[0-9a-f]{8}),/.exec(text)![1];
    const before = name(emitContractsFiles(ir)[0]!.text);
    const edited = { ...ir, tools: ir.tools.map((t) => (t.name === "a_tool" ? { ...t, errors: t.errors.slice(1) } : t)) };
    expect(name(emitContractsFiles(edited)[0]!.text)).toBe(before);
  });

  it("writes the table once in a split module too, exported from a defs part", async () => {
    const ir = await compiled();
    const parts = emitContractsFiles(ir, 1500);
    expect(parts.length).toBeGreaterThan(2);
    const all = parts.map((f) => f.text).join("\n");
    expect(all.split("what the call names does not exist")).toHaveLength(2);
    expect(parts.find((f) => /^contracts\/defs-\d+\.ts$/.test(f.path))!.text).toMatch(/^export const errors_[0-9a-f]{8} = \{$/m);
    expectTablesAsDeclared(ir.tools, await loaded(parts));
  });
});
