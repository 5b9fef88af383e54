/**
 * `toolc import openapi SPEC [...]`: prints every problem with its location,
 * a summary of what was converted, and one line of what was written. Exit
 * status 1 on any error, 2 on bad usage.
 */
import { writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { type Io, workingDirectory } from "../../commands/io.js";
import { formatDiagnostic } from "../../diagnostics.js";
import { resolveSettings } from "../../config/settings.js";
import { definitionsFolder } from "../cli.js";
import { formatProblem } from "../problems.js";
import type { Selector } from "./curation.js";
import { importOpenApi, type OpenApiImportResult } from "./index.js";
import { reportMarkdown } from "./report-file.js";

export const OPENAPI_USAGE = `Usage: toolc import openapi SPEC [options]

SPEC is an OpenAPI 3.0 or 3.1, or Swagger 2.0, description: a file (JSON or YAML) or an
http(s) URL. One contract is written per operation (unless the curation groups them), and
a handlers module that calls the API with fetch.

Options:
  --curation FILE     the curation file (default: openapi.curation.yaml); never written by the import
  --include SEL       only operations that match (repeatable): tag:NAME, op:OPERATION_ID,
                      path:GLOB (* within a segment, ** across), method:GET
  --exclude SEL       not the operations that match (repeatable; same forms)
  --definitions DIR   where the contracts go (default: \`definitions\` of toolc.config.yaml, else definitions);
                      --out DIR is its old name, still read, with a warning
  --handlers-out FILE the handlers module (default: openapi-handlers.ts beside the output folder);
                      its runtime, openapi-http.ts, goes beside it
  --report FILE       also write every conversion and problem, per field, as Markdown
  --force             overwrite contract files that another import or a person wrote
  --dry-run           write nothing; report what would happen
  --allow-ref-outside let a local description's $refs read files outside its folder (never for a URL)
  --config FILE       read this config file instead of looking for toolc.config.yaml
`;

function selectors(values: readonly string[] | undefined, flag: string): Selector | string {
  const selector: { tags: string[]; operations: string[]; paths: string[]; methods: string[] } = { tags: [], operations: [], paths: [], methods: [] };
  for (const value of values ?? []) {
    const match = /^(tag|op|path|method):(.+)$/.exec(value);
    if (!match) return `${flag} ${JSON.stringify(value)}: expected tag:NAME, op:OPERATION_ID, path:GLOB or method:METHOD`;
    const list = { tag: selector.tags, op: selector.operations, path: selector.paths, method: selector.methods }[match[1] as "tag"];
    list.push(match[2]!);
  }
  return selector;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function summary(result: OpenApiImportResult, out: string): string {
  const errors = result.problems.filter((p) => p.severity === "error").length + result.diagnostics.length;
  const warnings = result.problems.length - result.problems.filter((p) => p.severity === "error").length;
  const tail = `${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  const read = `${plural(result.operations, "operation")} read, ${result.selected} selected`;
  if (result.aborted) return `toolc import openapi: ${read}; nothing was written (${tail})\n`;
  const skipped = result.skipped.length > 0 ? `, ${result.skipped.length} skipped` : "";
  const files = `${plural(result.written.length, "file")} written, ${result.unchanged} unchanged, ${result.removed.length} removed`;
  return `toolc import openapi: ${read}; ${plural(result.tools.length, "tool")} into ${out}${skipped}; ${files} (${tail})\n`;
}

function conversionLine(result: OpenApiImportResult): string {
  const counts = result.conversions.counts();
  if (counts.length === 0) return "";
  return `converted: ${counts.map(([kind, n]) => `${kind} ${n}`).join(", ")}\n`;
}

async function configured(config: string | undefined, io: Io): Promise<{ definitions: string; out: string } | undefined> {
  const cwd = workingDirectory(io);
  const resolved = await resolveSettings(cwd, config === undefined ? {} : { config });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) io.err(`toolc import: ${resolved.usage}\n`);
  if (!resolved.settings) return undefined;
  const rel = (p: string) => relative(cwd, p).split(sep).join("/") || ".";
  return { definitions: rel(resolved.settings.definitions), out: rel(resolved.settings.out) };
}

/** A fault of the import itself (not of the description, whose problems are located): one line, never a stack trace. */
function importFailed(io: Io): (e: unknown) => undefined {
  return (e) => void io.err(`toolc import openapi: the import failed: ${e instanceof Error ? e.message : String(e)}\n`);
}

export async function importOpenApiCommand(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        curation: { type: "string" },
        include: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        definitions: { type: "string" },
        out: { type: "string" },
        "allow-ref-outside": { type: "boolean" },
        "handlers-out": { type: "string" },
        report: { type: "string" },
        force: { type: "boolean" },
        "dry-run": { type: "boolean" },
        config: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    io.err(`toolc import openapi: ${e instanceof Error ? e.message : String(e)}\n\n${OPENAPI_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) return (io.out(OPENAPI_USAGE), 0);
  if (positionals.length !== 1) return (io.err(`toolc import openapi: expected one SPEC, got ${positionals.length}\n\n${OPENAPI_USAGE}`), 2);
  const include = selectors(values.include, "--include");
  const exclude = selectors(values.exclude, "--exclude");
  for (const s of [include, exclude]) if (typeof s === "string") return (io.err(`toolc import openapi: ${s}\n`), 2);
  const named = definitionsFolder(values, "toolc import openapi", io);
  if (named === false) return 2;
  const folders = await configured(values.config, io);
  if (!folders) return 1;
  const cwd = workingDirectory(io);
  const out = named ?? folders.definitions;
  const handlers = values["handlers-out"] ?? join(dirname(folders.out), "openapi-handlers.ts");
  const result = await importOpenApi({
    spec: positionals[0]!,
    out,
    generated: folders.out,
    handlers,
    curation: values.curation ?? "openapi.curation.yaml",
    include: [include as Selector],
    exclude: [exclude as Selector],
    force: values.force ?? false,
    dryRun: values["dry-run"] ?? false,
    allowRefOutside: values["allow-ref-outside"] ?? false,
    cwd,
  }).catch(importFailed(io));
  if (result === undefined) return 1;
  for (const d of result.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  for (const problem of result.problems) io.err(`${formatProblem(problem)}\n`);
  if (values.report !== undefined) writeFileSync(resolve(cwd, values.report), reportMarkdown(result));
  io.out(conversionLine(result));
  io.out(summary(result, out));
  return result.diagnostics.length > 0 || result.problems.some((p) => p.severity === "error") ? 1 : 0;
}
