// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The public runtime API. Generated code binds these to the project's
 * contracts; applications normally import the bound versions instead.
 * Node's HTTP entry (./http.js) is not re-exported: only the generated
 * `http.ts` imports it, so nothing else needs Node's types.
 */
export type {
  AudioBlock,
  BlobResourceContents,
  ContentAnnotations,
  ContentBlock,
  ContentBlockOf,
  ContentKind,
  EmbeddedResourceBlock,
  Icon,
  ImageBlock,
  ResourceLinkBlock,
  TextBlock,
  TextResourceContents,
} from "./content.js";
export type {
  ToolEffect,
  ToolErrorCode,
  ToolFailure,
  ToolIssue,
  ToolResult,
  ToolSuccess,
} from "./envelope.js";
export type {
  AnyToolContract,
  ContractMap,
  InputOf,
  JsonSchemaObject,
  KindOf,
  McpParamHeader,
  OutputOf,
  ReasonOf,
  ResolvedInputOf,
  RetryPolicy,
  SensitiveNode,
  SensitivePaths,
  ToolAnnotations,
  ToolContract,
  ToolValidators,
  ValidateFunction,
  ValidationError,
} from "./contract.js";
export type {
  CallerIdentity,
  Classification,
  ExecuteOptions,
  HandlerContext,
  HandlerFor,
  HandlersFor,
  LoggingLevel,
  ProgressUpdate,
  TraceEvent,
} from "./types.js";
export type { ConfirmationRequest, ConfirmHook } from "./approval.js";
export { TransientError, type TransientErrorOptions } from "./errors.js";
export { executeTool } from "./executor.js";
export {
  createLoopGuard,
  LoopGuard,
  type GuardEvidence,
  type GuardRefusal,
  type GuardStop,
  type GuardStopReason,
  type GuardTrace,
  type GuardTraceEvent,
  type LoopGuardOptions,
} from "./loop-guard.js";
export {
  createToolServer,
  FAILURE_META_KEY,
  toCallResult,
  type CacheHint,
  type ConfirmOptions,
  type ServerDefaults,
  type ServerOptions,
} from "./server.js";
export {
  createToolClient,
  type AccessReason,
  type CallOptions,
  type ToolClient,
} from "./client.js";
export { bearerAuth } from "./sdk.js";
export { ConfigurationError } from "./confirm.js";
export {
  memoryStore,
  redisStore,
  StoreUnavailableError,
  type IoRedisLike,
  type MemoryStoreOptions,
  type NodeRedisLike,
  type RedisStoreOptions,
  type SharedStore,
} from "./store.js";
export type { TokenSource } from "./sdk-port.js";
export {
  checkToolDrift,
  ToolListError,
  type DriftProblem,
  type DriftReport,
  type ToolDrift,
  type ToolListProblem,
} from "./drift.js";
export { toIssues } from "./issues.js";
export { loadValidators } from "./validators.js";
