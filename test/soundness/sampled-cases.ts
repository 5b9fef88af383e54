/**
 * Part (2) of type soundness: values fast-check generates from each schema,
 * kept only when the real validator accepts them, written as
 * `const v_N: <generated type> = <value>;` lines importing the generated types.
 */
import fc from "fast-check";
import { createAjv } from "../../generator/ajv.js";
import { toolTypeNames } from "../../generator/emit/types.js";
import type { JsonObject, ToolIR } from "../../generator/ir.js";
import { SchemaArbitraries } from "./schema-arbitrary.js";
import { CheckFile, literal } from "./tsc.js";
import { toolFileName } from "../../generator/emit/ts-names.js";

type Validate = (data: unknown) => boolean;

/** One schema to sample: where its TS types live and the validators that decide what is kept. */
export interface Target {
  readonly id: string;
  readonly schema: JsonObject;
  /** Module specifier the check file imports the types from. */
  readonly module: string;
  /** The type "as sent", and the validator for it (it must not apply defaults, or run on a copy). */
  readonly type: string;
  readonly validate: Validate;
  /** For inputs: the type after defaults, and a validator that applies them in place. */
  readonly resolved?: { readonly type: string; readonly validate: Validate };
}

export interface SampleFigures {
  schemas: number;
  generated: number;
  /** Distinct values the validator accepted (each is checked once, twice for inputs). */
  accepted: number;
  checks: number;
}

const inputAjv = createAjv({ applyDefaults: true });
const outputAjv = createAjv({ applyDefaults: false });

/** Input, resolved input and output targets for tools compiled by the pipeline, validated with toolc's Ajv. */
export function toolTargets(tools: readonly ToolIR[], moduleOf: (tool: ToolIR) => string, prefix: string): Target[] {
  return tools.flatMap((tool) => {
    const names = toolTypeNames(tool);
    // Ids become TS identifiers; tool file names may contain `-` or `.`.
    const stem = `${prefix}${toolFileName(tool)}`.replace(/\W/g, "_");
    const module = moduleOf(tool);
    const check = outputAjv.compile(tool.inputSchema);
    const input: Target = {
      id: `${stem}_in`, schema: tool.inputSchema, module, type: names.input, validate: check,
      resolved: { type: names.resolvedInput, validate: inputAjv.compile(tool.inputSchema) },
    };
    const output: Target = { id: `${stem}_out`, schema: tool.outputSchema, module, type: names.output, validate: outputAjv.compile(tool.outputSchema) };
    return [input, output];
  });
}

/** Distinct accepted samples of one target, by their JSON text. */
function acceptedSamples(target: Target, runs: number, seed: number): { generated: number; values: unknown[] } {
  const arb = new SchemaArbitraries(target.schema).root$();
  const seen = new Map<string, unknown>();
  const samples = fc.sample(arb, { numRuns: runs, seed });
  for (const value of samples) {
    if (!target.validate(structuredClone(value))) continue;
    seen.set(JSON.stringify(value), value);
  }
  return { generated: samples.length, values: [...seen.values()] };
}

/**
 * Adds every target's accepted samples to `file`. Imports go at the top, one
 * per target, aliased by id so that two modules' `Input` names cannot clash.
 */
export function sampledChecks(targets: readonly Target[], runs: number, seed = 42): { file: CheckFile; figures: SampleFigures; perTarget: Map<string, number> } {
  const file = new CheckFile();
  const figures: SampleFigures = { schemas: targets.length, generated: 0, accepted: 0, checks: 0 };
  const perTarget = new Map<string, number>();
  for (const t of targets) {
    const types = [`${t.type} as ${t.id}`, ...(t.resolved ? [`${t.resolved.type} as ${t.id}_r`] : [])];
    file.add(`import type { ${types.join(", ")} } from ${JSON.stringify(t.module)};`, `${t.id} (import)`);
  }
  targets.forEach((t, n) => {
    const { generated, values } = acceptedSamples(t, runs, seed + n);
    figures.generated += generated;
    figures.accepted += values.length;
    perTarget.set(t.id, values.length);
    values.forEach((value, i) => {
      const owner = `${t.id} #${i} ${JSON.stringify(value).slice(0, 200)}`;
      file.add(`const ${t.id}_${i}: ${t.id} = ${literal(value)};`, owner);
      figures.checks++;
      if (!t.resolved) return;
      const after = structuredClone(value);
      t.resolved.validate(after);
      file.add(`const ${t.id}_${i}_r: ${t.id}_r = ${literal(after)};`, `${owner} (after defaults)`);
      figures.checks++;
    });
  });
  return { file, figures, perTarget };
}
