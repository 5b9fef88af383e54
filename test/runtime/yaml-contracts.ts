/**
 * Runtime contracts compiled from contract YAML by toolc's own load and
 * normalize phases, with validators from toolc's Ajv configuration: what a
 * generated `contracts.ts` holds, without writing a project.
 */
import { expect } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import type { Diagnostic, ToolIR } from "../../generator/ir.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";

const inputAjv = createAjv({ applyDefaults: true });
const outputAjv = createAjv({ applyDefaults: false });

/** The diagnostics toolc gives for `files` (path → YAML text), and the tools it compiled. */
export function compileYaml(files: Record<string, string>): { tools: readonly ToolIR[]; diagnostics: readonly Diagnostic[] } {
  const loaded = loadDefinitionsFromTexts(Object.entries(files).map(([source, text]) => ({ source, display: source, text })));
  const { ir, diagnostics } = normalize(loaded);
  return { tools: ir.tools, diagnostics };
}

export function contractOf(tool: ToolIR): AnyToolContract {
  return {
    name: tool.name,
    version: tool.version,
    effect: tool.effect,
    idempotent: tool.idempotent,
    timeoutMs: tool.timeoutMs,
    retry: tool.retry,
    ...(tool.idempotencyKey === undefined ? {} : { idempotencyKey: tool.idempotencyKey }),
    errors: Object.fromEntries(tool.errors.map((e) => [e.code, e.description])),
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
    meta: tool.meta,
    sensitive: tool.sensitive,
    validators: { validateInput: inputAjv.compile(tool.inputSchema), validateOutput: outputAjv.compile(tool.outputSchema) },
  };
}

/** The contracts of `files`, by tool name; the files must compile without errors. */
export function contractsFromYaml(files: Record<string, string>): Record<string, AnyToolContract> {
  const { tools, diagnostics } = compileYaml(files);
  expect(diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
  return Object.fromEntries(tools.map((tool) => [tool.name, contractOf(tool)]));
}

/** A tool file: `name`, then the YAML body (effect, input, output, …). */
export function toolYaml(name: string, body: string): string {
  return `name: ${name}\nversion: 1\ndescription: A tool.\n${body}`;
}
