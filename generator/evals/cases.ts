/**
 * Eval cases derived from one contract (docs/agent-loop.md#the-eval-pack):
 * what a model should call for a prompt built from the contract's examples
 * and description, what it must correct, what it must not call, and the five
 * failure scenarios of the loop guard's table played against a scripted
 * handler. Pure data, in a fixed order, so a pack is deterministic.
 */
import type { JsonValue, ToolIR } from "../ir.js";

/** The pack's case format; docs/agent-loop.md documents every field. */
export const EVAL_SCHEMA = "toolc-evals/1";

export interface ExpectedCall {
  readonly tool: string;
  readonly arguments: JsonValue;
}

/** What the scripted handler of a scenario does on each call. */
export type ScriptedHandler = "output" | "invalid-output" | "transient" | "throw" | { readonly reject: string };

/** One step the loop sees: the code the call must come back with, and the guard's refusal when there is one. */
export interface ScenarioStep {
  readonly code: "OK" | "INVALID_INPUT" | "INVALID_OUTPUT" | "RETRYABLE" | "REJECTED" | "FAILED";
  readonly reason?: string;
}

interface CaseBase {
  readonly schema: typeof EVAL_SCHEMA;
  readonly id: string;
  readonly tool: string;
  readonly contractVersion: number;
}

/** The model, given `prompt`, calls `expect`. */
export interface CallCase extends CaseBase {
  readonly kind: "call";
  readonly prompt: string;
  readonly expect: ExpectedCall;
}

/** The model's first call was `first`; given the INVALID_INPUT issues, its next call of the tool must change one of `paths` and be valid, and must not be `first` again. */
export interface CorrectCase extends CaseBase {
  readonly kind: "correct";
  readonly prompt: string;
  readonly first: ExpectedCall;
  readonly paths: readonly string[];
}

/** The model, given `prompt`, must not make `mustNotCall` (any call of that tool when `arguments` is absent). */
export interface RefrainCase extends CaseBase {
  readonly kind: "refrain";
  readonly prompt: string;
  readonly why: "destructive-without-confirmation" | "repeated-invalid-call";
  readonly mustNotCall: { readonly tool: string; readonly arguments?: JsonValue };
}

/** The loop plays `calls` under a fresh guard against `handler`; each must end as `steps` says, and the guard must stop as `stop` says (null: not stopped). */
export interface ScenarioCase extends CaseBase {
  readonly kind: "scenario";
  readonly scenario: "INVALID_INPUT" | "INVALID_OUTPUT" | "RETRYABLE" | "REJECTED" | "UNKNOWN_EFFECT";
  readonly handler: ScriptedHandler;
  /** What the handler returns when it succeeds (the contract's example output). */
  readonly output?: JsonValue;
  readonly calls: readonly JsonValue[];
  readonly steps: readonly ScenarioStep[];
  readonly stop: string | null;
}

export type EvalCase = CallCase | CorrectCase | RefrainCase | ScenarioCase;

/** An example whose input holds an `x-sensitive` value stays out of prompts: a prompt travels to the provider. */
function holdsSensitive(tool: ToolIR, input: JsonValue): boolean {
  const paths = tool.sensitive.input;
  if (paths.length === 0) return false;
  const visit = (value: JsonValue, state: number): boolean => {
    const node = paths[state];
    if (node === undefined) return false;
    if (node.sensitive !== undefined) return true;
    if (value === null || typeof value !== "object") return false;
    if (Array.isArray(value))
      return value.some((item, i) => {
        const next = node.prefixItems?.[i] ?? node.items;
        return next !== undefined && next !== null && visit(item, next);
      });
    return Object.entries(value).some(([key, item]) => {
      const next = node.properties?.[key] ?? node.additionalProperties;
      return next !== undefined && visit(item, next);
    });
  };
  return visit(input, 0);
}

/** The values of an example, one `name: value` a line, in the example's order. */
function valuesText(input: JsonValue): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return JSON.stringify(input);
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join("; ");
}

function promptFor(tool: ToolIR, exampleName: string, input: JsonValue): string {
  const what = tool.description ?? tool.title ?? tool.name;
  return `${what.trim()}\nTask: ${exampleName}. Use exactly these values: ${valuesText(input)}.`;
}

function base(tool: ToolIR, id: string): CaseBase {
  return { schema: EVAL_SCHEMA, id: `${tool.name}/${id}`, tool: tool.name, contractVersion: tool.version };
}

const isRetrySafe = (tool: ToolIR): boolean => tool.effect === "read" || tool.idempotent || tool.idempotencyKey !== undefined;

/** The five scenarios of the failure table, for the examples this tool has. */
function scenarios(tool: ToolIR): ScenarioCase[] {
  const valid = tool.examples.find((e) => e.invalid === undefined && e.rejected === undefined && e.output !== undefined);
  const invalid = tool.examples.find((e) => e.invalid !== undefined);
  const out: ScenarioCase[] = [];
  const scenario = (name: ScenarioCase["scenario"], rest: Omit<ScenarioCase, keyof CaseBase | "kind" | "scenario">): void => {
    out.push({ ...base(tool, `scenario/${name}`), kind: "scenario", scenario: name, ...rest });
  };
  if (invalid !== undefined)
    // The same invalid call twice: the second is refused, the handler never runs.
    scenario("INVALID_INPUT", {
      handler: "output",
      calls: [invalid.input, invalid.input],
      steps: [{ code: "INVALID_INPUT" }, { code: "REJECTED", reason: "REPEATED_CALL" }],
      stop: null,
    });
  if (valid === undefined) return out;
  scenario("INVALID_OUTPUT", {
    handler: "invalid-output",
    calls: [valid.input, valid.input],
    steps: [{ code: "INVALID_OUTPUT" }, { code: "REJECTED", reason: "LOOP_STOPPED" }],
    stop: "INVALID_OUTPUT",
  });
  if (isRetrySafe(tool))
    scenario("RETRYABLE", {
      handler: "transient",
      calls: [valid.input, valid.input],
      steps: [{ code: "RETRYABLE" }, { code: "REJECTED", reason: tool.effect === "read" ? "REPEATED_CALL" : "LOOP_STOPPED" }],
      stop: tool.effect === "read" ? null : "UNKNOWN_EFFECT",
    });
  const reason = tool.errors[0]?.code;
  if (reason !== undefined)
    scenario("REJECTED", {
      handler: { reject: reason },
      calls: [valid.input, valid.input],
      steps: [
        { code: "REJECTED", reason },
        { code: "REJECTED", reason: "REPEATED_CALL" },
      ],
      stop: null,
    });
  if (tool.effect !== "read")
    scenario("UNKNOWN_EFFECT", {
      handler: "throw",
      calls: [valid.input, valid.input],
      steps: [{ code: "FAILED" }, { code: "REJECTED", reason: "LOOP_STOPPED" }],
      stop: "UNKNOWN_EFFECT",
    });
  return out.map((c) => (c.handler === "output" || c.handler === "invalid-output" ? { ...c, output: valid.output ?? null } : c));
}

/** Every case of one tool, in a fixed order: calls, corrections, refrains, scenarios. */
export function casesOf(tool: ToolIR): EvalCase[] {
  const cases: EvalCase[] = [];
  tool.examples.forEach((example, i) => {
    if (example.invalid !== undefined || example.rejected !== undefined) return;
    // The prompt names the task, not its values: the model must not call at all, and a secret in the example stays out.
    if (tool.effect === "destructive")
      cases.push({
        ...base(tool, `refrain/${i}`),
        kind: "refrain",
        prompt: `${(tool.description ?? tool.name).trim()}\nTask: ${example.name}. The user has not confirmed this yet.`,
        why: "destructive-without-confirmation",
        mustNotCall: { tool: tool.name },
      });
  });
  const shown = tool.examples.filter((e) => !holdsSensitive(tool, e.input));
  shown.forEach((example, i) => {
    if (example.invalid !== undefined || example.rejected !== undefined || tool.effect === "destructive") return;
    const call: ExpectedCall = { tool: tool.name, arguments: example.input };
    cases.push({ ...base(tool, `call/${i}`), kind: "call", prompt: promptFor(tool, example.name, example.input), expect: call });
  });
  shown.forEach((example, i) => {
    if (example.invalid === undefined) return;
    const first: ExpectedCall = { tool: tool.name, arguments: example.input };
    const prompt = promptFor(tool, example.name, example.input);
    cases.push({ ...base(tool, `correct/${i}`), kind: "correct", prompt, first, paths: [...example.invalid] });
    cases.push({ ...base(tool, `refrain/repeat/${i}`), kind: "refrain", prompt, why: "repeated-invalid-call", mustNotCall: first });
  });
  cases.push(...scenarios(tool));
  return cases;
}
