/** Identifiers derived from tool and type names. */

/** `get_order` → `GetOrder`; `repo.search-items` → `RepoSearchItems`. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  if (joined === "") return "Tool";
  return /^[0-9]/.test(joined) ? `Tool${joined}` : joined;
}

/** A module stem safe on every file system: `billing/types.yaml` → `billing_types`. */
export function moduleStem(source: string): string {
  return source.replace(/\.ya?ml$/, "").replace(/[^A-Za-z0-9_-]+/g, "_");
}

/** The names the generated `index.ts` exports for one tool: its types, its handler type and its contract constant. */
export interface ToolExportNames {
  /** Input as the caller sends it. */
  readonly input: string;
  /** Input as the handler receives it, after defaults. */
  readonly resolvedInput: string;
  readonly output: string;
  /** Union of the declared rejection codes. */
  readonly reason: string;
  readonly handler: string;
  readonly contract: string;
}

/** `GetOrder` → `GetOrderInput`, `GetOrderResolvedInput`, `GetOrderOutput`, `GetOrderReason`, `GetOrderHandler`, `getOrderContract`. */
export function toolExportNames(baseName: string): ToolExportNames {
  const b = baseName;
  return {
    input: `${b}Input`,
    resolvedInput: `${b}ResolvedInput`,
    output: `${b}Output`,
    reason: `${b}Reason`,
    handler: `${b}Handler`,
    contract: `${b[0]?.toLowerCase() ?? ""}${b.slice(1)}Contract`,
  };
}

/** What the generated `index.ts` declares itself, whatever the contracts are. */
export const INDEX_API_NAMES = [
  "contracts",
  "Contracts",
  "ToolName",
  "Handlers",
  "ResultOf",
  "execute",
  "createServer",
  "createClient",
  "verifyServer",
  "serverDefaults",
] as const;
/** The runtime values the generated `index.ts` re-exports. */
export const INDEX_RUNTIME_VALUES = [
  "TransientError",
  "FAILURE_META_KEY",
  "bearerAuth",
  "loadValidators",
  "ToolListError",
  "toCallResult",
  "createLoopGuard",
  "LoopGuard",
] as const;
/** The runtime types the generated `index.ts` re-exports. */
export const INDEX_RUNTIME_TYPES = [
  "AccessReason",
  "CacheHint",
  "CallerIdentity",
  "CallOptions",
  "Classification",
  "ConfirmationRequest",
  "ConfirmHook",
  "ConfirmOptions",
  "DriftReport",
  "ExecuteOptions",
  "GuardEvidence",
  "GuardStop",
  "GuardStopReason",
  "GuardTraceEvent",
  "HandlerContext",
  "HandlerFor",
  "LoggingLevel",
  "LoopGuardOptions",
  "ProgressUpdate",
  "ServerOptions",
  "ToolContract",
  "ToolDrift",
  "ToolEffect",
  "ToolErrorCode",
  "ToolFailure",
  "ToolIssue",
  "ToolResult",
  "ToolSuccess",
  "ToolValidators",
  "TokenSource",
  "TraceEvent",
] as const;
