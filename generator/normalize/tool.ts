/**
 * Builds one tool's IR from its definition file: policy defaults, annotations
 * that follow from `effect`, served schemas with named types bundled, and the
 * compile-time checks (strict Ajv, examples, retry safety, idempotency key).
 */
import { Codes, error, warning } from "../diagnostics.js";
import type {
  ContentKind,
  DefOrigin,
  Diagnostic,
  Effect,
  ExampleIR,
  IconIR,
  JsonObject,
  JsonSchema,
  RetryPolicy,
  SensitivePaths,
  ToolIR,
  ToolLoading,
} from "../ir.js";
import { loadingOf } from "../config/loading.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { checkDefaults, checkExamples, compileToolSchema, type ToolSchemaCompiler } from "./compile.js";
import { schemaHash } from "./schema-hash.js";
import { accessOf, SCOPES_META_KEY, type NormalizeOptions } from "./access.js";
import { mcpHeadersOf } from "./mcp-headers.js";
import { lintUnbounded } from "./patterns.js";
import { lintProviders } from "./providers-lint.js";
import { normalizeSchema } from "./schemas.js";
import { lintSensitive, sensitivePaths } from "./sensitive.js";
import { closureOf, type NamedTypes } from "./types-files.js";
import { findFanouts } from "./union-fanout.js";
import { didYouMean } from "../load/suggest.js";
import { isJsonObject } from "../schema/json.js";
import { uiMeta, uiOf, type RawUi } from "./ui.js";
import { CONTRACT_VERSION_META_KEY, SCHEMA_HASH_META_KEY } from "../runtime/contract.js";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_BACKOFF_MS = 100;
export const DEFAULT_MAX_BACKOFF_MS = 2_000;
/** The tool's deprecation in `_meta`: true, or the message saying what to use instead. */
export const DEPRECATED_META_KEY = "toolc/deprecated";
/** The first day a deprecated tool may be removed, in `_meta`. */
export const SUNSET_META_KEY = "toolc/sunset";
/** The one JSON Schema dialect toolc compiles (SEP-1613 makes it MCP's default). */
export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

interface RawTool {
  $schema?: string;
  name: string;
  version: number;
  title?: string;
  description: string;
  icons?: IconIR[];
  effect: Effect;
  idempotent?: boolean;
  openWorld?: boolean;
  deprecated?: boolean | string;
  sunset?: string;
  timeoutMs?: number;
  retry?: { attempts: number; backoffMs?: number; maxBackoffMs?: number; budgetMs?: number };
  idempotencyKey?: string;
  scopes?: string[];
  confirm?: boolean;
  rateLimit?: { calls: number; windowSeconds: number; per?: "subject" | "client" };
  loading?: ToolLoading;
  input: JsonObject;
  output: JsonObject;
  errors?: Record<string, { description: string }>;
  content?: ContentKind[];
  ui?: RawUi;
  examples?: { name: string; input: unknown; output?: unknown; invalid?: string[]; rejected?: string }[];
}

interface ServedSchema {
  readonly schema: JsonObject;
  readonly defs: Record<string, DefOrigin>;
  readonly usesFailedType: boolean;
}

function retryPolicy(raw: RawTool, timeoutMs: number): RetryPolicy {
  const attempts = raw.retry?.attempts ?? 1;
  const backoffMs = raw.retry?.backoffMs ?? DEFAULT_BACKOFF_MS;
  const maxBackoffMs = Math.max(backoffMs, raw.retry?.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
  const budgetMs = raw.retry?.budgetMs ?? timeoutMs * attempts + maxBackoffMs * (attempts - 1);
  return { attempts, backoffMs, maxBackoffMs, budgetMs };
}

function serveSchema(
  raw: JsonObject,
  key: "input" | "output",
  tool: RawTool,
  file: YamlSource,
  types: NamedTypes,
  failedTypes: ReadonlySet<string>,
  out: Diagnostic[],
): ServedSchema {
  // MCP's inputSchema is always an object; an outputSchema may have any root (SEP-2106, MCP 2026-07-28).
  if (key === "input" && raw.type !== "object") {
    const at = file.locate(raw.type === undefined ? [key] : [key, "type"], { key: raw.type === undefined });
    out.push(error(at, Codes.rootNotObject, "the input root must be `type: object` (an MCP inputSchema is always an object); wrap other values in a property"));
  }
  const localDefs = isJsonObject(raw.$defs) ? Object.keys(raw.$defs) : [];
  const normalized = normalizeSchema(raw, [key], { file, registry: types.registry, localDefs: new Set(localDefs), rootStatesDialect: true });
  out.push(...normalized.diagnostics);
  if (key === "input") out.push(...lintUnbounded(raw, [key], file));
  out.push(...lintSensitive(raw, [key], file, key));
  const named = closureOf(normalized.namedDeps, types);
  const defs: Record<string, DefOrigin> = {};
  const bundled: Record<string, JsonSchema> = {};
  const { $defs: ownDefs, ...rest } = normalized.schema as JsonObject;
  for (const name of localDefs) {
    if (named.includes(name)) {
      out.push(
        error(
          file.locate([key, "$defs", name], { key: true }),
          Codes.duplicateType,
          `\`$defs\` entry \`${name}\` has the name of a named type this schema uses; rename it`,
        ),
      );
    }
    defs[name] = { kind: "local", schema: key, name };
    bundled[name] = (ownDefs as Record<string, JsonSchema>)[name];
  }
  for (const name of named) {
    const entry = types.registry.get(name);
    const schema = types.byName.get(name)?.schema;
    if (!entry || schema === undefined) continue;
    defs[name] = { kind: "named", name, module: entry.module };
    bundled[name] = schema;
  }
  const sortedDefs = Object.fromEntries(
    Object.keys(bundled)
      .sort()
      .map((k) => [k, bundled[k]]),
  ) as JsonObject;
  // A stated dialect is served as written, first, where a reader of the schema looks for it.
  const stated: JsonObject = tool.$schema === JSON_SCHEMA_2020_12 && !("$schema" in rest) ? { $schema: tool.$schema } : {};
  const schema: JsonObject = Object.keys(sortedDefs).length > 0 ? { ...stated, ...rest, $defs: sortedDefs } : { ...stated, ...rest };
  // The tool's own recursive `$defs`; named types are checked once, in their types file (normalize/index.ts).
  for (const fanout of findFanouts(schema, (name) => defs[name]?.kind === "local")) {
    out.push(error(file.locate([key, "$defs", fanout.def, ...fanout.path], { key: true }), Codes.exponentialUnion, fanout.message));
  }
  return { schema, defs, usesFailedType: named.some((n) => failedTypes.has(n)) };
}

/** Where the schema's sensitive values are; a schema toolc cannot track them in is refused (TC039), never served untracked. */
function trackSensitive(schema: JsonObject, key: "input" | "output", file: YamlSource, out: Diagnostic[]): SensitivePaths {
  const analysis = sensitivePaths(schema, key);
  if (analysis.ok) return analysis.paths;
  // A reference that does not resolve is already refused where it stands (TC020); saying so again here adds nothing.
  if (analysis.unresolvedRef !== undefined && out.some((d) => d.code === Codes.danglingRef)) return [];
  out.push(error(file.locate([key], { key: true }), Codes.untrackedSensitive, `the ${key} cannot be compiled: ${analysis.problem}`));
  return [];
}

function lintPolicy(raw: RawTool, idempotent: boolean, file: YamlSource, out: Diagnostic[]): void {
  if ((raw.retry?.attempts ?? 1) > 1 && !idempotent && raw.idempotencyKey === undefined) {
    out.push(
      error(
        file.locate(["retry", "attempts"]),
        Codes.unsafeRetry,
        `retry.attempts is ${raw.retry?.attempts} on a non-idempotent ${raw.effect} tool with no idempotencyKey: a retried call may apply twice; declare \`idempotencyKey\`, set \`idempotent: true\`, or use attempts: 1`,
      ),
    );
  }
  const key = raw.idempotencyKey;
  if (key === undefined) return;
  const properties = isJsonObject(raw.input.properties) ? raw.input.properties : {};
  const property = properties[key];
  const required = Array.isArray(raw.input.required) && raw.input.required.includes(key);
  const isString = isJsonObject(property) && property.type === "string";
  if (property === undefined || !required || !isString) {
    const problem = property === undefined ? "is not an input property" : !isString ? "is not of `type: string`" : "is not in `input.required`";
    out.push(
      error(
        file.locate(["idempotencyKey"]),
        Codes.badIdempotencyKey,
        `idempotencyKey \`${key}\` ${problem}; it must name a required string property of the input`,
      ),
    );
  }
}

/**
 * `$schema` names the dialect of input and output, once at the top of the
 * contract or at the root of either schema (as schemas copied from elsewhere
 * carry it); toolc compiles 2020-12 only, and says so rather than reading
 * another dialect as it.
 */
function checkDialect(raw: RawTool, file: YamlSource, out: Diagnostic[]): void {
  const stated: [JsonPath, unknown][] = [
    [["$schema"], raw.$schema],
    [["input", "$schema"], raw.input.$schema],
    [["output", "$schema"], raw.output.$schema],
  ];
  for (const [path, dialect] of stated) {
    if (typeof dialect !== "string" || dialect === JSON_SCHEMA_2020_12) continue;
    const editorHint = dialect.endsWith(".json") ? "; for editor support, use a `# yaml-language-server: $schema=…` comment instead" : "";
    out.push(
      error(
        file.locate(path),
        Codes.unsupportedDialect,
        `\`$schema\` ${JSON.stringify(dialect)} is not a dialect toolc compiles: only ${JSON_SCHEMA_2020_12} (JSON Schema 2020-12) is supported${editorHint}`,
      ),
    );
  }
}

/** `sunset` is a calendar day, and only a deprecated tool has one. */
function checkLifecycle(raw: RawTool, file: YamlSource, out: Diagnostic[]): void {
  if (raw.sunset === undefined) return;
  const [year, month, day] = raw.sunset.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    out.push(error(file.locate(["sunset"]), Codes.invalidValue, `\`sunset\` ${JSON.stringify(raw.sunset)} is not a calendar day (YYYY-MM-DD)`));
  }
  if (raw.deprecated === undefined || raw.deprecated === false) {
    out.push(
      error(file.locate(["sunset"], { key: true }), Codes.invalidValue, "`sunset` needs `deprecated`: only a deprecated tool has a day it may be removed"),
    );
  }
}

/** The lifecycle keys of `_meta`, only for a deprecated tool, so other tools serve what they did. */
function lifecycleMeta(raw: RawTool): JsonObject {
  if (raw.deprecated === undefined || raw.deprecated === false) return {};
  return { [DEPRECATED_META_KEY]: raw.deprecated, ...(raw.sunset === undefined ? {} : { [SUNSET_META_KEY]: raw.sunset }) };
}

/** The served hints come from effect and idempotent; a read that says it is not idempotent makes them contradict each other. */
function lintAnnotations(raw: RawTool, file: YamlSource, out: Diagnostic[]): void {
  if (raw.effect === "read" && raw.idempotent === false) {
    out.push(
      warning(
        file.locate(["idempotent"]),
        Codes.annotationConflict,
        "`idempotent: false` on an `effect: read` tool serves readOnlyHint: true with idempotentHint: false, which contradict each other (a call that changes nothing can be repeated); drop it, or use `effect: write` if the call changes state",
      ),
    );
  }
}

function examplesOf(raw: RawTool): ExampleIR[] {
  return (raw.examples ?? []).map((e) => ({
    name: e.name,
    input: e.input as ExampleIR["input"],
    ...(e.output === undefined ? {} : { output: e.output as ExampleIR["input"] }),
    ...(e.invalid === undefined ? {} : { invalid: e.invalid }),
    ...(e.rejected === undefined ? {} : { rejected: e.rejected }),
  }));
}

/** An example's `rejected` names a declared error, and says nothing else about the outcome (an output, invalid paths). */
function lintRejectedExamples(raw: RawTool, file: YamlSource, out: Diagnostic[]): void {
  const declared = Object.keys(raw.errors ?? {});
  (raw.examples ?? []).forEach((example, i) => {
    if (example.rejected === undefined) return;
    const at = file.locate(["examples", i, "rejected"]);
    if (!declared.includes(example.rejected)) {
      const known = declared.length === 0 ? "the contract declares no `errors`" : `declared: ${declared.join(", ")}${didYouMean(example.rejected, declared)}`;
      out.push(
        error(
          at,
          Codes.badRejectedExample,
          `example ${JSON.stringify(example.name)}: \`rejected: ${example.rejected}\` is not one of the contract's errors (${known})`,
        ),
      );
    }
    for (const other of ["output", "invalid"] as const) {
      if (example[other] === undefined) continue;
      out.push(
        error(
          file.locate(["examples", i, other], { key: true }),
          Codes.badRejectedExample,
          `example ${JSON.stringify(example.name)} is \`rejected\`, so it has no ${other === "output" ? "output" : "invalid paths"}: a rejected call returns REJECTED with its reason`,
        ),
      );
    }
  });
}

function compileAndCheck(
  tool: ToolIR,
  file: YamlSource,
  input: ServedSchema,
  output: ServedSchema,
  compile: ToolSchemaCompiler | undefined,
  out: Diagnostic[],
): void {
  if (input.usesFailedType || output.usesFailedType) return;
  const compiledInput = compileToolSchema(input.schema, input.defs, file, ["input"], true, compile);
  const compiledOutput = compileToolSchema(output.schema, output.defs, file, ["output"], false, compile);
  out.push(...compiledInput.diagnostics, ...compiledOutput.diagnostics);
  if (compiledInput.validator) out.push(...checkDefaults(input.schema, file, ["input"]));
  if (compiledInput.validator && compiledOutput.validator && tool.examples.length > 0) {
    out.push(...checkExamples(tool.examples, file, compiledInput.validator(), compiledOutput.validator()));
  }
}

export function normalizeTool(
  file: YamlSource,
  types: NamedTypes,
  failedTypes: ReadonlySet<string>,
  options: NormalizeOptions = {},
  /** How the tool's schemas are compiled: the validators' compile, given by the pipeline (see ToolSchemaCompiler); else in the shared instance. */
  compile?: ToolSchemaCompiler,
): { tool: ToolIR; diagnostics: Diagnostic[] } {
  const raw = file.data as RawTool;
  const out: Diagnostic[] = [];
  const idempotent = raw.idempotent ?? raw.effect === "read";
  const timeoutMs = raw.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const input = serveSchema(raw.input, "input", raw, file, types, failedTypes, out);
  const output = serveSchema(raw.output, "output", raw, file, types, failedTypes, out);
  lintPolicy(raw, idempotent, file, out);
  checkDialect(raw, file, out);
  lintAnnotations(raw, file, out);
  checkLifecycle(raw, file, out);
  const mcpHeaders = mcpHeadersOf(raw.input, raw.output, file, out);
  lintRejectedExamples(raw, file, out);
  const declared = Object.entries(raw.errors ?? {}).map(([code, e]) => ({ code, description: e.description }));
  const access = accessOf(raw, declared, file, options, out);
  const ui = uiOf(raw.ui, raw.name, file, out);
  const tool: ToolIR = {
    name: raw.name,
    nameAt: file.locate(["name"]),
    version: raw.version,
    ...(raw.title === undefined ? {} : { title: raw.title }),
    description: raw.description,
    ...(raw.icons === undefined ? {} : { icons: raw.icons }),
    effect: raw.effect,
    idempotent,
    openWorld: raw.openWorld ?? false,
    ...(raw.deprecated === undefined || raw.deprecated === false ? {} : { deprecated: raw.deprecated }),
    ...(raw.sunset === undefined ? {} : { sunset: raw.sunset }),
    timeoutMs,
    retry: retryPolicy(raw, timeoutMs),
    ...(raw.idempotencyKey === undefined ? {} : { idempotencyKey: raw.idempotencyKey }),
    errors: access.errors,
    ...(access.scopes.length === 0 ? {} : { scopes: access.scopes }),
    ...(access.confirm ? { confirm: true as const } : {}),
    ...(access.rateLimit === undefined ? {} : { rateLimit: access.rateLimit }),
    ...(loadingOf(raw.loading, file.source, options.loading) === "deferred" ? { loading: "deferred" as const } : {}),
    ...(raw.content === undefined ? {} : { content: raw.content }),
    source: file.source,
    inputSchema: input.schema,
    outputSchema: output.schema,
    inputDefs: input.defs,
    outputDefs: output.defs,
    annotations: {
      ...(raw.title === undefined ? {} : { title: raw.title }),
      readOnlyHint: raw.effect === "read",
      destructiveHint: raw.effect === "destructive",
      idempotentHint: idempotent,
      openWorldHint: raw.openWorld ?? false,
    },
    meta: {
      [CONTRACT_VERSION_META_KEY]: raw.version,
      [SCHEMA_HASH_META_KEY]: schemaHash(input.schema, output.schema),
      ...lifecycleMeta(raw),
      ...(access.scopes.length === 0 ? {} : { [SCOPES_META_KEY]: [...access.scopes] }),
      ...uiMeta(ui),
    },
    examples: examplesOf(raw),
    sensitive: { input: trackSensitive(input.schema, "input", file, out), output: trackSensitive(output.schema, "output", file, out) },
    ...(mcpHeaders.length === 0 ? {} : { mcpHeaders }),
    ...(ui === undefined ? {} : { ui }),
  };
  if (!out.some((d) => d.severity === "error")) compileAndCheck(tool, file, input, output, compile, out);
  if (!out.some((d) => d.severity === "error") && options.providers !== false) out.push(...lintProviders(tool, file));
  return { tool, diagnostics: out };
}
