/**
 * `toolc docs [--out DIR] [--base BASE]... [--title TEXT] [--definitions DIR] [--config FILE]`:
 * writes the tool catalog once, all at once or not at all, as `generate`
 * writes its output. With `docs.out` in the config, `generate` and `check`
 * keep the same catalog fresh; this command is for writing it alone, or
 * somewhere else.
 */
import { relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { argsError } from "../commands/usage.js";
import type { Io } from "../commands/io.js";
import { plural } from "../commands/generate.js";
import { DEFAULT_DOCS_TITLE, layoutProblems, resolveSettings, type DocsSettings, type Settings } from "../config/settings.js";
import { Codes, formatDiagnostic, hasErrors } from "../diagnostics.js";
import { applyOutput, WriteError } from "../write/apply.js";
import { planOutput } from "../write/output.js";
import { baseIdentities, definitionsIn } from "../targets/catalog/bases.js";
import { planOf } from "../plan/index.js";
import { catalogFiles } from "../targets/catalog/catalog.js";

/** Where the catalog goes when neither --out nor `docs.out` says. */
export const DEFAULT_DOCS_OUT = "docs/catalog";

const USAGE = `Usage: toolc docs [--out DIR] [--base BASE]... [--title TEXT] [--definitions DIR] [--config FILE]

Writes the tool catalog: an index of the tools (search, and a filter by effect), a page per
tool (its schemas as tables, the served JSON Schemas, examples, rejections, retry and timeout),
the named types, a changelog against each BASE, every page again as Markdown, and llms.txt.
The pages need nothing else: open index.html from disk or put the folder on any static host.

With \`docs: { out: DIR }\` in toolc.config.yaml, \`toolc generate\` writes the same catalog
and \`toolc check\` fails when the committed one is stale.

Options:
  --out DIR          the catalog's folder (default: docs.out from the config, else ${DEFAULT_DOCS_OUT})
  --base BASE        a changelog release: the changes since BASE (git:REF or a folder of
                     definitions); repeat for older releases, newest first (default: docs.changelog)
  --title TEXT       the catalog's title (default: docs.title, else "${DEFAULT_DOCS_TITLE}")
  --definitions DIR  the contracts (default: definitions)
  --config FILE      the config file (default: toolc.config.yaml, if present)
`;

const OPTIONS = {
  out: { type: "string" },
  base: { type: "string", multiple: true },
  title: { type: "string" },
  definitions: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** The catalog's settings: the flags over `docs` in the config over the defaults. */
function docsSettings(values: Values, settings: Settings, cwd: string): DocsSettings {
  const configured = settings.docs;
  const bases = values.base ?? [];
  return {
    out: values.out === undefined ? (configured?.out ?? resolve(settings.root, DEFAULT_DOCS_OUT)) : resolve(cwd, values.out),
    title: values.title ?? configured?.title ?? DEFAULT_DOCS_TITLE,
    // A folder flag is taken from the working directory, and named from the project folder, as the config names it.
    changelog: bases.length > 0 ? bases.map((base) => ({ base: base.startsWith("git:") ? base : relative(settings.root, resolve(cwd, base)).split(sep).join("/") || "." })) : (configured?.changelog ?? []),
  };
}

async function writeCatalog(settings: Settings, docs: DocsSettings, io: Io, cwd: string, ofConfig: boolean): Promise<number> {
  const display = (path: string): string => relative(cwd, path).split(sep).join("/") || ".";
  // The catalog of the plan, with this command's folder, title and bases: the same normalize options as generate's.
  const target = planOf(settings, cwd, docs);
  const bases = baseIdentities(docs.changelog, definitionsIn(settings.root, settings.definitions), settings.root, settings.configFile);
  const problems = [...target.diagnostics, ...bases.diagnostics];
  for (const d of problems) io.err(`${formatDiagnostic(d)}\n`);
  const catalogTarget = target.plan?.catalog;
  if (!catalogTarget || problems.length > 0) return io.err("toolc docs: nothing was written\n"), 1;
  const catalog = await catalogFiles(catalogTarget, settings.definitions);
  for (const d of catalog.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (!catalog.files || hasErrors(catalog.diagnostics)) return io.err(`toolc docs: ${plural(catalog.diagnostics.filter((d) => d.severity === "error").length, "error")}; nothing was written\n`), 1;
  const layout = { out: docs.out };
  const plan = planOutput(catalog.files, layout);
  try {
    applyOutput(plan, layout);
  } catch (e) {
    if (!(e instanceof WriteError)) throw e;
    io.err(`${formatDiagnostic({ file: e.path, line: 1, col: 1, code: Codes.writeFailed, message: `cannot write: ${e.reason}`, severity: "error" })}\n`);
    return io.err("toolc docs: could not write the catalog; nothing was changed\n"), 1;
  }
  for (const path of plan.foreign) io.err(`toolc: warning: ${display(path)} was not written by toolc; toolc owns the catalog's folder\n`);
  const written = plan.added.length + plan.changed.length;
  io.out(`toolc docs: ${plural(catalog.tools, "tool")}; ${plural(written, "file")} written, ${plan.unchanged.length} unchanged, ${plan.stale.length} removed, in ${display(docs.out)}\n`);
  const fromConfig = relative(settings.root, docs.out).split(sep).join("/") || ".";
  // The config's catalog is of the config's definitions: no hint for a catalog of others.
  if (ofConfig && settings.docs?.out !== docs.out) io.err(`toolc docs: to keep this catalog fresh with \`toolc generate\` and \`toolc check\`, set \`docs: { out: ${fromConfig} }\` in toolc.config.yaml\n`);
  return 0;
}

export async function docsCommand(argv: readonly string[], io: Io, cwd: string): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS }).values;
  } catch (e) {
    return io.err(`toolc docs: ${argsError(e, OPTIONS)}\n\n${USAGE}`), 2;
  }
  if (values.help) return io.out(USAGE), 0;
  if (values.title === "") return io.err(`toolc docs: --title must not be empty\n`), 2;
  const resolved = await resolveSettings(cwd, { ...(values.config === undefined ? {} : { config: values.config }), ...(values.definitions === undefined ? {} : { definitions: values.definitions }) });
  for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  if (resolved.usage !== undefined) return io.err(`toolc docs: ${resolved.usage}\n`), 2;
  if (!resolved.settings) return io.err("toolc: the config file has errors; nothing was written\n"), 1;
  const settings = resolved.settings;
  // Other contracts than the config's get a catalog of their own: the config's (and the default) folder is not theirs to overwrite.
  if (values.definitions !== undefined && values.out === undefined)
    return io.err(`toolc docs: --definitions names other contracts than the config's; say where their catalog goes with --out\n`), 2;
  const docs = docsSettings(values, settings, cwd);
  const display = (p: string): string => relative(cwd, p).split(sep).join("/") || ".";
  const clash = layoutProblems(settings.root, { value: settings.definitions }, { value: settings.out }, settings.tests === undefined ? undefined : { value: settings.tests }, display, { value: docs.out });
  if (clash.usage.length > 0) return io.err(`toolc docs: ${clash.usage.join("\n")}\n`), 2;
  return writeCatalog(settings, docs, io, cwd, values.definitions === undefined);
}
