/**
 * The intermediate representation: a plain, immutable model of every tool and
 * named type, produced by `normalize` and consumed by every emitter. Nothing
 * after normalize reads YAML; everything an emitter needs is here.
 */
import type { SensitiveNode, SensitivePaths } from "./runtime/contract.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
/** A JSON Schema (2020-12 subset) node: an object or a boolean schema. */
export type JsonSchema = JsonObject | boolean;

/** A place inside a JSON (or YAML) value: object keys and array indexes, from the root. */
export type JsonPath = readonly (string | number)[];

export type Effect = "read" | "write" | "destructive";

/** A position in a source file, 1-based. */
export interface SourceLocation {
  /** Path as the user should see it (relative to the working directory when possible). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export interface Diagnostic extends SourceLocation {
  readonly severity: "error" | "warning";
  /** Stable code, `TCnnn`; see docs/diagnostics.md. */
  readonly code: string;
  readonly message: string;
}

/**
 * Where a value's `x-sensitive` parts can be (normalize/sensitive.ts): the
 * runtime's own automaton types, which runtime/contract.ts documents, since
 * contracts.ts hands the IR's automaton to the runtime as it is. State 0 is
 * the root, and an empty list means none.
 */
export type { SensitiveNode, SensitivePaths };

export interface RetryPolicy {
  /** Total attempts, including the first. 1 means no retry. */
  readonly attempts: number;
  /** Base delay before the second attempt; doubles per attempt, with full jitter. */
  readonly backoffMs: number;
  /** Cap on a single delay. */
  readonly maxBackoffMs: number;
  /** Cap on the whole call, attempts and delays included. */
  readonly budgetMs: number;
}

/** A declared rate limit: calls per window per caller (the contract's `rateLimit`, else the config's). */
export interface RateLimitIR {
  readonly calls: number;
  readonly windowSeconds: number;
  /** Who is counted: the verified token's subject or its OAuth client. */
  readonly per: "subject" | "client";
}

export interface ToolAnnotationsIR {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** A content block kind a handler may attach (MCP's `type`). */
export type ContentKind = "text" | "image" | "audio" | "resource" | "resource_link";

/** An icon clients may show for the tool (MCP 2025-11-25). */
export interface IconIR {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}

export interface DeclaredError {
  /** The rejection reason, e.g. CUSTOMER_BLOCKED. */
  readonly code: string;
  readonly description: string;
}

export interface ExampleIR {
  readonly name: string;
  readonly input: JsonValue;
  /** Expected handler output (valid examples only). */
  readonly output?: JsonValue;
  /** Present for negative examples: paths that must be among INVALID_INPUT's issue paths. */
  readonly invalid?: readonly string[];
  /** Present for an example the handler turns down: the declared error it rejects with (code REJECTED). */
  readonly rejected?: string;
}

/**
 * Where a `$defs` entry of a served schema came from, so the type emitter can
 * reference the right TS type instead of inlining it.
 */
export type DefOrigin =
  /** A named type from a types file: exported once from `types/<module>.ts`. */
  | { readonly kind: "named"; readonly name: string; readonly module: string }
  /** A `$defs` entry written inside this tool's own input or output schema (`schema`), under its key there (`name`); each target names it in its own language. */
  | { readonly kind: "local"; readonly schema: "input" | "output"; readonly name: string };

/** Whether a model request carries the tool's definition (eager) or the provider's tool search finds it (deferred). */
export type ToolLoading = "eager" | "deferred";

export interface ToolIR {
  readonly name: string;
  /** Where the contract names the tool, for the lints that need every tool at once (names, and each target's own: Target.lint). */
  readonly nameAt: SourceLocation;
  readonly version: number;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly IconIR[];
  readonly effect: Effect;
  readonly idempotent: boolean;
  readonly openWorld: boolean;
  /** Deprecated: true, or the message saying what to use instead. */
  readonly deprecated?: string | true;
  /** The first day (YYYY-MM-DD) a deprecated tool may be removed. */
  readonly sunset?: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Name of the required string input property carrying the idempotency key. */
  readonly idempotencyKey?: string;
  readonly errors: readonly DeclaredError[];
  /** The OAuth scopes a call needs (all of them), the config's default applied; absent: none. A plain list of scope strings. */
  readonly scopes?: readonly string[];
  /** Every call is confirmed by the user through the client before the handler runs. */
  readonly confirm?: true;
  /** Calls per window per caller, the config's default applied; absent: no declared limit. */
  readonly rateLimit?: RateLimitIR;
  /** Found by the provider's tool search rather than sent with every request: the contract's `loading`, else the config's (config/loading.ts). Absent: eager. */
  readonly loading?: "deferred";
  /** The content kinds the handler may attach, in the contract's order; absent, any kind. */
  readonly content?: readonly ContentKind[];
  /** Source YAML path relative to the definitions folder, posix separators. */
  readonly source: string;
  /** The served schemas: normalized, closed, with referenced types bundled into `$defs`. */
  readonly inputSchema: JsonObject;
  readonly outputSchema: JsonObject;
  /** Origin of each `$defs` key in inputSchema / outputSchema. */
  readonly inputDefs: Readonly<Record<string, DefOrigin>>;
  readonly outputDefs: Readonly<Record<string, DefOrigin>>;
  readonly annotations: ToolAnnotationsIR;
  /** The tool's `_meta` in tools/list. */
  readonly meta: JsonObject;
  readonly examples: readonly ExampleIR[];
  readonly sensitive: { readonly input: SensitivePaths; readonly output: SensitivePaths };
  /** Input properties mirrored into `Mcp-Param-{name}` HTTP headers (`x-mcp-header`, SEP-2243), in schema order. */
  readonly mcpHeaders?: readonly McpHeaderIR[];
  /** The contract's `ui:` section (MCP Apps): its view and who may call the tool; absent without one. */
  readonly ui?: ToolUiIR;
}

/** Who may call a tool under MCP Apps: the model, a view on the same server (the app), or both. */
export type UiVisibility = "model" | "app";

/** The Content Security Policy origins a view declares, by the extension's key; an empty list is left out. */
export interface UiCspIR {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** A tool's view: the `ui://` resource the host renders for its result. */
export interface ViewIR {
  /** The HTML file, relative to the definitions folder, posix separators. */
  readonly source: string;
  /** Where the contract names it, for the diagnostics of reading it. */
  readonly sourceAt: SourceLocation;
  readonly uri: string;
  readonly uriAt: SourceLocation;
  readonly title?: string;
  readonly description?: string;
  readonly csp: UiCspIR;
  readonly permissions: readonly ("camera" | "microphone" | "geolocation" | "clipboardWrite")[];
  readonly prefersBorder?: boolean;
  /** The tools the view calls, in the contract's order (its typed `callServerTool`). */
  readonly calls: readonly string[];
  readonly callsAt: readonly SourceLocation[];
}

export interface ToolUiIR {
  readonly view?: ViewIR;
  /** As declared; absent: the extension's default, both. */
  readonly visibility?: readonly UiVisibility[];
}

/** One `x-mcp-header` declaration: the header's name, the `properties` chain from the input root, the property's type. */
export interface McpHeaderIR {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

export interface NamedTypeIR {
  /** Key in the `types:` map; also the TS type name and the `$defs` key. */
  readonly name: string;
  /** Where the key is, for a target's lint of the names it prints (Target.lint). */
  readonly nameAt: SourceLocation;
  readonly description?: string;
  /** Normalized schema; references to other named types are `#/$defs/<Name>`. */
  readonly schema: JsonSchema;
}

export interface TypeFileIR {
  /** Source YAML path relative to the definitions folder, posix separators. */
  readonly source: string;
  /** Output module stem: `types/<module>.ts`. */
  readonly module: string;
  /** Where the file's `types:` key is, for a target's lint of the modules it writes (Target.lint). */
  readonly typesAt: SourceLocation;
  readonly types: readonly NamedTypeIR[];
}

export interface ContractIR {
  /** Sorted by name. */
  readonly tools: readonly ToolIR[];
  /** In load order (a definitions folder is read by source path). */
  readonly typeFiles: readonly TypeFileIR[];
}

/** One file an emitter produces: a path relative to its folder (the output folder unless `root` says otherwise), and its text, in its final layout. */
export interface EmittedFile {
  readonly path: string;
  /** Contract tests go to their own folder, usually outside the output folder; the catalog (`toolc docs`) to its own too. */
  readonly root?: "tests" | "docs";
  readonly text: string;
  /**
   * Set on a per-tool piece of a file several tools share (a tool's code, emit/tool-code/): not written itself;
   * the target named here joins the run's pieces into the files written (TargetEmitter.joinParts).
   */
  readonly part?: string;
}
