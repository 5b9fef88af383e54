// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The MCP server: a low-level SDK `Server` that lists each served tool with
 * its contract's exact schemas and routes tools/call through the executor.
 * The low-level Server is used because it takes raw JSON Schema as is.
 * The SDK itself is reached through the port (sdk.ts), one per SDK line.
 */
import {
  newToolServer,
  onCallTool,
  onListTools,
  onSetLoggingLevel,
  projectCallResult,
  projectToolList,
  unknownToolError,
  type CallContext,
  type CallToolResult,
  type Server,
  type Tool,
  type ToolCallAnswer,
} from "./sdk.js";
import type { AnyToolContract, ContractMap } from "./contract.js";
import type { ToolResult } from "./envelope.js";
import { executeTool } from "./executor.js";
import type { AnyHandler } from "./attempt.js";
import { LogLevels, routeNotifications } from "./call-notifier.js";
import {
  approvalsFor,
  confirmCall,
  ConfigurationError,
  type Approvals,
  type ConfirmOptions,
} from "./confirm.js";
import { serverLogLevel, type LogLevelSetting } from "./notify.js";
import { failure } from "./policy.js";
import { rateStoreProblem } from "./rate-count.js";
import type { CacheHint } from "./sdk-port.js";
import type { SharedStore } from "./store.js";
import type {
  CallerIdentity,
  ExecuteOptions,
  HandlersFor,
  TraceEvent,
} from "./types.js";
import { loadValidators } from "./validators.js";

export type { CacheHint, ConfirmOptions };

/** Where a failure envelope travels in a tools/call result's `_meta`. */
export const FAILURE_META_KEY = "toolc/failure";

/** The server routes ctx.progress and ctx.log to the client itself, and sets each call's caller and approval, so those are not options. */
export interface ServerOptions extends Omit<
  ExecuteOptions,
  "onProgress" | "onLog" | "caller" | "confirm"
> {
  /**
   * The server's name, sent as `serverInfo` (the initialize result, and every
   * 2026-07-28 result's `_meta`). Defaults to the `name` in the project's
   * package.json when the code was generated.
   */
  name?: string;
  /** The server's version, sent beside its name; defaults to the package.json `version` when the code was generated. */
  version?: string;
  /** Instructions for the model, sent in the initialize and server/discover results. */
  instructions?: string;
  /**
   * What a 2025-era client that never sent `logging/setLevel` gets from
   * `ctx.log`: messages at this level and above. Default `"off"`: none, as
   * for every request that did not ask. A 2026-07-28 request is never
   * affected: it gets log messages only at the level in its own `_meta`
   * (see docs/runtime.md).
   */
  logLevel?: LogLevelSetting;
  /**
   * `ttlMs` and `cacheScope` for the 2026-07-28 `tools/list` and
   * `server/discover` results. Defaults to the config file's `mcp.cache`;
   * without either, the SDK's `ttlMs: 0` and `cacheScope: "private"`.
   */
  cache?: CacheHint;
  /** Confirmed tools (`confirm: true`): the key that signs approvals, how long they last, and what remembers used ones. */
  confirm?: ConfirmOptions;
  /**
   * What every instance of this server shares (runtime/store.ts): used
   * approvals, and rate-limit counters. Unset: a store in this process,
   * which serves stdio and a single instance. Behind a load balancer, the
   * same `redisStore` on every instance; `confirm.secret` is then required.
   */
  store?: SharedStore;
  /**
   * How many instances serve this endpoint behind a load balancer. More
   * than 1 without a shared `store` and `confirm.secret` is a start-up
   * error (docs/scaling.md). Default 1.
   */
  instances?: number;
  /**
   * What tools/list shows a verified caller (Streamable HTTP with auth on):
   * `allowed`, the default, only the tools its token's scopes allow; `all`,
   * every tool. A call outside the caller's scopes is refused either way.
   */
  listing?: "allowed" | "all";
}

/** What the generated code fills in when the options leave them out: read from the project when it was generated. */
export interface ServerDefaults {
  name?: string;
  version?: string;
  cache?: CacheHint;
}

interface Served {
  contract: AnyToolContract;
  handler: AnyHandler;
}

/** Tools that have a handler, by MCP name, in contract order: the generated contracts are sorted by name, so every tools/list has one order. */
function servedTools(
  contracts: ContractMap,
  handlers: { readonly [key: string]: unknown },
): Map<string, Served> {
  const served = new Map<string, Served>();
  for (const [key, contract] of Object.entries(contracts)) {
    const handler = Object.hasOwn(handlers, key) ? handlers[key] : undefined;
    if (typeof handler !== "function") continue;
    served.set(contract.name, { contract, handler: handler as AnyHandler });
  }
  return served;
}

/**
 * The tools/list entry: the contract's own objects, untouched, so the served
 * schema is the compiled one. An output schema of any root is listed as it
 * is; the SDK port serves a non-object one wrapped to a 2025-era client
 * (`projectToolList`, runtime/legacy-output.ts).
 */
export function toolListing(contract: AnyToolContract): Tool {
  return {
    name: contract.name,
    ...(contract.title === undefined ? {} : { title: contract.title }),
    ...(contract.description === undefined
      ? {}
      : { description: contract.description }),
    ...(contract.icons === undefined
      ? {}
      : { icons: contract.icons as NonNullable<Tool["icons"]> }),
    inputSchema: contract.inputSchema as Tool["inputSchema"],
    outputSchema: contract.outputSchema as NonNullable<Tool["outputSchema"]>,
    annotations: contract.annotations,
    _meta: contract.meta,
  };
}

/**
 * A call's result as the MCP tool result toolc's server sends. Success: the
 * output as structuredContent, whatever JSON value it is, plus its JSON as
 * text; the server then puts it in the form the client's protocol generation
 * carries (`projectCallResult`). Failure: the envelope as text and in _meta,
 * never in structuredContent (SDK clients validate that against outputSchema
 * even when isError is set). Exported for servers that register the
 * contracts' tools on an `McpServer` of their own.
 */
export function toCallResult(
  result: ToolResult<unknown, string>,
): CallToolResult {
  if (result.ok) {
    const text: CallToolResult["content"][number] = {
      type: "text",
      text: JSON.stringify(result.data),
    };
    // Attached blocks follow the output's text block; they were checked against MCP's shapes when the handler returned.
    const content =
      result.content === undefined
        ? [text]
        : [text, ...(result.content as CallToolResult["content"])];
    return {
      content,
      structuredContent: result.data as CallToolResult["structuredContent"],
    };
  }
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(result) }],
    _meta: { [FAILURE_META_KEY]: result },
  };
}

/** Aborts when any input aborts; `dispose` detaches from long-lived signals (a server-wide one). */
function anySignal(signals: (AbortSignal | undefined)[]): {
  signal: AbortSignal | undefined;
  dispose: () => void;
} {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return { signal: present[0], dispose: () => {} };
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    detach.push(() => signal.removeEventListener("abort", onAbort));
  }
  return {
    signal: controller.signal,
    dispose: () => detach.forEach((d) => d()),
  };
}

/** Whether a caller's scopes (implied ones already included) cover everything the tool needs. */
function scopesAllow(
  contract: AnyToolContract,
  granted: readonly string[],
): boolean {
  return (contract.scopes ?? []).every((scope) => granted.includes(scope));
}

/**
 * Why a verified caller may not call a tool, in the words of the HTTP gate's
 * 403 (every scope the call needs); undefined when it may, or when no caller
 * was verified (stdio, or no auth).
 */
function scopeRefusal(
  contract: AnyToolContract,
  auth: CallerIdentity | undefined,
): string | undefined {
  if (auth === undefined || scopesAllow(contract, auth.scopes))
    return undefined;
  return `Calling ${contract.name} needs the scopes ${(contract.scopes ?? []).join(" ")}.`;
}

/** The tools a tools/list shows: every served one, or for a verified caller, unless `listing` is `all`, those its scopes allow. */
function listedTools(
  served: Map<string, Served>,
  auth: CallerIdentity | undefined,
  listing: ServerOptions["listing"],
): AnyToolContract[] {
  const contracts = [...served.values()].map((s) => s.contract);
  if (auth === undefined || listing === "all") return contracts;
  return contracts.filter((contract) => scopesAllow(contract, auth.scopes));
}

/** Every trace event of a served call names the protocol generation (and revision) the request came in on. */
function tracedWithProtocol(
  onTrace: ExecuteOptions["onTrace"],
  protocol: CallContext["protocol"],
): ExecuteOptions["onTrace"] {
  if (onTrace === undefined) return undefined;
  return (event) => {
    const traced: TraceEvent = { ...event, protocolEra: protocol.era };
    if (protocol.version !== undefined)
      traced.protocolVersion = protocol.version;
    onTrace(traced);
  };
}

/**
 * A confirmed tool's gate, before the executor: input the schema rejects
 * goes straight on (the executor answers INVALID_INPUT and runs nothing, so
 * no one is asked to approve a call that cannot run, and undefined says
 * so); otherwise "approved" once the user approved these exact arguments,
 * or the answer that asks the user, or refuses.
 */
async function confirmationAnswer(
  contract: AnyToolContract,
  input: unknown,
  extra: CallContext,
  approvals: Approvals,
  onTrace: ExecuteOptions["onTrace"],
): Promise<ToolCallAnswer | "approved" | undefined> {
  const { validateInput } = await loadValidators(contract);
  if (!validateInput(input)) return undefined;
  const decision = await confirmCall(
    contract,
    input,
    extra.confirmation,
    approvals,
  );
  if (decision.kind === "run") return "approved";
  if (decision.kind === "ask")
    return extra.confirmation.ask(decision.message, decision.state);
  if (decision.kind === "unavailable")
    return unchecked(contract, decision.message, decision.cause, onTrace);
  return rejection(contract, decision.reason, decision.message, onTrace);
}

/**
 * A confirmed call refused because the store could not say whether its
 * approval was used: RETRYABLE, nothing run. The operator's trace says why
 * (the store's error); the caller is told only to try again.
 */
function unchecked(
  contract: AnyToolContract,
  message: string,
  cause: unknown,
  onTrace: ExecuteOptions["onTrace"],
): CallToolResult {
  try {
    onTrace?.({
      tool: contract.name,
      version: contract.version,
      attempt: 0,
      durationMs: 0,
      code: "RETRYABLE",
      effect: "none",
      issuePaths: [],
      reason: "STORE_UNAVAILABLE",
      error: cause,
    });
  } catch {
    // A failing onTrace changes nothing, as in the executor.
  }
  return toCallResult(failure(contract, "RETRYABLE", message, true, "none", 0));
}

/** A call refused before its handler could run: REJECTED with `reason`, traced as the executor traces a failure. */
function rejection(
  contract: AnyToolContract,
  reason: string,
  message: string,
  onTrace: ExecuteOptions["onTrace"],
): CallToolResult {
  try {
    onTrace?.({
      tool: contract.name,
      version: contract.version,
      attempt: 0,
      durationMs: 0,
      code: "REJECTED",
      effect: "none",
      issuePaths: [],
    });
  } catch {
    // A failing onTrace changes nothing, as in the executor.
  }
  return toCallResult(
    failure(contract, "REJECTED", message, false, "none", 0, { reason }),
  );
}

/** A served call's result before the server puts it in the form the client's protocol generation carries. */
type Project = (
  result: CallToolResult,
  outputSchema: AnyToolContract["outputSchema"],
) => CallToolResult;

/**
 * toolc's tools/call for every contract that has a handler, apart from any
 * one server: the scope check, confirmation, the executor (validation,
 * retries, the envelope) and the routing of `ctx.progress` and `ctx.log`.
 * `createToolServer` serves it on a low-level Server; `registerToolsOn`
 * (runtime/tool-host.ts, SDK 2.x) on an `McpServer` of the application's.
 */
export interface ToolCalls {
  /** The served tools' listings, in contract order. */
  readonly tools: readonly Tool[];
  /** The approvals of confirmed tools; undefined when no served tool has `confirm: true`. */
  readonly approvals: Approvals | undefined;
  /** The level a 2025-era `logging/setLevel` sets, for this server. */
  setLevel(level: string): void;
  /** What the tools a verified caller may see are, by `listing`. */
  listed(auth: CallerIdentity | undefined): Tool[];
  call(
    params: { name: string; arguments?: unknown },
    extra: CallContext,
    project?: Project,
  ): Promise<CallToolResult | ToolCallAnswer>;
}

export function createToolCalls<M extends ContractMap>(
  contracts: M,
  handlers: HandlersFor<M>,
  options: ServerOptions = {},
): ToolCalls {
  const {
    name: _name,
    version: _version,
    instructions: _instructions,
    logLevel,
    cache: _cache,
    confirm,
    listing,
    store,
    instances,
    ...executeOptions
  } = options;
  const served = servedTools(
    contracts,
    handlers as { readonly [key: string]: unknown },
  );
  const approvals = [...served.values()].some(
    (s) => s.contract.confirm === true,
  )
    ? approvalsFor(confirm, { store, instances })
    : undefined;
  if (
    executeOptions.countRateLimits !== false &&
    [...served.values()].some((s) => s.contract.rateLimit !== undefined)
  ) {
    const problem = rateStoreProblem(store, instances);
    if (problem !== undefined) throw new ConfigurationError(problem);
  }
  // One per server (a connection, or a stateless request), so the level a client sets is this connection's.
  const levels = new LogLevels(serverLogLevel(logLevel));
  return {
    tools: [...served.values()].map((s) => toolListing(s.contract)),
    approvals,
    setLevel: (level) => levels.set(level),
    listed: (auth) => listedTools(served, auth, listing).map(toolListing),
    async call(params, extra, project = (result) => result) {
      const tool = served.get(params.name);
      // Per the MCP spec an unknown tool is a protocol error, unlike bad arguments.
      if (tool === undefined)
        throw unknownToolError(`Unknown tool: ${truncateName(params.name)}`);
      const onTrace = tracedWithProtocol(
        executeOptions.onTrace,
        extra.protocol,
      );
      // The HTTP entry's gate refuses this with 403 first; checked again for a server behind a transport of its own whose auth checks no scopes.
      const outOfScope = scopeRefusal(tool.contract, extra.auth);
      if (outOfScope !== undefined)
        return rejection(
          tool.contract,
          "INSUFFICIENT_SCOPE",
          outOfScope,
          onTrace,
        );
      // MCP makes `arguments` optional; a tool without parameters is commonly called without it.
      const input: unknown = params.arguments ?? {};
      let approved = false;
      if (tool.contract.confirm === true && approvals !== undefined) {
        const answer = await confirmationAnswer(
          tool.contract,
          input,
          extra,
          approvals,
          onTrace,
        );
        if (answer === "approved") approved = true;
        else if (answer !== undefined) return answer;
      }
      const { signal, dispose } = anySignal([
        executeOptions.signal,
        extra.signal,
      ]);
      try {
        const callOptions: ExecuteOptions = { ...executeOptions };
        // Declared rate limits count in the server's store, shared with the other instances.
        if (store !== undefined) callOptions.store = store;
        if (signal !== undefined) callOptions.signal = signal;
        if (onTrace !== undefined) callOptions.onTrace = onTrace;
        if (extra.auth !== undefined) callOptions.caller = extra.auth;
        // This call, with these arguments, was just approved through the client; the executor's border asks this hook.
        if (approved) callOptions.confirm = APPROVED;
        routeNotifications(callOptions, extra, levels, tool.contract.name);
        return project(
          toCallResult(
            await executeTool(tool.contract, input, tool.handler, callOptions),
          ),
          tool.contract.outputSchema,
        );
      } finally {
        dispose();
      }
    },
  };
}

/**
 * A low-level SDK Server serving every contract that has a handler. Connect
 * it to any transport, or hand a function that builds one to the SDK's
 * serving entries (`serveStdio`, `createMcpHandler` on SDK 2.x).
 */
export function createToolServer<M extends ContractMap>(
  contracts: M,
  handlers: HandlersFor<M>,
  options: ServerOptions = {},
  defaults: ServerDefaults = {},
): Server {
  const { name, version, instructions, cache } = options;
  const calls = createToolCalls(contracts, handlers, options);
  const identity = {
    name: name ?? defaults.name ?? "toolc",
    version: version ?? defaults.version ?? "1.0.0",
  };
  const server = newToolServer(
    { ...identity, ...(instructions === undefined ? {} : { instructions }) },
    cache ?? defaults.cache,
    calls.approvals?.codec,
  );
  onSetLoggingLevel(server, calls.setLevel);
  onListTools(server, ({ auth }) => projectToolList(calls.listed(auth)));
  onCallTool(
    server,
    (params, extra) =>
      calls.call(params, extra, (result, outputSchema) =>
        projectCallResult(server, result, outputSchema),
      ),
    calls.approvals?.codec,
  );
  return server;
}

/** The approval of a call the user approved through the client (confirmCall), for the executor's border. */
const APPROVED = (): boolean => true;

function truncateName(name: string): string {
  return name.length > 128 ? `${name.slice(0, 127)}…` : name;
}
