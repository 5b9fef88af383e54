/**
 * One operation (with its curation) into one contract and the binding its
 * handler acts on. `effect` follows the method (RFC 9110 §9.2: GET and HEAD
 * are safe; PUT and, by toolc's reading, PATCH are idempotent writes; POST a
 * write; DELETE destructive), unless the operation's `x-toolc-effect` /
 * `x-toolc-idempotent` extensions or the curation say otherwise.
 */
import { pointerJoin, type Reporter } from "../problems.js";
import type { HttpBinding } from "./binding.js";
import type { Effect, OperationCuration, RetryCuration } from "./curation.js";
import { buildInput } from "./input.js";
import type { Operation, SecurityRequirements } from "./model.js";
import { buildErrors, buildOutput } from "./output.js";
import type { Conversions } from "./report.js";
import type { SchemaConverter } from "./schemas.js";
import type { JsonObject } from "../../ir.js";

export interface OpenApiTool {
  readonly name: string;
  readonly contract: JsonObject;
  readonly notes: readonly string[];
  readonly binding: HttpBinding;
  readonly operation: Operation;
}

const METHOD_EFFECT: Record<string, { effect: Effect; idempotent: boolean }> = {
  get: { effect: "read", idempotent: true },
  head: { effect: "read", idempotent: true },
  options: { effect: "read", idempotent: true },
  trace: { effect: "read", idempotent: true },
  put: { effect: "write", idempotent: true },
  patch: { effect: "write", idempotent: true },
  post: { effect: "write", idempotent: false },
  delete: { effect: "destructive", idempotent: false },
};

/** What an idempotent tool retries by default: 429 and 503 are transient by definition (RFC 6585 §4, RFC 9110 §15.6.4). */
export const DEFAULT_RETRY: RetryCuration = { attempts: 3 };

export interface ToolInputs {
  readonly op: Operation;
  readonly name: string;
  readonly curation: OperationCuration;
  readonly defaults: { readonly timeoutMs?: number; readonly retry?: RetryCuration };
  readonly security: SecurityRequirements;
  /** Lower-case parameter names that a security scheme of this operation names. */
  readonly sensitive: ReadonlySet<string>;
  readonly converter: SchemaConverter;
  readonly conversions: Conversions;
  readonly report: Reporter;
  /** Reports an entry of this operation's curation at its place in the curation file. */
  readonly curationWarning: (path: readonly (string | number)[], message: string) => void;
  /** The marker comment a re-import recognizes its files by. */
  readonly marker: string;
}

function effectOf(op: Operation, curation: OperationCuration, report: Reporter, notes: string[]): { effect: Effect; idempotent: boolean } {
  const byMethod = METHOD_EFFECT[op.method]!;
  let { effect, idempotent } = byMethod;
  let why = `${op.method.toUpperCase()}`;
  const ext = op.extensions["x-toolc-effect"];
  if (ext !== undefined) {
    if (ext === "read" || ext === "write" || ext === "destructive") {
      effect = ext;
      idempotent = ext === "read" || idempotent;
      why = "x-toolc-effect";
    } else report.warn(pointerJoin(op.pointer, "x-toolc-effect"), "must be read, write or destructive; ignored");
  }
  const extIdempotent = op.extensions["x-toolc-idempotent"];
  if (typeof extIdempotent === "boolean") idempotent = extIdempotent;
  if (curation.effect !== undefined) {
    effect = curation.effect;
    why = "the curation";
  }
  if (curation.idempotent !== undefined) idempotent = curation.idempotent;
  notes.push(`effect: ${effect} from ${why}`);
  return { effect, idempotent };
}

function describe(op: Operation, curation: OperationCuration): { title: string | undefined; description: string } {
  const title = curation.title ?? op.summary;
  const text = curation.description ?? op.description ?? op.summary ?? `${op.method.toUpperCase()} ${op.path}`;
  return { title: title === text ? undefined : title, description: text };
}

function retryOf(idempotent: boolean, inputs: ToolInputs, notes: string[]): JsonObject | undefined {
  const chosen = inputs.curation.retry ?? inputs.defaults.retry ?? (idempotent ? DEFAULT_RETRY : undefined);
  if (chosen === undefined || chosen.attempts <= 1) return undefined;
  if (!idempotent) {
    inputs.report.error(
      inputs.op.pointer,
      `the curation asks for ${chosen.attempts} attempts, but the tool is not idempotent: set \`idempotent: true\` if repeating it is safe`,
    );
    return undefined;
  }
  if (inputs.curation.retry === undefined && inputs.defaults.retry === undefined)
    notes.push(`retry: ${chosen.attempts} attempts, since the tool is idempotent and 429/503 answers are transient`);
  return { ...chosen } as JsonObject;
}

export interface ContractFields {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly effect: Effect;
  readonly idempotent: boolean;
  readonly confirm?: boolean | undefined;
  readonly timeoutMs?: number | undefined;
  readonly retry: JsonObject | undefined;
  readonly input: JsonObject;
  readonly output: JsonObject;
  readonly errors: JsonObject;
  readonly content: readonly string[] | undefined;
}

/** A contract in the order its keys are written; defaults (toolc's idempotency for the effect, no errors) are left out. */
export function contractOf(f: ContractFields): JsonObject {
  return {
    name: f.name,
    version: 1,
    ...(f.title === undefined ? {} : { title: f.title }),
    description: f.description,
    effect: f.effect,
    ...(f.idempotent === (f.effect === "read") ? {} : { idempotent: f.idempotent }),
    openWorld: true,
    ...(f.confirm === true ? { confirm: true } : {}),
    ...(f.timeoutMs === undefined ? {} : { timeoutMs: f.timeoutMs }),
    ...(f.retry === undefined ? {} : { retry: f.retry }),
    input: f.input,
    output: f.output,
    ...(Object.keys(f.errors).length === 0 ? {} : { errors: f.errors }),
    ...(f.content === undefined || f.content.length === 0 ? {} : { content: [...f.content] }),
  };
}

/** Where the first `__proto__` key in a value sits (a JSON pointer), if any; iterative, as values may nest deep. */
function protoKeyPath(value: unknown): string | undefined {
  const stack: { value: unknown; at: string }[] = [{ value, at: "" }];
  while (stack.length > 0) {
    const { value: v, at } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    for (const [key, child] of Object.entries(v)) {
      if (key === "__proto__" && !Array.isArray(v)) return `${at}/__proto__`;
      stack.push({ value: child, at: `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}` });
    }
  }
  return undefined;
}

export function buildTool(inputs: ToolInputs): OpenApiTool | undefined {
  const { op, name, curation, converter, conversions, report } = inputs;
  const notes: string[] = [`from ${op.method.toUpperCase()} ${op.path}${op.operationId === undefined ? "" : ` (operationId ${op.operationId})`}`];
  const { effect, idempotent } = effectOf(op, curation, report, notes);
  if (op.deprecated) notes.push("the API marks this operation deprecated");
  const input = buildInput({ op, curation, converter, conversions, report, sensitive: inputs.sensitive, curationWarning: inputs.curationWarning });
  const output = buildOutput(op, converter, conversions, report);
  const { errors, byStatus } = buildErrors(op, conversions);
  const retry = retryOf(idempotent, inputs, notes);
  if (input.failed || output.failed || report.failed) return undefined;
  const { title, description } = describe(op, curation);
  const timeoutMs = curation.timeoutMs ?? inputs.defaults.timeoutMs;
  const contract = contractOf({
    name,
    title,
    description,
    effect,
    idempotent,
    confirm: curation.confirm,
    timeoutMs,
    retry,
    input: input.schema,
    output: output.schema,
    errors,
    content: output.content,
  });
  const proto = protoKeyPath(contract);
  if (proto !== undefined) {
    report.error(
      op.pointer,
      `the contract would hold a \`__proto__\` key (at ${proto}, in an example, default, const or enum value), which toolc generate refuses: JavaScript would take it for the prototype. The operation is left out; remove the key from the description's value`,
    );
    return undefined;
  }
  const binding: HttpBinding = {
    method: op.method.toUpperCase(),
    path: op.path,
    parameters: input.parameters,
    ...(input.body === undefined ? {} : { body: input.body }),
    success: output.success,
    errors: byStatus,
    security: inputs.security.map((alternative) => [...alternative]),
  };
  return { name, contract, notes: [inputs.marker, ...notes], binding, operation: op };
}
