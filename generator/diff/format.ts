/**
 * The report of a diff in each output format: text for a terminal, JSON for
 * tools, GitHub workflow annotations, and a Markdown table for a pull
 * request comment.
 */
import type { Change, DiffResult } from "./index.js";
import type { Level } from "./rules.js";

export const FORMATS = ["text", "json", "github", "markdown"] as const;
export type Format = (typeof FORMATS)[number];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function counts(changes: readonly Change[]): Record<Level, number> {
  const out: Record<Level, number> = { breaking: 0, warning: 0, info: 0 };
  for (const c of changes) out[c.level]++;
  return out;
}

/** Who a change affects: `get_order output` for one, the full list with levels for a shared type. */
export function subject(change: Change): string {
  if (change.type !== undefined) {
    const list = change.affects.map((a) => `${a.tool} ${a.direction}${a.level === change.level ? "" : ` (${a.level})`}`).join(", ");
    return `type ${change.field ?? change.type} (affects ${list})`;
  }
  const only = change.affects[0];
  if (only === undefined) return "";
  return change.field === undefined ? only.tool : `${only.tool} ${change.field}`;
}

export function summaryLine(result: DiffResult): string {
  const c = counts(result.changes);
  if (result.changes.length === 0) return "toolc diff: no changes\n";
  const head = `toolc diff: ${c.breaking} breaking, ${plural(c.warning, "warning")}, ${c.info} info`;
  if (result.unversioned.length === 0) return `${head}\n`;
  return `${head}; breaking without a version bump: ${result.unversioned.join(", ")}\n`;
}

function text(result: DiffResult): string {
  const lines = result.changes.map((c) => `${c.file}:${c.line}:${c.col}: ${c.level} ${c.rule}: ${subject(c)}: ${c.message}\n`);
  return lines.join("") + summaryLine(result);
}

function json(result: DiffResult): string {
  const changes = result.changes.map((c) => ({
    // The most affected tool and its direction; `affects` lists every one, for a change in a shared type.
    tool: c.affects[0]?.tool,
    direction: c.affects[0]?.direction,
    file: c.file,
    line: c.line,
    col: c.col,
    level: c.level,
    rule: c.rule,
    message: c.message,
    ...(c.field === undefined ? {} : { field: c.field }),
    ...(c.type === undefined ? {} : { type: c.type }),
    affects: c.affects,
  }));
  return `${JSON.stringify({ changes, unversioned: result.unversioned, summary: counts(result.changes) }, null, 2)}\n`;
}

/** Workflow command escaping, as the GitHub Actions toolkit does it. */
const escapeData = (s: string): string => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
const COMMAND: Record<Level, string> = { breaking: "error", warning: "warning", info: "notice" };

function github(result: DiffResult): string {
  const lines = result.changes.map((c) => {
    const props = `file=${escapeProperty(c.file)},line=${c.line},col=${c.col},title=${escapeProperty(`${c.level}: ${c.rule}`)}`;
    return `::${COMMAND[c.level]} ${props}::${escapeData(`${subject(c)}: ${c.message}`)}\n`;
  });
  return lines.join("") + summaryLine(result);
}

const cell = (s: string): string => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ");

function markdown(result: DiffResult): string {
  if (result.changes.length === 0) return "**toolc diff**: no contract changes.\n";
  const c = counts(result.changes);
  const rows = result.changes.map((ch) => `| ${ch.level} | \`${ch.rule}\` | ${cell(subject(ch))} | ${cell(ch.message)} | \`${cell(`${ch.file}:${ch.line}`)}\` |`);
  const bump = result.unversioned.length === 0 ? "" : `\n\nBreaking without a version bump: ${result.unversioned.map((t) => `\`${cell(t)}\``).join(", ")}.`;
  return [`**toolc diff**: ${c.breaking} breaking, ${plural(c.warning, "warning")}, ${c.info} info.${bump}`, "", "| level | rule | where | change | at |", "| --- | --- | --- | --- | --- |", ...rows, ""].join("\n");
}

export function formatReport(result: DiffResult, format: Format): string {
  switch (format) {
    case "json":
      return json(result);
    case "github":
      return github(result);
    case "markdown":
      return markdown(result);
    default:
      return text(result);
  }
}
