/**
 * One operation (with its curation) into one contract and the binding its
 * handler acts on. `effect` follows the method (RFC 9110 §9.2: GET, HEAD and
 * OPTIONS are safe; PUT and DELETE idempotent; POST and PATCH neither, since
 * a PATCH may append), unless the operation's `x-toolc-effect` /
 * `x-toolc-idempotent` extensions or the curation say otherwise. A write
 * that is not idempotent is retried only when its handler sends an
 * idempotency key: repeating a write that may have applied must not apply
 * it twice.
 */
import { pointerJoin, type Reporter } from "../problems.js";
import type { HttpBinding } from "./binding.js";
import { credentialWords, withCredentials } from "./credentials.js";
import type { CurationDefaults, Effect, OperationCuration, RetryCuration } from "./curation.js";
import { buildInput, SENDABLE_BODIES } from "./input.js";
import type { Operation, SecurityRequirements, SecurityScheme } from "./model.js";
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
  /** For a write: whether and why it is retried, as the import report lists it. */
  readonly retryDecision?: RetryDecision;
  /** The credentials its handler sends, in words (credentials.ts); absent when the description declares no scheme. */
  readonly credentials?: string;
}

export interface RetryDecision {
  readonly idempotent: boolean;
  /** The input property sent as the idempotency key header, if any. */
  readonly idempotencyKey: string | undefined;
  /** Total attempts (1: never retried). */
  readonly attempts: number;
  readonly why: string;
}

/** The header name an API conventionally reads an idempotency key from (Stripe, the IETF httpapi draft). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

const METHOD_EFFECT: Record<string, { effect: Effect; idempotent: boolean }> = {
  get: { effect: "read", idempotent: true },
  head: { effect: "read", idempotent: true },
  options: { effect: "read", idempotent: true },
  trace: { effect: "read", idempotent: true },
  put: { effect: "write", idempotent: true },
  patch: { effect: "write", idempotent: false },
  post: { effect: "write", idempotent: false },
  delete: { effect: "destructive", idempotent: true },
};

/** What an idempotent tool retries by default: 429 and 503 are transient by definition (RFC 6585 §4, RFC 9110 §15.6.4). */
export const DEFAULT_RETRY: RetryCuration = { attempts: 3 };

export interface ToolInputs {
  readonly op: Operation;
  readonly name: string;
  readonly curation: OperationCuration;
  readonly defaults: CurationDefaults;
  readonly security: SecurityRequirements;
  /** The security schemes (the description's and the curation's), and the prefix of the variables they read. */
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  readonly envPrefix: string;
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

/** The idempotency key header a write that is not idempotent sends: the curation's, else an `Idempotency-Key` header the operation declares. */
function idempotencyHeaderOf(inputs: ToolInputs, idempotent: boolean): string | undefined {
  if (idempotent) return undefined;
  const named = inputs.curation.idempotencyKey ?? inputs.defaults.idempotencyKey;
  if (named !== undefined) return named;
  return inputs.op.parameters.find((p) => p.in === "header" && p.name.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase())?.name;
}

function retryOf(idempotent: boolean, idempotencyKey: string | undefined, inputs: ToolInputs, notes: string[]): { retry: JsonObject | undefined; why: string } {
  const safe = idempotent || idempotencyKey !== undefined;
  const curated = inputs.curation.retry ?? inputs.defaults.retry;
  const chosen = curated ?? (safe ? DEFAULT_RETRY : undefined);
  const because = idempotent ? "the tool is idempotent" : `every attempt sends the same idempotency key (input ${JSON.stringify(idempotencyKey)})`;
  if (chosen === undefined) {
    const why = `not retried: a ${inputs.op.method.toUpperCase()} may have applied when its answer is lost, and the API takes no idempotency key`;
    notes.push(`retry: ${why}`);
    return { retry: undefined, why };
  }
  if (chosen.attempts <= 1) return { retry: undefined, why: "not retried: the curation sets 1 attempt" };
  if (!safe) {
    if (inputs.curation.retry !== undefined)
      inputs.report.error(
        inputs.op.pointer,
        `the curation asks for ${chosen.attempts} attempts, but the tool is not idempotent: set \`idempotent: true\` if repeating it is safe, or \`idempotencyKey\` to the header the API reads a key from`,
      );
    const why = "not retried: the tool is not idempotent and sends no idempotency key (the curation's defaults.retry applies to safe tools only)";
    notes.push(`retry: ${why}`);
    return { retry: undefined, why };
  }
  const why = `${chosen.attempts} attempts, since ${because}${curated === undefined ? " and 429/503 answers are transient" : ""}`;
  if (curated === undefined) notes.push(`retry: ${why}`);
  return { retry: { ...chosen } as JsonObject, why };
}

export interface ContractFields {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly effect: Effect;
  readonly idempotent: boolean;
  readonly idempotencyKey?: string | undefined;
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
    ...(f.idempotencyKey === undefined ? {} : { idempotencyKey: f.idempotencyKey }),
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
  if (op.body === undefined && op.otherBodies.length > 0) {
    // A tool without the body would take no input and every call would fail: one warning, no tool.
    report.warn(
      pointerJoin(op.pointer, "requestBody"),
      `skipped: its request body is ${op.otherBodies.map((m) => JSON.stringify(m)).join(" or ")}, which the handlers cannot send (${SENDABLE_BODIES}); write this tool's contract and handler by hand`,
    );
    return undefined;
  }
  const { effect, idempotent } = effectOf(op, curation, report, notes);
  if (op.deprecated) notes.push("the API marks this operation deprecated");
  const idempotencyHeader = idempotencyHeaderOf(inputs, idempotent);
  const input = buildInput({
    op,
    curation,
    converter,
    conversions,
    report,
    sensitive: inputs.sensitive,
    curationWarning: inputs.curationWarning,
    idempotencyHeader,
  });
  const output = buildOutput(op, converter, conversions, report);
  const { retry, why } = retryOf(idempotent, input.idempotencyKey, inputs, notes);
  const { errors, byStatus } = buildErrors(op, conversions, retry !== undefined);
  if (input.failed || output.failed || report.failed) return undefined;
  const { title, description: text } = describe(op, curation);
  const credentials = credentialWords(inputs.security, inputs.schemes, inputs.envPrefix);
  // Said in the description, which the catalog shows per tool; the import report lists it too.
  const description = withCredentials(text, credentials);
  const timeoutMs = curation.timeoutMs ?? inputs.defaults.timeoutMs;
  const contract = contractOf({
    name,
    title,
    description,
    effect,
    idempotent,
    idempotencyKey: input.idempotencyKey,
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
  const attempts = typeof retry?.attempts === "number" ? retry.attempts : 1;
  const retryDecision: RetryDecision | undefined = effect === "read" ? undefined : { idempotent, idempotencyKey: input.idempotencyKey, attempts, why };
  return {
    name,
    contract,
    notes: [inputs.marker, ...notes],
    binding,
    operation: op,
    ...(retryDecision === undefined ? {} : { retryDecision }),
    ...(credentials === undefined ? {} : { credentials }),
  };
}
