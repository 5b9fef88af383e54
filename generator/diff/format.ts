/**
 * The report of a diff in each output format: text for a terminal, JSON for
 * tools, GitHub workflow annotations, and a Markdown table for a pull
 * request comment.
 */
/* eslint-disable no-control-regex -- oneLine escapes control characters and markdownText drops them */
import type { Change, DiffResult } from "./index.js";
import type { Level } from "./rules.js";

export const FORMATS = ["text", "json", "github", "markdown"] as const;
export type Format = (typeof FORMATS)[number];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function counts(changes: readonly Change[]): Record<Level, number> {
  const out: Record<Level, number> = { breaking: 0, undecided: 0, warning: 0, info: 0 };
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
  const head = `toolc diff: ${c.breaking} breaking, ${c.undecided} undecided, ${plural(c.warning, "warning")}, ${c.info} info`;
  if (result.unversioned.length === 0) return `${head}\n`;
  return `${head}; ${result.undecidedFails ? "breaking or undecided" : "breaking"} without a version bump: ${result.unversioned.join(", ")}\n`;
}

/**
 * Control characters shown as escapes: a name or value with a line break in
 * it must not start a line of its own (in a CI log, a line starting with
 * `::` is a workflow command).
 */
const oneLine = (s: string): string =>
  s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

const LEVEL_RANK: Record<Level, number> = { breaking: 0, undecided: 1, warning: 2, info: 3 };

/**
 * The changes a reader must act on first: breaking, then undecided, warning and info, each in
 * location order (a stable sort of the result's own order). JSON and github keep location order:
 * tools and annotations do not read top-down.
 */
function mostSevereFirst(changes: readonly Change[]): Change[] {
  return [...changes].sort((a, b) => LEVEL_RANK[a.level] - LEVEL_RANK[b.level]);
}

function text(result: DiffResult): string {
  const lines = mostSevereFirst(result.changes).map((c) => oneLine(`${c.file}:${c.line}:${c.col}: ${c.level} ${c.rule}: ${subject(c)}: ${c.message}`) + "\n");
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
    ...(c.views === undefined ? {} : { views: c.views }),
  }));
  return `${JSON.stringify({ changes, unversioned: result.unversioned, summary: counts(result.changes) }, null, 2)}\n`;
}

/** Workflow command escaping, as the GitHub Actions toolkit does it. */
const escapeData = (s: string): string => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
const COMMAND: Record<Level, string> = { breaking: "error", undecided: "warning", warning: "warning", info: "notice" };

function github(result: DiffResult): string {
  const lines = result.changes.map((c) => {
    const props = `file=${escapeProperty(c.file)},line=${c.line},col=${c.col},title=${escapeProperty(`${c.level}: ${c.rule}`)}`;
    return `::${COMMAND[c.level]} ${props}::${escapeData(`${subject(c)}: ${c.message}`)}\n`;
  });
  return lines.join("") + summaryLine(result);
}

/**
 * Text as plain text in a GitHub-flavoured Markdown table cell: every
 * character that opens something inside a line (a code span, emphasis,
 * strikethrough, a link or image, HTML, an entity, a cell border) is
 * backslash-escaped, as CommonMark allows for any ASCII punctuation, so names
 * and values cannot open one; `@` and `#` get a word joiner after them, so no
 * mention or issue link is made, and URLs are broken up so none is linked;
 * line breaks become spaces.
 */
export function markdownText(s: string): string {
  return s
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[\\`*_[\]<>!|~&#]/g, (c) => `\\${c}`)
    .replace(/@/g, "@\u2060")
    .replace(/\\#/g, "\\#\u2060")
    .replace(/:\/\//g, ":\u2060//")
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u2060.`);
}

function markdown(result: DiffResult): string {
  if (result.changes.length === 0) return "**toolc diff**: no contract changes.\n";
  const c = counts(result.changes);
  const rows = mostSevereFirst(result.changes).map(
    (ch) => `| ${ch.level} | \`${ch.rule}\` | ${markdownText(subject(ch))} | ${markdownText(ch.message)} | ${markdownText(`${ch.file}:${ch.line}`)} |`,
  );
  const what = result.undecidedFails ? "Breaking or undecided" : "Breaking";
  const bump = result.unversioned.length === 0 ? "" : `\n\n${what} without a version bump: ${result.unversioned.map(markdownText).join(", ")}.`;
  return [
    `**toolc diff**: ${c.breaking} breaking, ${c.undecided} undecided, ${plural(c.warning, "warning")}, ${c.info} info.${bump}`,
    "",
    "| level | rule | where | change | at |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
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
