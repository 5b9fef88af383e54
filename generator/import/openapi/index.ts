/**
 * `toolc import openapi` as a function: an API description and its curation
 * → contracts in the definitions folder, plus the handlers module and its
 * runtime beside the generated output. A problem in the curation file or an
 * unreadable description stops the import and nothing is written; an
 * operation that cannot be expressed is skipped with an error and the others
 * are written (exit status 1). Contracts a previous import of the same API
 * wrote and that no operation produces any more are removed.
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { Diagnostic } from "../../ir.js";
import { pointerJoin, Reporter, type Problem } from "../problems.js";
import { buildTool, type OpenApiTool, type RetryDecision } from "./contract.js";
import { loadCuration, type Curation, type CuratedScheme, type OperationCuration, type Selector } from "./curation.js";
import { buildGroups } from "./groups.js";
import type { ApiSpec, Operation, SecurityRequirements, SecurityScheme } from "./model.js";
import { Conversions } from "./report.js";
import { SchemaConverter } from "./schemas.js";
import { assignNames, operationKeys, selected } from "./select.js";
import { readSpec } from "./spec.js";
import { planFiles, writePlanned, type PlannedFile } from "./write.js";

/** VS Code's limit on the tools one chat request can use; more is a warning. */
export const DEFAULT_MAX_TOOLS = 128;

export interface OpenApiImportOptions {
  /** A file path (relative to cwd) or an http(s) URL. */
  readonly spec: string;
  /** The definitions folder. */
  readonly out: string;
  /** The generated output folder, whose index the handlers import. */
  readonly generated: string;
  /** The handlers module to write (its runtime goes beside it). */
  readonly handlers: string;
  /** The curation file (it need not exist). */
  readonly curation: string;
  readonly include?: readonly Selector[];
  readonly exclude?: readonly Selector[];
  readonly force?: boolean;
  readonly cwd?: string;
  /** Write nothing, only report. */
  readonly dryRun?: boolean;
  /** A local description may reference files outside its own folder. */
  readonly allowRefOutside?: boolean;
}

export interface WriteDecision extends RetryDecision {
  readonly tool: string;
  readonly method: string;
  readonly path: string;
}

function writeDecisions(tools: readonly OpenApiTool[]): WriteDecision[] {
  return tools.flatMap((t) =>
    t.retryDecision === undefined ? [] : [{ tool: t.name, method: t.operation.method.toUpperCase(), path: t.operation.path, ...t.retryDecision }],
  );
}

/** Which credentials an imported operation's handler sends, as the import report lists them. */
export interface CredentialUse {
  readonly tool: string;
  readonly method: string;
  readonly path: string;
  readonly credentials: string;
}

function credentialUses(tools: readonly OpenApiTool[]): CredentialUse[] {
  return tools.flatMap((t) =>
    t.credentials === undefined ? [] : [{ tool: t.name, method: t.operation.method.toUpperCase(), path: t.operation.path, credentials: t.credentials }],
  );
}

export interface OpenApiImportResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly problems: readonly Problem[];
  readonly conversions: Conversions;
  readonly operations: number;
  readonly selected: number;
  readonly tools: readonly OpenApiTool[];
  /** Every write among the operations imported (before grouping), with whether and why it is retried. */
  readonly writes: readonly WriteDecision[];
  /** Every operation imported (before grouping) with the credentials its handler sends; empty when the description declares no scheme. */
  readonly credentials: readonly CredentialUse[];
  readonly skipped: readonly string[];
  readonly written: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
  readonly aborted: boolean;
  readonly spec: ApiSpec | undefined;
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel.split("\\").join("/");
}

function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** The first word of the title: `GitHub v3 REST API` → github / GITHUB. */
function idOf(spec: ApiSpec, curation: Curation): { id: string; env: string } {
  const word = (spec.title.match(/[A-Za-z][A-Za-z0-9]*/)?.[0] ?? "api").toLowerCase();
  return { id: curation.id ?? word, env: curation.env ?? word.toUpperCase() };
}

function curatedSchemes(curated: Readonly<Record<string, CuratedScheme>> | undefined): Record<string, SecurityScheme> {
  const out: Record<string, SecurityScheme> = {};
  for (const [name, s] of Object.entries(curated ?? {})) {
    if (s.type === "apiKey") out[name] = { type: "apiKey", in: s.in, name: s.name };
    else if (s.type === "http") out[name] = { type: s.scheme };
    else out[name] = { type: "oauth2", tokenUrl: s.tokenUrl, clientCredentials: true };
  }
  return out;
}

/** Lower-case names of the parameters the operation's security schemes send. */
function schemeParameters(security: SecurityRequirements, schemes: Readonly<Record<string, SecurityScheme>>): Set<string> {
  const names = new Set<string>();
  for (const name of security.flat()) {
    const scheme = schemes[name];
    if (scheme?.type === "apiKey") names.add(scheme.name.toLowerCase());
  }
  return names;
}

function reportSchemes(spec: ApiSpec, report: Reporter): void {
  const base = spec.version === "2.0" ? "/securityDefinitions" : "/components/securitySchemes";
  for (const [name, scheme] of Object.entries(spec.securitySchemes)) {
    const at = pointerJoin(base, name);
    if (scheme.type === "unsupported")
      report.warn(at, `${scheme.why} is not one the handlers can apply (API key, bearer, basic, OAuth 2.0); calls go without it`);
    else if (scheme.type === "oauth2" && !scheme.clientCredentials)
      report.warn(at, "OAuth 2.0 without a client credentials flow: the handlers send a token from the environment, they cannot obtain one");
  }
}

/**
 * A scheme the description declares that no chosen operation applies (each
 * sets `security: []` or names others): its credentials are never sent,
 * which a user expecting them would otherwise learn from a 401.
 */
function reportUnusedSchemes(spec: ApiSpec, chosen: readonly Operation[], curation: Curation, report: Reporter): void {
  const used = new Set(chosen.flatMap((op) => (curation.security ?? op.security).flat()));
  const base = spec.version === "2.0" ? "/securityDefinitions" : "/components/securitySchemes";
  for (const [name, scheme] of Object.entries(spec.securitySchemes)) {
    if (used.has(name) || scheme.type === "unsupported" || chosen.length === 0) continue;
    report.warn(
      pointerJoin(base, name),
      `no operation applies security scheme ${JSON.stringify(name)} (each sets \`security: []\` or names another), so the handlers never send its credentials; if the API needs them, set \`security: [[${name}]]\` in the curation`,
    );
  }
}

/** A problem located in the curation file (`file:line:col`), printed like the spec's. */
export function curationProblem(where: string, message: string): Problem {
  return { severity: "warning", file: where, pointer: "", message };
}

/** The operation's entry in the curation, with the key it is under (its operationId or `METHOD /path`). */
function curationEntry(curation: Curation, op: Operation): { key: string; entry: OperationCuration } | undefined {
  const entries = curation.operations ?? {};
  for (const key of operationKeys(op)) if (Object.hasOwn(entries, key)) return { key, entry: entries[key]! };
  return undefined;
}

function curationFor(curation: Curation, op: Operation): OperationCuration | undefined {
  return curationEntry(curation, op)?.entry;
}

function unknownCurationKeys(curation: Curation, ops: readonly Operation[], locate: (p: readonly string[]) => string): Problem[] {
  const known = new Set(ops.flatMap(operationKeys));
  return Object.keys(curation.operations ?? {})
    .filter((key) => !known.has(key))
    .map((key) => curationProblem(locate(["operations", key]), `the curation names operation ${JSON.stringify(key)}, which the API description does not have`));
}

function toolCountWarning(count: number, max: number, report: Reporter): void {
  if (count <= max) return;
  report.warn(
    "",
    `${count} tools is more than ${max}${max === DEFAULT_MAX_TOOLS ? " (VS Code uses at most 128 tools per request)" : " (the curation's maxTools)"}; clients choose worse among many tools. Reduce them in the curation: \`include\`/\`exclude\` by tag, operation, path or method (or --include/--exclude), \`operations.<id>.exclude: true\`, or \`groups\` to serve several operations as one tool; set \`maxTools\` to change this limit`,
  );
}

function emptyResult(diagnostics: readonly Diagnostic[], problems: readonly Problem[], spec?: ApiSpec): OpenApiImportResult {
  return {
    diagnostics,
    problems,
    conversions: new Conversions(),
    operations: spec?.operations.length ?? 0,
    selected: 0,
    tools: [],
    writes: [],
    credentials: [],
    skipped: [],
    written: [],
    removed: [],
    unchanged: 0,
    aborted: true,
    spec,
  };
}

interface ToolsContext {
  readonly curation: Curation;
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  readonly converter: SchemaConverter;
  readonly conversions: Conversions;
  readonly marker: string;
  /** The prefix of the environment variables the handlers read. */
  readonly env: string;
  readonly file: string;
  /** Where a node of the curation file is, as `file:line:col`. */
  readonly locate: (path: readonly (string | number)[]) => string;
}

/** One tool per chosen operation; an operation with errors is skipped, its problems kept. */
function buildTools(chosen: readonly Operation[], ctx: ToolsContext): { tools: OpenApiTool[]; skipped: string[]; problems: Problem[] } {
  const names = assignNames(chosen, (op) => curationFor(ctx.curation, op)?.name);
  const tools: OpenApiTool[] = [];
  const skipped: string[] = [];
  const problems: Problem[] = [];
  for (const op of chosen) {
    const report = new Reporter(ctx.file);
    const { name, note } = names.get(op)!;
    if (note !== undefined) report.warn(op.pointer, note);
    const security = ctx.curation.security ?? op.security;
    const curated = curationEntry(ctx.curation, op);
    const curationWarning = (path: readonly (string | number)[], message: string) =>
      problems.push(curationProblem(ctx.locate(["operations", curated?.key ?? "", ...path]), message));
    const tool = buildTool({
      op,
      name,
      curation: curated?.entry ?? {},
      defaults: ctx.curation.defaults ?? {},
      security,
      schemes: ctx.schemes,
      envPrefix: ctx.env,
      sensitive: schemeParameters(security, ctx.schemes),
      converter: ctx.converter,
      conversions: ctx.conversions,
      report,
      curationWarning,
      marker: ctx.marker,
    });
    problems.push(...report.problems);
    if (tool) tools.push(note === undefined ? tool : { ...tool, notes: [...tool.notes, note] });
    else skipped.push(name);
  }
  return { tools, skipped, problems };
}

export async function importOpenApi(options: OpenApiImportOptions): Promise<OpenApiImportResult> {
  const cwd = options.cwd ?? process.cwd();
  const curationPath = resolve(cwd, options.curation);
  const curationDisplay = display(curationPath, cwd);
  const { loaded, diagnostics } = await loadCuration(curationPath, curationDisplay);
  if (!loaded) return emptyResult(diagnostics, []);
  const { curation } = loaded;
  const location = isUrl(options.spec) ? options.spec : resolve(cwd, options.spec);
  const specDisplay = isUrl(options.spec) ? options.spec : display(location, cwd);
  const docReport = new Reporter(specDisplay);
  const spec = await readSpec(location, docReport, { cwd, allowRefOutside: options.allowRefOutside ?? false });
  if (!spec) return emptyResult([], docReport.problems);

  const schemes = { ...spec.securitySchemes, ...curatedSchemes(curation.securitySchemes) };
  reportSchemes(spec, docReport);
  const curationProblems = unknownCurationKeys(curation, spec.operations, loaded.locate);
  const conversions = new Conversions();
  const converter = new SchemaConverter(spec, conversions, specDisplay);
  const include = [...(options.include ?? []), ...(curation.include ? [curation.include] : [])];
  const exclude = [...(options.exclude ?? []), ...(curation.exclude ? [curation.exclude] : [])];
  const chosen = spec.operations.filter((op) => selected(op, include, exclude, curationFor(curation, op)));
  reportUnusedSchemes(spec, chosen, curation, docReport);
  const { id, env } = idOf(spec, curation);
  const marker = `openapi ${id}; a re-import overwrites this file: curate it in ${curationDisplay}`;
  const built = buildTools(chosen, { curation, schemes, converter, conversions, marker, env, file: specDisplay, locate: loaded.locate });
  const grouped = buildGroups(built.tools, curation, loaded.locate, curationProblems, marker);
  toolCountWarning(grouped.length, curation.maxTools ?? DEFAULT_MAX_TOOLS, docReport);
  const skipped = [...built.skipped];
  const unwritable = new Reporter(specDisplay);
  const unwritten = new Set<OpenApiTool>();

  const problems = [...curationProblems, ...docReport.problems, ...converter.componentReport.problems, ...built.problems];
  const planned: PlannedFile[] | Problem[] = await planFiles({
    cwd,
    out: resolve(cwd, options.out),
    generated: resolve(cwd, options.generated),
    handlers: resolve(cwd, options.handlers),
    id,
    env,
    spec,
    specDisplay,
    schemes,
    tools: grouped,
    server: curation.server ?? spec.servers[0],
    force: options.force ?? false,
    unwritable: (tool, message) => {
      unwritable.error(tool.operation.pointer, `${tool.name}: ${message}`);
      unwritten.add(tool);
      skipped.push(tool.name);
    },
  });
  problems.push(...unwritable.problems);
  const tools = grouped.filter((t) => !unwritten.has(t));
  const hard = planned.some((p) => "severity" in p);
  const writes = writeDecisions(built.tools);
  const credentials = credentialUses(built.tools);
  if (hard)
    return { ...emptyResult([], [...problems, ...(planned as Problem[])], spec), conversions, selected: chosen.length, tools, writes, credentials, skipped };
  const files = planned as PlannedFile[];
  const outcome = options.dryRun ? { written: [], removed: [], unchanged: files.length } : writePlanned(files, cwd);
  return {
    diagnostics: [],
    problems,
    conversions,
    operations: spec.operations.length,
    selected: chosen.length,
    tools,
    writes,
    credentials,
    skipped,
    ...outcome,
    aborted: false,
    spec,
  };
}
