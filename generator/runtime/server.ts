/**
 * The MCP server: a low-level SDK `Server` that lists each served tool with
 * its contract's exact schemas and routes tools/call through the executor.
 * The low-level Server is used because it takes raw JSON Schema as is.
 * The SDK itself is reached through the port (sdk.ts), one per SDK line.
 */
import { newToolServer, onCallTool, onListTools, onSetLoggingLevel, projectCallResult, projectToolList, unknownToolError, type CallToolResult, type Server, type Tool } from "./sdk.js";
import type { AnyToolContract, ContractMap } from "./contract.js";
import type { ToolResult } from "./envelope.js";
import { executeTool } from "./executor.js";
import type { AnyHandler } from "./attempt.js";
import { LogLevels, routeNotifications } from "./call-notifier.js";
import { serverLogLevel, type LogLevelSetting } from "./notify.js";
import type { ExecuteOptions, HandlersFor } from "./types.js";

/** Where a failure envelope travels in a tools/call result's `_meta`. */
export const FAILURE_META_KEY = "toolc/failure";

/** The server routes ctx.progress and ctx.log to the client itself, so those two hooks are not options. */
export interface ServerOptions extends Omit<ExecuteOptions, "onProgress" | "onLog"> {
  /** Server name sent in the initialize response; defaults to "toolc". */
  name?: string;
  /** Server version sent in the initialize response; defaults to "1.0.0". */
  version?: string;
  /** Instructions for the model, sent in the initialize response. */
  instructions?: string;
  /**
   * The level `ctx.log` messages are filtered at until the client sends
   * `logging/setLevel`. Default `"info"`; `"off"`: nothing is logged to a
   * client that has not asked. Over stateless HTTP no level set on one
   * request reaches the next, so this is the level every call there gets
   * (see docs/runtime.md).
   */
  logLevel?: LogLevelSetting;
}

interface Served {
  contract: AnyToolContract;
  handler: AnyHandler;
}

/** Tools that have a handler, by MCP name, in contract order. */
function servedTools(contracts: ContractMap, handlers: { readonly [key: string]: unknown }): Map<string, Served> {
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
    ...(contract.description === undefined ? {} : { description: contract.description }),
    ...(contract.icons === undefined ? {} : { icons: contract.icons as NonNullable<Tool["icons"]> }),
    inputSchema: contract.inputSchema as Tool["inputSchema"],
    outputSchema: contract.outputSchema as NonNullable<Tool["outputSchema"]>,
    annotations: contract.annotations,
    _meta: contract.meta,
  };
}

/**
 * Success: the output as structuredContent, whatever JSON value it is, plus
 * its JSON as text; `projectCallResult` then puts it in the form the
 * client's protocol generation carries. Failure:
 * the envelope as text and in _meta, never in structuredContent (SDK clients
 * validate that against outputSchema even when isError is set).
 */
export function toCallResult(result: ToolResult<unknown, string>): CallToolResult {
  if (result.ok) {
    const text: CallToolResult["content"][number] = { type: "text", text: JSON.stringify(result.data) };
    // Attached blocks follow the output's text block; they were checked against MCP's shapes when the handler returned.
    const content = result.content === undefined ? [text] : [text, ...(result.content as CallToolResult["content"])];
    return { content, structuredContent: result.data as CallToolResult["structuredContent"] };
  }
  return { isError: true, content: [{ type: "text", text: JSON.stringify(result) }], _meta: { [FAILURE_META_KEY]: result } };
}

/** Aborts when any input aborts; `dispose` detaches from long-lived signals (a server-wide one). */
function anySignal(signals: (AbortSignal | undefined)[]): { signal: AbortSignal | undefined; dispose: () => void } {
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
  return { signal: controller.signal, dispose: () => detach.forEach((d) => d()) };
}

/** A low-level SDK Server serving every contract that has a handler. Connect it to any transport. */
export function createToolServer<M extends ContractMap>(contracts: M, handlers: HandlersFor<M>, options: ServerOptions = {}): Server {
  const { name = "toolc", version = "1.0.0", instructions, logLevel, ...executeOptions } = options;
  const served = servedTools(contracts, handlers as { readonly [key: string]: unknown });
  const server = newToolServer({ name, version, ...(instructions === undefined ? {} : { instructions }) });
  // One server per connection, so the level a client sets is this connection's.
  const levels = new LogLevels(serverLogLevel(logLevel));
  onSetLoggingLevel(server, (level) => levels.set(level));

  onListTools(server, () => projectToolList([...served.values()].map((s) => toolListing(s.contract))));

  onCallTool(server, async (params, extra) => {
    const tool = served.get(params.name);
    // Per the MCP spec an unknown tool is a protocol error, unlike bad arguments.
    if (tool === undefined) throw unknownToolError(`Unknown tool: ${truncateName(params.name)}`);
    // MCP makes `arguments` optional; a tool without parameters is commonly called without it.
    const input: unknown = params.arguments ?? {};
    const { signal, dispose } = anySignal([executeOptions.signal, extra.signal]);
    try {
      const callOptions: ExecuteOptions = { ...executeOptions };
      if (signal !== undefined) callOptions.signal = signal;
      routeNotifications(callOptions, extra, levels, tool.contract.name);
      return projectCallResult(server, toCallResult(await executeTool(tool.contract, input, tool.handler, callOptions)), tool.contract.outputSchema);
    } finally {
      dispose();
    }
  });
  return server;
}

function truncateName(name: string): string {
  return name.length > 128 ? `${name.slice(0, 127)}…` : name;
}
