/**
 * The whole compiler, load → normalize → emit → write, as one function the
 * CLI and the tests call. Nothing is written unless every phase succeeded.
 */
import { resolve } from "node:path";
import { hasErrors } from "./diagnostics.js";
import { emitAll } from "./emit/index.js";
import type { Diagnostic, EmittedFile } from "./ir.js";
import { loadDefinitions } from "./load/index.js";
import { normalize } from "./normalize/index.js";
import { formatFiles } from "./write/format.js";
import { applyOutput, differences, planOutput, type OutputPlan } from "./write/output.js";

export interface RunOptions {
  readonly definitions: string;
  readonly out: string;
  /** `generate` writes what changed; `check` writes nothing and reports differences. */
  readonly mode: "generate" | "check";
  /** Diagnostics print paths relative to this folder. */
  readonly cwd?: string;
}

export interface RunResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
  readonly plan?: OutputPlan;
  readonly differences: readonly { path: string; status: "missing" | "changed" | "stale" }[];
}

/** Compiles definitions to the formatted files toolc would write, or diagnostics. */
export async function compile(definitions: string, out: string, cwd: string): Promise<{ files?: EmittedFile[]; diagnostics: readonly Diagnostic[]; tools: number }> {
  const loaded = loadDefinitions(resolve(cwd, definitions), { displayRoot: cwd });
  const { ir, diagnostics } = normalize(loaded);
  if (hasErrors(diagnostics)) return { diagnostics, tools: ir.tools.length };
  const files = await formatFiles(emitAll(ir), resolve(cwd, out));
  return { files, diagnostics, tools: ir.tools.length };
}

export async function run(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.out);
  const compiled = await compile(options.definitions, options.out, cwd);
  if (!compiled.files) return { ok: false, diagnostics: compiled.diagnostics, tools: compiled.tools, differences: [] };
  const plan = planOutput(compiled.files, outDir);
  const diff = differences(plan);
  if (options.mode === "generate") applyOutput(plan, outDir);
  return { ok: options.mode === "generate" || diff.length === 0, diagnostics: compiled.diagnostics, tools: compiled.tools, plan, differences: diff };
}
