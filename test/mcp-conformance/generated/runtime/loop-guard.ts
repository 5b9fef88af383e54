// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The loop guard: the failure table's rule for what a model may do next,
 * kept in code rather than in the prompt. One guard per conversation; every
 * provider's `run`, `execute` and the typed client consult it when given one
 * (`{ guard }` in their options):
 *
 * | failure | may the model try again? | the guard |
 * | --- | --- | --- |
 * | INVALID_INPUT | once, with a named field changed | refuses the same arguments (REJECTED, REPEATED_CALL, the earlier issues attached); a spent budget stops the loop |
 * | INVALID_OUTPUT | no | stops the loop |
 * | RETRYABLE | no, not the same call | refuses the same arguments |
 * | REJECTED | not the same call | refuses the same arguments |
 * | effect unknown on a write | no | stops the loop |
 *
 * A refused call never reaches the handler. A stopped guard refuses every
 * further call (REJECTED, LOOP_STOPPED), so a loop that ignores `guard.stop`
 * still cannot call a write again. The guard keeps the tool, a keyed digest
 * of the arguments (loop-digest.ts) and the outcome, never the arguments;
 * the issues it attaches to a refusal are the ones the model was already
 * sent. Its memory is bounded whatever the conversation's length.
 */
import type { AnyToolContract } from "./contract.js";
import type {
  ToolErrorCode,
  ToolFailure,
  ToolIssue,
  ToolResult,
} from "./envelope.js";
import type {
  GuardEvidence,
  GuardRefusal,
  GuardStop,
  GuardStopReason,
  GuardTraceEvent,
  LoopGuardOptions,
} from "./loop-types.js";
import {
  type Digest,
  type DigestKey,
  digestValue,
  newDigestKey,
  parsePath,
  valueAt,
} from "./loop-digest.js";

export type {
  GuardEvidence,
  GuardRefusal,
  GuardStop,
  GuardStopReason,
  GuardTrace,
  GuardTraceEvent,
  LoopGuardOptions,
} from "./loop-types.js";

type Result = ToolResult<unknown, string>;
type Sink = ((event: GuardTraceEvent) => void) | undefined;

/** Bounds: a conversation of any length keeps at most these. */
export const MAX_EVIDENCE = 32;
const MAX_FAILED_PER_TOOL = 8;
const MAX_ISSUES_KEPT = 20;
const MAX_PATHS_KEPT = 20;
/** Refusals of one tool before the guard stops the loop: the model is not reading the issues. */
const MAX_REFUSALS_PER_TOOL = 2;
/** Distinct unknown tool names before the guard stops the loop. */
const MAX_UNKNOWN_TOOLS = 3;
const MAX_NAME = 128;
const NO_PATHS: readonly string[] = Object.freeze([]);

/** The trace fields of a stop that no call ran for: the guard refused it. */
const REFUSED_CALL = {
  attempt: 0,
  durationMs: 0,
  code: "REJECTED",
  effect: "none",
  issuePaths: [],
} as const satisfies Omit<GuardTraceEvent, "tool" | "version" | "guard">;

/** A call that failed, as the guard keeps it. */
interface Failed {
  readonly digest: Digest;
  readonly code: ToolErrorCode;
  /** INVALID_INPUT: the issues the model was sent, and the digest of each named field's value. */
  readonly issues: readonly ToolIssue[];
  readonly fields: readonly { path: (string | number)[]; digest: Digest }[];
}

interface ToolState {
  failed: Failed[];
  corrections: number;
  refusals: number;
  /** An INVALID_INPUT is open: the next different call is a correction. */
  open: boolean;
}

/** A pending call: what `after` needs from `before`. */
interface Ticket {
  readonly name: string;
  readonly version: number;
  readonly write: boolean;
  readonly correction: boolean;
  readonly started: number;
}

const now = (): number =>
  typeof performance === "object" ? performance.now() : Date.now();

function budget(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? Math.floor(value)
    : fallback;
}

/**
 * One conversation's guard. Create one per conversation with
 * `createLoopGuard()`, hand it to every tool call of that conversation, and
 * read `stop` after each turn: once it is set, end the loop and give its
 * evidence to an operator.
 */
export class LoopGuard {
  /** Set when the loop must stop; never unset. */
  stop: GuardStop | undefined = undefined;
  /** Drawn on the first digest: a conversation with no failure never needs one. */
  private keyOf: DigestKey | undefined = undefined;
  private readonly tools = new Map<string, ToolState>();
  private readonly unknown = new Set<Digest>();
  /** Refusals and the like for calls of tools that do not exist, counted together. */
  private readonly unknownState: ToolState = {
    failed: [],
    corrections: 0,
    refusals: 0,
    open: false,
  };
  private readonly evidence: GuardEvidence[] = [];
  private readonly corrections: number;
  private readonly correctionsByTool: { readonly [tool: string]: number };
  private readonly maxCalls: number;
  private readonly onTrace: Sink;
  private calls = 0;
  /** Evidence entries recorded so far: the ring's write position. */
  private recorded = 0;
  private conversation: Digest | undefined = undefined;

  private key(): DigestKey {
    return (this.keyOf ??= newDigestKey());
  }

  constructor(options: LoopGuardOptions = {}) {
    this.corrections = budget(options.corrections, 1);
    this.correctionsByTool = options.correctionsByTool ?? {};
    this.maxCalls = budget(options.maxCalls, 500);
    this.onTrace =
      typeof options.onTrace === "function" ? options.onTrace : undefined;
  }

  /** True once the loop must stop. */
  get stopped(): boolean {
    return this.stop !== undefined;
  }

  /**
   * Binds the guard to one conversation, by any value that identifies it (an
   * id, the first message). A call bound to another conversation stops the
   * guard (SHARED_GUARD) and is refused: one guard across conversations
   * would carry one conversation's refusals into another. The AI SDK tool
   * set binds it to the conversation's first message itself.
   */
  bind(conversation: unknown): boolean {
    const digest = digestValue(this.key(), conversation);
    if (this.conversation === undefined) this.conversation = digest;
    return this.conversation === digest;
  }

  /**
   * Runs one call under the guard: refused without calling `run` when the
   * table forbids it, else `run`'s result, recorded. Never throws.
   */
  run(
    contract: AnyToolContract | undefined,
    name: string,
    input: unknown,
    sink: Sink,
    run: () => Promise<Result>,
  ): Promise<Result> {
    const admitted = this.before(contract, name, input, sink);
    if ("ok" in admitted) return Promise.resolve(admitted);
    // Not async: an async function would add promise layers to every guarded call; `run` never rejects.
    return run().then((result) => {
      try {
        this.after(admitted, contract, input, result, sink);
      } catch {
        // The guard must not change a result it fails to record.
      }
      return result;
    });
  }

  /** Stops the loop because a call came from another conversation than the one the guard is bound to. */
  refuseShared(
    contract: AnyToolContract | undefined,
    name: string,
    sink: Sink,
  ): Result {
    const version = contract?.version ?? 0;
    const tool = name.slice(0, MAX_NAME);
    this.halt("SHARED_GUARD", tool, version, sink);
    return this.refusal(tool, version, "LOOP_STOPPED", [], sink);
  }

  private before(
    contract: AnyToolContract | undefined,
    name: string,
    input: unknown,
    sink: Sink,
  ): Ticket | ToolFailure<string> {
    const tool = name.length > MAX_NAME ? name.slice(0, MAX_NAME) : name;
    const version = contract?.version ?? 0;
    if (this.stop !== undefined)
      return this.refusal(tool, version, "LOOP_STOPPED", [], sink);
    if (++this.calls > this.maxCalls) {
      this.halt("CALL_LIMIT", tool, version, sink);
      return this.refusal(tool, version, "LOOP_STOPPED", [], sink);
    }
    const ticket = {
      name: tool,
      version,
      write: contract !== undefined && contract.effect !== "read",
      correction: false,
      // The clock is read only when a trace event could carry the duration.
      started: sink === undefined && this.onTrace === undefined ? 0 : now(),
    };
    if (contract === undefined) {
      // Unknown names share one bounded set, so invented names cannot grow the guard.
      if (this.unknown.has(digestValue(this.key(), name)))
        return this.refuseRepeat(tool, version, [], this.unknownState, sink);
      return ticket;
    }
    const state = this.tools.get(contract.name);
    if (state === undefined || state.failed.length === 0) return ticket;
    const digest = digestValue(this.key(), input);
    const same = state.failed.find((f) => f.digest === digest);
    if (same !== undefined)
      return this.refuseRepeat(tool, version, same.issues, state, sink);
    if (!state.open) return ticket;
    const last = state.failed[state.failed.length - 1] as Failed;
    if (!changesNamedField(this.key(), last, input))
      return this.refuseRepeat(tool, version, last.issues, state, sink);
    return { ...ticket, correction: true };
  }

  private after(
    ticket: Ticket,
    contract: AnyToolContract | undefined,
    input: unknown,
    result: Result,
    sink: Sink,
  ): void {
    if (result.ok) {
      // The path of most calls, kept short: a success ends the tool's correction episode; its failed calls stay refused, since they would fail the same way.
      const state =
        contract === undefined ? undefined : this.tools.get(contract.name);
      if (state !== undefined) {
        state.open = false;
        state.corrections = 0;
        state.refusals = 0;
      }
      return;
    }
    const durationMs = ticket.started === 0 ? 0 : now() - ticket.started;
    const { name: tool, version } = ticket;
    const { code, effect, attempts } = result;
    const issuePaths =
      result.issues === undefined
        ? NO_PATHS
        : result.issues.slice(0, MAX_PATHS_KEPT).map((i) => i.path);
    this.remember({ tool, version, code, effect, attempts, issuePaths });
    const stopWith = (reason: GuardStopReason): void =>
      this.halt(reason, tool, version, sink, {
        attempt: attempts,
        durationMs,
        code,
        effect,
        issuePaths: [...issuePaths],
      });
    if (contract === undefined) {
      if (this.unknown.size < MAX_UNKNOWN_TOOLS)
        this.unknown.add(digestValue(this.key(), ticket.name));
      if (this.unknown.size >= MAX_UNKNOWN_TOOLS) stopWith("UNKNOWN_TOOL");
      return;
    }
    if (result.ok) return;
    const state = this.stateOf(contract.name);
    if (result.code === "INVALID_OUTPUT") return stopWith("INVALID_OUTPUT");
    if (ticket.write && result.effect === "unknown")
      return stopWith("UNKNOWN_EFFECT");
    this.keepFailed(state, input, result);
    if (result.code !== "INVALID_INPUT") return;
    if (ticket.correction) state.corrections++;
    state.open = true;
    const allowed = Object.hasOwn(this.correctionsByTool, contract.name)
      ? budget(this.correctionsByTool[contract.name], this.corrections)
      : this.corrections;
    if (ticket.correction && state.corrections >= allowed)
      stopWith("CORRECTIONS_SPENT");
    else if (allowed === 0) stopWith("CORRECTIONS_SPENT");
  }

  private stateOf(tool: string): ToolState {
    let state = this.tools.get(tool);
    if (state === undefined) {
      // Keyed by the contract's name: only declared tools get a state, so the map is as large as the contracts at most.
      state = { failed: [], corrections: 0, refusals: 0, open: false };
      this.tools.set(tool, state);
    }
    return state;
  }

  private keepFailed(
    state: ToolState,
    input: unknown,
    result: ToolFailure<string>,
  ): void {
    const issues = (result.issues ?? []).slice(0, MAX_ISSUES_KEPT);
    const fields: Failed["fields"][number][] = [];
    if (result.code === "INVALID_INPUT")
      for (const issue of issues) {
        const path = parsePath(issue.path);
        if (path !== undefined)
          fields.push({
            path,
            digest: digestValue(this.key(), valueAt(input, path)),
          });
      }
    state.failed.push({
      digest: digestValue(this.key(), input),
      code: result.code,
      issues,
      fields,
    });
    if (state.failed.length > MAX_FAILED_PER_TOOL) state.failed.shift();
  }

  private refuseRepeat(
    tool: string,
    version: number,
    issues: readonly ToolIssue[],
    state: ToolState,
    sink: Sink,
  ): ToolFailure<string> {
    const refused = this.refusal(tool, version, "REPEATED_CALL", issues, sink);
    if (++state.refusals >= MAX_REFUSALS_PER_TOOL)
      this.halt("REPEATED_CALL", tool, version, sink);
    return refused;
  }

  private refusal(
    tool: string,
    version: number,
    reason: GuardRefusal,
    issues: readonly ToolIssue[],
    sink: Sink,
  ): ToolFailure<string> {
    const issuePaths = issues.map((i) => i.path);
    this.remember({
      tool,
      version,
      code: "REJECTED",
      effect: "none",
      attempts: 0,
      issuePaths,
      refused: reason,
    });
    this.emit(sink, {
      tool,
      version,
      attempt: 0,
      durationMs: 0,
      code: "REJECTED",
      effect: "none",
      issuePaths,
      guard: { action: "refused", reason },
    });
    const message =
      reason === "LOOP_STOPPED"
        ? "The tool calls of this conversation were stopped; report what happened to the user instead of calling a tool."
        : issues.length > 0
          ? `This call repeats one that failed; change the fields the issues name (${issuePaths
              .slice(0, 5)
              .map((p) => (p === "" ? "(the input)" : p))
              .join(", ")}) or choose another step.`
          : "This call repeats one that already failed; it would fail the same way. Choose another step or report the reason.";
    const failure: ToolFailure<string> = {
      ok: false,
      code: "REJECTED",
      message,
      reason,
      retryable: false,
      effect: "none",
      tool,
      version,
      attempts: 0,
    };
    if (issues.length > 0)
      failure.issues = issues.map((i) => ({
        path: i.path,
        message: i.message,
      }));
    return failure;
  }

  private halt(
    reason: GuardStopReason,
    tool: string,
    version: number,
    sink: Sink,
    call: Omit<GuardTraceEvent, "tool" | "version" | "guard"> = REFUSED_CALL,
  ): void {
    if (this.stop !== undefined) return;
    this.stop = {
      reason,
      tool,
      version,
      evidence: this.evidenceInOrder().map((e) => ({
        ...e,
        issuePaths: [...e.issuePaths],
      })),
      summary: summaryOf(reason, tool, version, call.attempt),
    };
    this.emit(sink, {
      tool,
      version,
      ...call,
      guard: { action: "stopped", reason },
    });
  }

  /** Keeps the last MAX_EVIDENCE calls: a ring, so a long conversation neither grows it nor shifts it. */
  private remember(entry: GuardEvidence): void {
    if (this.evidence.length < MAX_EVIDENCE) this.evidence.push(entry);
    else this.evidence[this.recorded % MAX_EVIDENCE] = entry;
    this.recorded++;
  }

  /** The evidence, oldest first. */
  private evidenceInOrder(): GuardEvidence[] {
    const kept = this.evidence;
    if (kept.length < MAX_EVIDENCE) return kept.slice();
    const start = this.recorded % MAX_EVIDENCE;
    return [...kept.slice(start), ...kept.slice(0, start)];
  }

  private emit(sink: Sink, event: GuardTraceEvent): void {
    for (const target of sink === this.onTrace
      ? [sink]
      : [sink, this.onTrace]) {
      try {
        target?.({ ...event, issuePaths: [...event.issuePaths] });
      } catch {
        // Tracing is best effort, as in the executor.
      }
    }
  }
}

/** A correction changes the value of at least one field the issues named; an issue with no readable path (the root, a redacted key) counts any change. */
function changesNamedField(
  key: DigestKey,
  last: Failed,
  input: unknown,
): boolean {
  if (last.fields.length < last.issues.length) return true;
  if (last.fields.some((f) => f.path.length === 0)) return true;
  return last.fields.some(
    (f) => digestValue(key, valueAt(input, f.path)) !== f.digest,
  );
}

function summaryOf(
  reason: GuardStopReason,
  tool: string,
  version: number,
  attempts: number,
): string {
  const at = `${tool} (contract version ${version})`;
  switch (reason) {
    case "INVALID_OUTPUT":
      return `${at} returned output its contract does not allow; the loop was stopped so the model does not act on it. Check the handler against the output schema (the trace event's outputIssues name the fields).`;
    case "UNKNOWN_EFFECT":
      return `${at} failed after ${attempts} attempt(s) and may have taken effect; the loop was stopped so it is not called again blindly. Check the write's status before retrying it.`;
    case "CORRECTIONS_SPENT":
      return `${at} was called with invalid input again after its corrections were spent; the loop was stopped. The evidence lists the issue paths of each attempt.`;
    case "REPEATED_CALL":
      return `The model kept repeating a call of ${at} that the guard refused; the loop was stopped.`;
    case "UNKNOWN_TOOL":
      return `The model called ${MAX_UNKNOWN_TOOLS} tools that do not exist (the last: ${at}); the loop was stopped. Check the tools sent to the model.`;
    case "CALL_LIMIT":
      return `The conversation passed the guard's call limit at ${at}; the loop was stopped. A runaway loop, or one guard shared by several conversations (create one per conversation).`;
    case "SHARED_GUARD":
      return `A call of ${at} came from another conversation than the one this guard is bound to; the loop was stopped. Create one guard per conversation.`;
  }
}

/** A guard for one conversation. */
export function createLoopGuard(options?: LoopGuardOptions): LoopGuard {
  return new LoopGuard(options);
}
