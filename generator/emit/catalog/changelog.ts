/**
 * The changelog: per release, the changes `toolc diff` found (generator/diff,
 * whose rules decide every level; nothing is judged again here), grouped by
 * the tool they affect, breaking first, then warnings, then info.
 */
import type { Change, DiffResult } from "../../diff/index.js";
import type { Direction, Level } from "../../diff/rules.js";
import type { Catalog, CatalogRelease } from "./context.js";
import { idAllocator } from "./context.js";
import { badge, code, joined, link, text, type Block, type Inline, type Page, type Row, type Tone } from "./model.js";

// Undecided sits beside breaking: toolc diff could not prove the change safe, and `diff.undecided: fail` makes it fail CI.
const LEVEL_RANK: Readonly<Record<Level, number>> = { breaking: 0, undecided: 1, warning: 2, info: 3 };
const LEVEL_TONE: Readonly<Record<Level, Tone>> = { breaking: "breaking", undecided: "warning", warning: "warning", info: "info" };
const LEVELS = (Object.keys(LEVEL_RANK) as Level[]).sort((a, b) => LEVEL_RANK[a] - LEVEL_RANK[b]);

export interface ToolChange {
  readonly change: Change;
  /** The level for this tool (a change in a shared type can break one tool and not another). */
  readonly level: Level;
  readonly direction: Direction;
}

/** Each affected tool's changes, tools by name, each tool's changes by level and then as the diff ordered them. */
export function changesByTool(result: DiffResult): Map<string, ToolChange[]> {
  const out = new Map<string, ToolChange[]>();
  for (const change of result.changes) {
    for (const a of change.affects) {
      const list = out.get(a.tool) ?? [];
      if (!list.some((c) => c.change === change)) list.push({ change, level: a.level, direction: a.direction });
      out.set(a.tool, list);
    }
  }
  for (const list of out.values()) list.sort((a, b) => LEVEL_RANK[a.level] - LEVEL_RANK[b.level]);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const levelBadge = (level: Level): Inline => badge(level, LEVEL_TONE[level]);

/** The release's heading: `Since v1.2.0`, or `v1.3.0 (since v1.2.0)`. */
export function releaseTitle(release: CatalogRelease): string {
  return release.head === undefined ? `Since ${release.base}` : `${release.head} (since ${release.base})`;
}

/** Where in the contracts a change is: the field, the named type, or the tool itself. */
export function whereCell(c: ToolChange): Inline[] {
  if (c.change.type !== undefined) return [text("type "), code(c.change.field ?? c.change.type), text(` (${c.direction})`)];
  return c.change.field === undefined ? [text("the tool")] : [code(c.change.field)];
}

function countsLine(result: DiffResult): Inline[] {
  const counts = LEVELS.map((level) => {
    const n = result.changes.filter((c) => c.level === level).length;
    return [badge(`${n} ${level}${level === "warning" && n !== 1 ? "s" : ""}`, LEVEL_TONE[level])];
  });
  const unversioned =
    result.unversioned.length === 0
      ? []
      : [
          text(". Breaking without a version bump: "),
          ...joined(
            result.unversioned.map((t) => [code(t)]),
            ", ",
          ),
          text("."),
        ];
  return [...joined(counts, " "), ...unversioned];
}

function toolHeading(catalog: Catalog, tool: string): Inline[] {
  const page = catalog.toolPage(tool);
  return page === undefined ? [code(tool), text(" (no longer in the contracts)")] : [link(tool, { page }, { code: true })];
}

const CHANGE_COLUMNS = ["Level", "Change", "Where", "Rule", "Contract"];

function changeRow(c: ToolChange): Row {
  return { cells: [[levelBadge(c.level)], [text(c.change.message)], whereCell(c), [code(c.change.rule)], [code(`${c.change.file}:${c.change.line}`)]] };
}

function releaseBlocks(catalog: Catalog, release: CatalogRelease, id: (words: string) => string): Block[] {
  if (release.result === undefined) return [{ kind: "paragraph", content: [badge("not compared", "warning"), text(` ${release.problem}`)] }];
  if (release.result.changes.length === 0) return [{ kind: "paragraph", content: [text("No contract changes.")] }];
  const tools = [...changesByTool(release.result)].map(([tool, changes]): Block => ({
    kind: "section",
    id: id(tool),
    level: 3,
    title: toolHeading(catalog, tool),
    blocks: [
      { kind: "table", role: "plain", label: `${tool}: changes ${releaseTitle(release).toLowerCase()}`, columns: CHANGE_COLUMNS, rows: changes.map(changeRow) },
    ],
  }));
  return [{ kind: "paragraph", content: countsLine(release.result) }, ...tools];
}

/** The changelog's anchors: each release's, then each tool's within it, in page order (as the Markdown headings are numbered). */
export function releaseAnchors(catalog: Catalog): { release: string; tools: Map<string, string> }[] {
  const id = idAllocator();
  return catalog.options.releases.map((release) => {
    const anchor = id(releaseTitle(release));
    const tools = new Map([...(release.result ? changesByTool(release.result).keys() : [])].map((tool) => [tool, id(tool)]));
    return { release: anchor, tools };
  });
}

export function changelogPage(catalog: Catalog): Page {
  const anchors = releaseAnchors(catalog);
  const sections = catalog.options.releases.map((release, i): Block => {
    const own = anchors[i];
    const toolIds = own?.tools ?? new Map<string, string>();
    return {
      kind: "section",
      id: own?.release ?? "",
      level: 2,
      title: [text(releaseTitle(release))],
      blocks: releaseBlocks(catalog, release, (tool) => toolIds.get(tool) ?? tool),
    };
  });
  const intro: Block = {
    kind: "paragraph",
    content: [
      text("What changed in the contracts, release by release, as "),
      code("toolc diff"),
      text(" reports it. Breaking: a caller built against the older contracts can fail. Warning: compatible, but worth a look. Info: compatible."),
    ],
  };
  return { id: "changelog", title: "Changelog", badges: [], blocks: [intro, ...sections] };
}
