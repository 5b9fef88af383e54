/**
 * Every case a tool's contract tests assert, worked out at generation time
 * from the IR and verified with the real Ajv, so the generated file is plain
 * tables of literals and never re-derives anything at run time.
 */
import type { ExampleIR, JsonValue, ToolIR } from "../../ir.js";
import { SchemaChecker } from "./checker.js";
import { contentCases, type ContentCases } from "./content.js";
import { deriveNegatives, type Negative } from "./derive.js";
import { minimalValue } from "./minimal.js";
import { acceptedTypes, typeMutations } from "./mutations.js";

export interface ValidCase {
  readonly name: string;
  readonly input: JsonValue;
  /** What the handler receives: the input after validation, with defaults applied. */
  readonly resolvedInput: JsonValue;
  /** What the spy handler returns, and so what the caller must get. */
  readonly output: JsonValue;
}

export interface InvalidExampleCase {
  readonly name: string;
  readonly input: JsonValue;
  readonly paths: readonly string[];
}

export interface RejectedExampleCase {
  readonly name: string;
  readonly input: JsonValue;
  /** What the handler receives: the input after validation, with defaults applied. */
  readonly resolvedInput: JsonValue;
  /** The declared error the handler rejects with. */
  readonly reason: string;
}

export interface BadOutputCase {
  readonly name: string;
  readonly output: JsonValue;
}

export interface ContractCases {
  /** Valid examples, each with an output: the example's own, or the base output when it gives none. */
  readonly valid: readonly ValidCase[];
  /** Valid examples without an output when no base output could be made: checked with validateInput only. */
  readonly validInputOnly: readonly { readonly name: string; readonly input: JsonValue }[];
  readonly invalidExamples: readonly InvalidExampleCase[];
  /** Examples the handler turns down (`rejected: CODE`): valid input, REJECTED with that reason. */
  readonly rejectedExamples: readonly RejectedExampleCase[];
  readonly negatives: readonly Negative[];
  readonly badOutputs: readonly BadOutputCase[];
  /** The valid input the negatives mutate and the bad-output cases send; undefined if none could be made. */
  readonly baseInput?: JsonValue;
  /** Whether the base input is the first valid example's (false: synthesized), for the generated comment. */
  readonly baseFromExample: boolean;
  /** Blocks of the declared and undeclared content kinds; only for a tool that declares `content`. */
  readonly content?: ContentCases;
}

const isValidExample = (example: ExampleIR): boolean => example.invalid === undefined && example.rejected === undefined;

/** The first valid example's input, else a synthesized minimal input; undefined if neither validates. */
function baseInput(tool: ToolIR, checker: SchemaChecker): { value: JsonValue; fromExample: boolean } | undefined {
  const example = tool.examples.find(isValidExample);
  if (example !== undefined && checker.valid(example.input)) return { value: example.input, fromExample: true };
  const value = minimalValue(checker, checker.root);
  return value !== undefined && checker.valid(value) ? { value, fromExample: false } : undefined;
}

/** The first example output, else a synthesized minimal output; undefined if neither validates. */
function baseOutput(tool: ToolIR, checker: SchemaChecker): JsonValue | undefined {
  const example = tool.examples.find((e) => isValidExample(e) && e.output !== undefined);
  if (example?.output !== undefined && checker.valid(example.output)) return example.output;
  const value = minimalValue(checker, checker.root);
  return value !== undefined && checker.valid(value) ? value : undefined;
}

/**
 * Outputs a handler might wrongly return: the base output with an undeclared
 * field (the leak the closed schema stops) and with each required field
 * missing. When no base output can be made, a non-object stands in.
 */
function objectBadOutputs(checker: SchemaChecker, base: JsonValue | undefined): BadOutputCase[] {
  const derived =
    base === undefined
      ? []
      : deriveNegatives(checker, base, { kinds: new Set(["extra", "missing"]), nested: false }).map((n) => ({ name: n.name, output: n.input }));
  if (derived.length > 0) return derived;
  return checker.valid("not an object") ? [] : [{ name: "(root): not an object", output: "not an object" }];
}

/**
 * The same for an output whose root is not `type: object` (an array, a
 * scalar, a union; SEP-2106): a value of a type the root does not accept,
 * then the leaks and omissions in the objects the base holds (an array's
 * items, a union's object branch), which sit below the root.
 */
function rootBadOutputs(checker: SchemaChecker, base: JsonValue | undefined): BadOutputCase[] {
  const accepted = acceptedTypes(checker, checker.root);
  const wrongType = (accepted === undefined ? [] : typeMutations(accepted))
    .filter((m) => !checker.valid(m.value))
    .slice(0, 1)
    .map((m) => ({ name: `(root): ${m.label}`, output: m.value }));
  const derived =
    base === undefined ? [] : deriveNegatives(checker, base, { kinds: new Set(["extra", "missing"]) }).map((n) => ({ name: n.name, output: n.input }));
  return [...wrongType, ...derived];
}

function badOutputs(checker: SchemaChecker, base: JsonValue | undefined): BadOutputCase[] {
  return checker.root.type === "object" ? objectBadOutputs(checker, base) : rootBadOutputs(checker, base);
}

export function contractCases(tool: ToolIR): ContractCases {
  const input = new SchemaChecker(tool.inputSchema, true);
  const output = new SchemaChecker(tool.outputSchema, false);
  const outputBase = baseOutput(tool, output);
  const valid: ValidCase[] = [];
  const validInputOnly: { name: string; input: JsonValue }[] = [];
  for (const example of tool.examples.filter(isValidExample)) {
    // Examples were checked at compile time; one that does not validate here would make a lying test.
    if (!input.valid(example.input)) continue;
    const out = example.output !== undefined && output.valid(example.output) ? example.output : outputBase;
    if (out === undefined) validInputOnly.push({ name: example.name, input: example.input });
    else valid.push({ name: example.name, input: example.input, resolvedInput: input.resolved(example.input), output: out });
  }
  const invalidExamples = tool.examples
    .filter((e) => e.invalid !== undefined && !input.valid(e.input))
    .map((e) => ({ name: e.name, input: e.input, paths: e.invalid ?? [] }));
  const rejectedExamples = tool.examples
    .filter((e) => e.rejected !== undefined && input.valid(e.input))
    .map((e) => ({ name: e.name, input: e.input, resolvedInput: input.resolved(e.input), reason: e.rejected ?? "" }));
  const base = baseInput(tool, input);
  const content = contentCases(tool, base?.value, outputBase);
  return {
    valid,
    validInputOnly,
    invalidExamples,
    rejectedExamples,
    negatives: base === undefined ? [] : deriveNegatives(input, base.value),
    // Without a valid input the handler never runs, so there is no way to make it return a bad output.
    badOutputs: base === undefined ? [] : badOutputs(output, outputBase),
    ...(base === undefined ? {} : { baseInput: base.value }),
    baseFromExample: base?.fromExample ?? false,
    ...(content === undefined ? {} : { content }),
  };
}
