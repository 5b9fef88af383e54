/**
 * A contract constant leaves out what runtime/contract.ts `toolContract`
 * derives at load: its `annotations` (title and hints from its title, effect,
 * idempotence and `openWorld`) and an empty `sensitive` (#42: 0.26 MB of
 * GitHub's 1,223 contracts). The loaded contract must be the one normalize
 * described, fields and key order included, and tools/list serves it as before.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { emitContractsFiles } from "../../generator/emit/contracts-module.js";
import type { ToolIR } from "../../generator/ir.js";
import { compile } from "../../generator/pipeline/run.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { toolListing } from "../../generator/runtime/server.js";
import { withContractRuntime } from "./contract-runtime.js";
import { projectWith } from "../compiler/helpers.js";

const tool = (name: string, head: string, input = "{ type: object }"): string =>
  `name: ${name}\nversion: 1\ndescription: Tool ${name}.\n${head}\ninput: ${input}\noutput: { type: object }\n`;

const project = {
  "plain_read.yaml": tool("plain_read", "effect: read"),
  "titled_write.yaml": tool("titled_write", "title: Write a thing\neffect: write\nidempotent: true\nopenWorld: true"),
  "secret_delete.yaml": tool(
    "secret_delete",
    "effect: destructive\nopenWorld: false",
    "{ type: object, properties: { token: { type: string, x-sensitive: true } }, required: [token] }",
  ),
};

/** The fields a contract holds, in the order runtime/contract.ts documents them. */
function expectedKeys(ir: ToolIR): string[] {
  return ["name", "version", ...(ir.title === undefined ? [] : ["title"]), "description", "effect", "idempotent", "timeoutMs", "retry", "errors"].concat([
    "inputSchema",
    "outputSchema",
    "annotations",
    "meta",
    "sensitive",
    "validators",
  ]);
}

describe("contract constants without their derived fields", () => {
  it("are written without annotations or empty sensitive paths, and load as the contract normalize described", async () => {
    const compiled = await compile("definitions", "generated", projectWith(project));
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ir = compiled.ir!;
    const [file] = emitContractsFiles(ir);
    expect(file!.text).not.toContain("annotations:");
    expect(file!.text).not.toContain("sensitive: { input: [], output: [] }");
    expect(file!.text.match(/^ {2}openWorld: true,$/gm)).toHaveLength(1);
    expect(file!.text.match(/ = toolContract\(\{$/gm)).toHaveLength(3);

    const out = withContractRuntime(mkdtempSync(join(tmpdir(), "toolc-derived-fields-")));
    writeFileSync(join(out, "contracts.ts"), file!.text);
    const module = (await import(pathToFileURL(join(out, "contracts.ts")).href)) as Record<string, AnyToolContract>;
    const loaded = new Map(Object.values(module).map((c) => [c.name, c]));
    for (const t of ir.tools) {
      const contract = loaded.get(t.name)!;
      expect(Object.keys(contract), t.name).toEqual(expectedKeys(t));
      expect(JSON.stringify(contract.annotations), t.name).toBe(JSON.stringify(t.annotations));
      expect(JSON.stringify(contract.sensitive), t.name).toBe(JSON.stringify(t.sensitive));
      expect(contract.meta, t.name).toEqual(t.meta);
      // tools/list's entry: the annotations served as normalize built them.
      expect(JSON.stringify(toolListing(contract).annotations), t.name).toBe(JSON.stringify({ ...t.annotations }));
    }
    expect(loaded.get("secret_delete")!.sensitive.input).not.toEqual([]);
  });
});
