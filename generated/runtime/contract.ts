// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The compiled form of one tool contract, as generated code hands it to the
 * runtime. Everything here comes from the normalized IR; the runtime never
 * parses a schema.
 */
import type { ContentKind, Icon } from "./content.js";
import type { ToolEffect } from "./envelope.js";
import type { JsonCopy } from "./json.js";

export type JsonSchemaObject = { [key: string]: unknown };

/** The subset of an Ajv error object the runtime reads. */
export interface ValidationError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** An Ajv standalone validate function. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}

/** A copy of a value as plain JSON data, or why it is not JSON (runtime/json.ts). */
export type CopyJson = (value: unknown) => JsonCopy;

/**
 * One tool's compiled validators, and its schema-aware copies: a generated
 * `chunks/<tool>.js` module has these exports, and in a project whose tools'
 * code is grouped, the tool's function in `chunks/group-<n>.js` returns
 * them. Without the copies the
 * runtime uses the generic copy, which gives the same result, only slower.
 * The generated validators expect such a copy, whose objects have no
 * prototype; `loadValidators` hands out validators that copy what they are given.
 */
export interface ToolValidators {
  /** Validates and applies defaults in place (to the copy, for `loadValidators`' validators). */
  readonly validateInput: ValidateFunction;
  readonly validateOutput: ValidateFunction;
  readonly copyInput?: CopyJson | undefined;
  readonly copyOutput?: CopyJson | undefined;
  /**
   * Where the copies are in a module of their own (a group's
   * `chunks/group-<n>-copies.js`), loads them: the runtime calls it on the
   * tool's COPIES_FROM_CALL-th call (validators.ts), so its first calls
   * neither load nor compile the copies' code.
   */
  readonly loadCopies?: (() => Promise<ToolCopies>) | undefined;
}

/** A tool's schema-aware copies, from their own module (see ToolValidators). */
export interface ToolCopies {
  readonly copyInput: CopyJson;
  readonly copyOutput: CopyJson;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool's declared rate limit (`rateLimit` in its contract or in toolc.config.yaml). */
export interface DeclaredRateLimit {
  /** Calls a caller may make per window. */
  readonly calls: number;
  /** The window, in seconds; it starts with a caller's first call. */
  readonly windowSeconds: number;
  /** Who is counted: the verified token's subject or its OAuth client; without a verified caller, every call under one key. */
  readonly per: "subject" | "client";
}

export interface RetryPolicy {
  /** Total attempts, including the first. */
  attempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Bound on the whole call, attempts and delays included. */
  budgetMs: number;
}

/**
 * One state of a tool's sensitivity automaton (see SensitivePaths). Each
 * transition names the state a child value is in; a child with no
 * transition holds nothing sensitive, at any depth.
 */
export interface SensitiveNode {
  /**
   * The value in this state is sensitive, and so is everything inside it:
   * `"secret"` (`x-sensitive: true`) is kept out of every message, issue and
   * trace; `"withhold"` (output only) is also removed from the output before
   * it leaves the executor.
   */
  readonly sensitive?: "secret" | "withhold";
  /**
   * With `sensitive`: the property names the schema declares anywhere inside
   * the value. Any other key in it (a map's key, say) is data, so it is a
   * secret too.
   */
  readonly declared?: readonly string[];
  /** By property name: the state of that property's value. */
  readonly properties?: { readonly [name: string]: number };
  /** The state of the value of any key `properties` does not name. */
  readonly additionalProperties?: number;
  /** By array index: the state of that item (null: nothing sensitive in it). */
  readonly prefixItems?: readonly (number | null)[];
  /** The state of any item past `prefixItems`. */
  readonly items?: number;
}

/**
 * Where a value's sensitive parts can be: a deterministic automaton over its
 * paths, compiled from the schema, recursion included. The root value is in
 * state 0; an empty list means nothing in the value is sensitive.
 */
export type SensitivePaths = readonly SensitiveNode[];

/**
 * An input property that clients mirror into an `Mcp-Param-{name}` HTTP
 * header (`x-mcp-header`, SEP-2243): its header name, the chain of
 * `properties` keys from the input root, and its type.
 */
export interface McpParamHeader {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/**
 * The `_meta` keys under which a tool's tools/list entry carries its
 * contract's version and the hash of its normalized schemas: toolc writes
 * them into each contract's `meta`, and a typed client compares what a server
 * lists with them to find drift on connect (drift.ts).
 */
export const CONTRACT_VERSION_META_KEY = "toolc/contractVersion";
export const SCHEMA_HASH_META_KEY = "toolc/schemaHash";

/**
 * One tool's contract. The type parameters are phantom: they carry the
 * generated TS types so that handlers, results and clients are typed.
 */
export interface ToolContract<
  Input = unknown,
  ResolvedInput = unknown,
  Output = unknown,
  Reason extends string = string,
  Kind extends ContentKind = ContentKind,
> {
  readonly name: string;
  readonly version: number;
  readonly title?: string;
  readonly description?: string;
  /** Served in tools/list, as MCP 2025-11-25 defines them. */
  readonly icons?: readonly Icon[];
  readonly effect: "read" | "write" | "destructive";
  readonly idempotent: boolean;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly idempotencyKey?: string;
  /** Declared rejection reasons, with their descriptions. */
  readonly errors: Readonly<Record<Reason, string>>;
  /** The content kinds a handler may attach; absent, any kind. */
  readonly content?: readonly Kind[];
  /** The OAuth scopes a caller's token must carry (all of them) to see and call the tool over HTTP with auth on; absent: none. */
  readonly scopes?: readonly string[];
  /** Every call is confirmed by the user through the client before the handler runs (runtime/confirm.ts). */
  readonly confirm?: true;
  /** Calls per window per caller, declared in the contract or the config; the generated server counts them in its store on every entry (runtime/rate-limit.ts). */
  readonly rateLimit?: DeclaredRateLimit;
  /** The schemas served in tools/list, exactly as the validators were compiled from them. */
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
  readonly meta: { [key: string]: unknown };
  readonly sensitive: {
    readonly input: SensitivePaths;
    readonly output: SensitivePaths;
  };
  /** The input properties declared with `x-mcp-header`; absent when there are none. */
  readonly mcpHeaders?: readonly McpParamHeader[];
  /**
   * The validators, or a function that loads them. Generated contracts load
   * them on a tool's first call (a dynamic import), so a server starts, and
   * answers tools/list, without parsing the validator code of every tool.
   */
  readonly validators: ToolValidators | (() => Promise<ToolValidators>);
  /** Phantom field; never set at run time. */
  readonly __types?: {
    input: Input;
    resolvedInput: ResolvedInput;
    output: Output;
    reason: Reason;
    kind: Kind;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolContract = ToolContract<any, any, any, any, any>;
export type ContractMap = { readonly [tool: string]: AnyToolContract };

/**
 * A contract as the generated contracts module writes it: without the fields
 * `toolContract` derives from the others at load, which a large API would
 * otherwise write the same a thousand times (#42). `annotations` and
 * `sensitive` are written only when they are not what is derived.
 */
export type ContractEntry = Omit<
  AnyToolContract,
  "annotations" | "sensitive"
> & {
  readonly annotations?: ToolAnnotations;
  readonly sensitive?: AnyToolContract["sensitive"];
  /** The tool's `openWorldHint` when `annotations` is derived; absent: false. Not a field of the contract. */
  readonly openWorld?: true;
};

/**
 * The contract an entry stands for, with the fields in the order the type
 * documents (tools/list serves `annotations` as it is built here, key order
 * included): `annotations` after `outputSchema`, the title and hints derived
 * from the contract's title, effect and idempotence, and `sensitive` after
 * `meta`, nothing sensitive. `C` is the constant's declared type, which
 * TypeScript infers from where the call's value goes: the entry's own type
 * cannot carry the tool's input, output and reason types.
 */
export function toolContract<C extends AnyToolContract>(
  entry: ContractEntry,
): C {
  const contract: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === "openWorld") continue;
    contract[key] = value;
    if (key === "outputSchema" && entry.annotations === undefined)
      contract["annotations"] = {
        ...(entry.title === undefined ? {} : { title: entry.title }),
        readOnlyHint: entry.effect === "read",
        destructiveHint: entry.effect === "destructive",
        idempotentHint: entry.idempotent,
        openWorldHint: entry.openWorld === true,
      } satisfies ToolAnnotations;
    if (key === "meta" && entry.sensitive === undefined)
      contract["sensitive"] = { input: [], output: [] };
  }
  return contract as unknown as C;
}

export type InputOf<C> =
  C extends ToolContract<infer I, any, any, any, any> ? I : never;
export type ResolvedInputOf<C> =
  C extends ToolContract<any, infer R, any, any, any> ? R : never;
export type OutputOf<C> =
  C extends ToolContract<any, any, infer O, any, any> ? O : never;
export type ReasonOf<C> =
  C extends ToolContract<any, any, any, infer R, any> ? R : never;
/** The content kinds a handler for `C` may attach. */
export type KindOf<C> =
  C extends ToolContract<any, any, any, any, infer K> ? K : never;

export type { ToolEffect };
