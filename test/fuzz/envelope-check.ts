/**
 * What a well-formed failure envelope is, written from DESIGN.md's envelope
 * type and policy table rather than from the runtime's code, so the two can
 * disagree. Returns the problems found (empty when well-formed).
 */
const CODES = ["INVALID_INPUT", "INVALID_OUTPUT", "RETRYABLE", "REJECTED", "FAILED"];
const EFFECTS = ["none", "applied", "unknown"];
/** Messages go to a model: the runtime truncates to 500 characters; allow the fixed text around it. */
const MAX_MESSAGE = 800;
const KEYS = ["ok", "code", "message", "issues", "reason", "retryable", "effect", "tool", "version", "attempts"];

export interface ContractFacts {
  name: string;
  version: number;
  effect: "read" | "write" | "destructive";
  idempotent: boolean;
  idempotencyKey?: string;
  retry: { attempts: number };
  errors: Record<string, string>;
}

const retrySafe = (c: ContractFacts) => c.effect === "read" || c.idempotent || c.idempotencyKey !== undefined;

function issueProblems(issues: unknown): string[] {
  if (!Array.isArray(issues) || issues.length === 0) return ["INVALID_INPUT without a non-empty issues array"];
  return issues.flatMap((i, n) =>
    i !== null && typeof i === "object" && typeof i.path === "string" && typeof i.message === "string" && Object.keys(i).length === 2
      ? []
      : [`issues[${n}] is not {path, message}`],
  );
}

/** Policy-table rules, by code: retryable, effect and attempts. */
function policyProblems(e: Record<string, unknown>, c: ContractFacts, handlerCalls: number): string[] {
  const out: string[] = [];
  const attempts = e.attempts as number;
  if (e.retryable !== (e.code === "RETRYABLE")) out.push(`retryable ${String(e.retryable)} with code ${String(e.code)}`);
  if (e.code === "RETRYABLE" && !retrySafe(c)) out.push("RETRYABLE on a tool that is not safe to retry");
  if (c.effect === "read" && e.effect !== "none") out.push(`a read tool reported effect ${String(e.effect)}`);
  if ((e.code === "INVALID_INPUT" || e.code === "REJECTED") && e.effect !== "none") out.push(`${String(e.code)} with effect ${String(e.effect)}`);
  if (e.code === "INVALID_INPUT" && (attempts !== 0 || handlerCalls !== 0)) out.push("INVALID_INPUT after the handler ran");
  if (e.code === "REJECTED" && !Object.hasOwn(c.errors, e.reason as string)) out.push(`REJECTED with undeclared reason ${String(e.reason)}`);
  if (e.code !== "REJECTED" && "reason" in e) out.push("reason on a non-REJECTED failure");
  if (e.code !== "INVALID_INPUT" && "issues" in e) out.push("issues on a non-INVALID_INPUT failure (output issues belong to the trace)");
  const limit = retrySafe(c) ? Math.max(1, c.retry.attempts) : 1;
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > limit) out.push(`attempts ${attempts} outside 0..${limit}`);
  if (attempts !== handlerCalls) out.push(`attempts ${attempts} but the handler ran ${handlerCalls} times`);
  return out;
}

export function envelopeProblems(result: unknown, c: ContractFacts, handlerCalls: number): string[] {
  if (result === null || typeof result !== "object") return ["result is not an object"];
  const e = result as Record<string, unknown>;
  if (e.ok === true) return Object.keys(e).join() === "ok,data" ? [] : ["success with extra keys"];
  const out: string[] = [];
  if (e.ok !== false) out.push("ok is neither true nor false");
  if (!CODES.includes(e.code as string)) out.push(`unknown code ${String(e.code)}`);
  if (typeof e.message !== "string" || e.message.length === 0 || e.message.length > MAX_MESSAGE) out.push("message missing or too long");
  if (typeof e.retryable !== "boolean") out.push("retryable is not a boolean");
  if (!EFFECTS.includes(e.effect as string)) out.push(`unknown effect ${String(e.effect)}`);
  if (e.tool !== c.name || e.version !== c.version) out.push("tool/version do not name the contract");
  for (const k of Object.keys(e)) if (!KEYS.includes(k)) out.push(`unexpected key ${k}`);
  if (e.code === "INVALID_INPUT") out.push(...issueProblems(e.issues));
  return [...out, ...policyProblems(e, c, handlerCalls)];
}
