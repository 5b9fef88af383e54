/**
 * TypeScript and file names of what the IR describes by its contract names,
 * for the targets that print TypeScript or write a file per tool (the types,
 * the validators, code mode, the catalog, the evals pack): the IR says a tool
 * is `get_order` and a `$defs` entry is local to its output, and this module
 * says what they are called in TypeScript and on disk, once for every target.
 */
import type { DefOrigin } from "../ir.js";

/** `get_order` → `GetOrder`; `repo.search-items` → `RepoSearchItems`. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  if (joined === "") return "Tool";
  return /^[0-9]/.test(joined) ? `Tool${joined}` : joined;
}

/** A tool's local `$defs` entry as a TypeScript type: `get_order`'s output `Page` → `GetOrderOutputPage`. */
export function localTypeName(tool: { readonly name: string }, origin: DefOrigin & { readonly kind: "local" }): string {
  return `${pascalCase(tool.name)}${origin.schema === "input" ? "Input" : "Output"}${pascalCase(origin.name)}`;
}

/** The PascalCase stem of a tool's TypeScript names: `get_order` → `GetOrder` (`GetOrderInput`, `GetOrderHandler`...). */
export function toolTypeName(tool: { readonly name: string }): string {
  return pascalCase(tool.name);
}

/** The stem of a tool's own files: `tools/<stem>.ts`, `validators/<stem>.ts`, `schemas/<stem>.json`, the catalog's `tools/<stem>.md`. The tool's name, which the name lint keeps apart from every other's even on a case-insensitive file system. */
export function toolFileName(tool: { readonly name: string }): string {
  return tool.name;
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
