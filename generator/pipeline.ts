/**
 * The whole compiler, load → normalize → emit → write, as one function the
 * CLI and the tests call. Nothing is written unless every phase succeeded.
 */
import { relative, resolve, sep } from "node:path";
import { hasErrors } from "./diagnostics.js";
import { emitAll, type EmitOptions } from "./emit/index.js";
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
  /** A module exporting `handlers`; generated contract tests then also run each example through it. */
  readonly handlers?: string;
}

export interface RunResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
  readonly plan?: OutputPlan;
  readonly differences: readonly { path: string; status: "missing" | "changed" | "stale" }[];
}

/** The handlers module as the output folder sees it: a posix path relative to it. */
function emitOptions(out: string, cwd: string, handlers: string | undefined): EmitOptions {
  if (handlers === undefined) return {};
  return { handlersModule: relative(resolve(cwd, out), resolve(cwd, handlers)).split(sep).join("/") };
}

/** Compiles definitions to the formatted files toolc would write, or diagnostics. */
export async function compile(definitions: string, out: string, cwd: string, handlers?: string): Promise<{ files?: EmittedFile[]; diagnostics: readonly Diagnostic[]; tools: number }> {
  const loaded = loadDefinitions(resolve(cwd, definitions), { displayRoot: cwd });
  const { ir, diagnostics } = normalize(loaded);
  if (hasErrors(diagnostics)) return { diagnostics, tools: ir.tools.length };
  const files = await formatFiles(emitAll(ir, emitOptions(out, cwd, handlers)), resolve(cwd, out));
  return { files, diagnostics, tools: ir.tools.length };
}

export async function run(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.out);
  const compiled = await compile(options.definitions, options.out, cwd, options.handlers);
  if (!compiled.files) return { ok: false, diagnostics: compiled.diagnostics, tools: compiled.tools, differences: [] };
  const plan = planOutput(compiled.files, outDir);
  const diff = differences(plan);
  if (options.mode === "generate") applyOutput(plan, outDir);
  return { ok: options.mode === "generate" || diff.length === 0, diagnostics: compiled.diagnostics, tools: compiled.tools, plan, differences: diff };
}
