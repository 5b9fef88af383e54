// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Code mode: the tools as async functions for code a model writes. A
 * function resolves to the tool's output or throws a ToolCallError carrying
 * the failure envelope. Each call goes through a `ToolCaller`, which is the
 * border itself (the executor in process, the typed MCP client to a remote
 * server) or a message across a sandbox's boundary to a host that runs the
 * executor. This module imports no other module's values, so a sandbox can
 * load it alone: the model's code then holds no path to the executor, the
 * handlers or their credentials.
 */
import type {
  ToolEffect,
  ToolErrorCode,
  ToolFailure,
  ToolIssue,
  ToolResult,
} from "./envelope.js";

/** How a code-mode function reaches its tool: by tool name, resolving to the envelope; never rejects. */
export type ToolCaller = (
  tool: string,
  input: unknown,
) => Promise<ToolResult<unknown, string>>;

const ERROR_CODES: readonly string[] = [
  "INVALID_INPUT",
  "INVALID_OUTPUT",
  "RETRYABLE",
  "REJECTED",
  "FAILED",
];
const EFFECTS: readonly string[] = ["none", "applied", "unknown"];

/** The failure a code-mode call threw: the envelope's fields, and the envelope itself. */
export class ToolCallError<Reason extends string = string> extends Error {
  override readonly name = "ToolCallError";
  /** The MCP tool name. */
  readonly tool: string;
  readonly code: ToolErrorCode;
  /** INVALID_INPUT: what to fix, by field path; empty otherwise. */
  readonly issues: readonly ToolIssue[];
  /** REJECTED: one of the contract's declared errors. */
  readonly reason: Reason | undefined;
  /** Decided by the runtime from the contract: whether the same call may be tried again. */
  readonly retryable: boolean;
  /** Did anything change before the failure? */
  readonly effect: ToolEffect;
  readonly failure: ToolFailure<Reason>;

  constructor(failure: ToolFailure<Reason>) {
    super(failure.message);
    this.tool = failure.tool;
    this.code = failure.code;
    this.issues = failure.issues ?? [];
    this.reason = failure.reason;
    this.retryable = failure.retryable;
    this.effect = failure.effect;
    this.failure = failure;
  }
}

/**
 * A failure envelope made of what crossed a boundary as data, or a FAILED
 * one when it is not an envelope: a caller across a sandbox's boundary may
 * hand back anything, and the error a script sees always has every field.
 */
function failureOf(tool: string, value: unknown): ToolFailure<string> {
  const v: Record<string, unknown> =
    typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)
      : {};
  const text = (key: string): string | undefined => {
    const field = v[key];
    return typeof field === "string" ? field : undefined;
  };
  if (!ERROR_CODES.includes(text("code") ?? "")) {
    return {
      ok: false,
      code: "FAILED",
      message: "The call failed unexpectedly.",
      retryable: false,
      effect: "unknown",
      tool,
      version: 0,
      attempts: 0,
    };
  }
  const issues = Array.isArray(v["issues"])
    ? (v["issues"] as unknown[]).flatMap((issue): ToolIssue[] => {
        const i = issue as Record<string, unknown> | null;
        return typeof i?.["path"] === "string" &&
          typeof i["message"] === "string"
          ? [{ path: i["path"], message: i["message"] }]
          : [];
      })
    : undefined;
  const reason = text("reason");
  return {
    ok: false,
    code: text("code") as ToolErrorCode,
    message: text("message") ?? "The call failed.",
    ...(issues === undefined ? {} : { issues }),
    ...(reason === undefined ? {} : { reason }),
    retryable: v["retryable"] === true,
    effect: EFFECTS.includes(text("effect") ?? "")
      ? (text("effect") as ToolEffect)
      : "unknown",
    tool: text("tool") ?? tool,
    version: typeof v["version"] === "number" ? v["version"] : 0,
    attempts: typeof v["attempts"] === "number" ? v["attempts"] : 0,
  };
}

/** A tool's output, or a ToolCallError thrown with its failure envelope. */
async function unwrap(
  tool: string,
  pending: Promise<ToolResult<unknown, string>>,
): Promise<unknown> {
  let result: unknown;
  try {
    result = await pending;
  } catch {
    result = undefined;
  }
  const r = result as { ok?: unknown; data?: unknown } | null | undefined;
  if (typeof r === "object" && r !== null && r.ok === true) return r.data;
  throw new ToolCallError(failureOf(tool, result));
}

/**
 * The code-mode functions: `functions` maps each function's name to its
 * tool's name, and every call goes through `call`. A generated codemode.ts
 * types the table (its `CodeModeApi`).
 */
export function codeModeFunctions(
  functions: Readonly<Record<string, string>>,
  call: ToolCaller,
): Record<string, (input: unknown) => Promise<unknown>> {
  const table: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, tool] of Object.entries(functions)) {
    const fn = (input: unknown): Promise<unknown> =>
      unwrap(
        tool,
        Promise.resolve().then(() => call(tool, input)),
      );
    // defineProperty: a function may be named "__proto__" as a tool may.
    Object.defineProperty(table, name, { value: fn, enumerable: true });
  }
  return table;
}

/** A method of the typed MCP client (runtime/client.ts `ToolClient`), as a caller sees any of them. */
type ClientMethod<O> = (
  input: unknown,
  options?: O,
) => Promise<ToolResult<unknown, string>>;

/**
 * A caller through the typed MCP client: it validates input before it sends
 * and output on receipt, and the remote server's executor is the border.
 * `client` is a `ToolClient` of the same contracts; `options` go with every call.
 */
export function clientCaller<O>(client: object, options?: O): ToolCaller {
  const methods = client as { readonly [tool: string]: ClientMethod<O> };
  return (tool, input) =>
    Object.hasOwn(methods, tool)
      ? methods[tool]!(input, options)
      : Promise.resolve(failureOf(tool, undefined));
}

/**
 * A tool record as `@cloudflare/codemode` takes it in a `ToolProvider`: one
 * `execute` per function, through `call`. Its executor passes only an
 * error's message back into its sandbox, so the message leads with the
 * envelope's code and lists the issues: `INVALID_INPUT: ... (customerId: ...)`.
 */
export function codeModeToolRecord(
  functions: Readonly<Record<string, string>>,
  call: ToolCaller,
): Record<string, { execute(args: unknown): Promise<unknown> }> {
  const api = codeModeFunctions(functions, call);
  const record: Record<string, { execute(args: unknown): Promise<unknown> }> =
    {};
  for (const [name, fn] of Object.entries(api)) {
    const execute = async (args: unknown): Promise<unknown> => {
      try {
        return await fn(args);
      } catch (error) {
        const e = error as ToolCallError;
        const issues = e.issues
          .map((i) => `${i.path === "" ? "(root)" : i.path}: ${i.message}`)
          .join("; ");
        throw new Error(
          `${e.code}${e.reason === undefined ? "" : ` ${e.reason}`}: ${e.message}${issues === "" ? "" : ` (${issues})`}`,
          { cause: error },
        );
      }
    };
    Object.defineProperty(record, name, {
      value: { execute },
      enumerable: true,
    });
  }
  return record;
}
