/**
 * The Markdown rendering of a catalog page, for wikis and for agents: the
 * same pages, with links between the `.md` files. Text from a contract goes
 * through escape.ts, so it is literal text, a code span or a fenced block.
 */
import type { JsonValue } from "../../ir.js";
import { htmlComment, markdownCode, markdownFence, markdownText } from "./escape.js";
import { hrefOf, type SiteFrame } from "./html.js";
import { flattenMarkdown, parseMarkdown, type MdBlock, type MdInline } from "./markdown-subset.js";
import { withoutEmptyColumns, type Block, type Inline, type Page, type Row, type Tone } from "./model.js";

const GLYPHS: Partial<Record<Tone, string>> = { write: "✎ ", destructive: "⚠ ", breaking: "⚠ " };

interface Context {
  readonly page: Page;
  readonly inTable: boolean;
}

/** A link target, with `(`, `)`, `|`, `\\` and spaces percent-encoded so it cannot end the link or a table cell. */
function target(href: string): string {
  return href.replace(/[()\s<>|\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** A description's Markdown subset written again as Markdown: what it formats in the same way, every other character escaped. */
function mdInline(piece: MdInline, inTable: boolean): string {
  const children = (pieces: readonly MdInline[]): string => pieces.map((p) => mdInline(p, inTable)).join("");
  switch (piece.kind) {
    case "text":
      return markdownText(piece.text);
    case "code":
      return markdownCode(piece.text, { inTable });
    case "em":
      return `*${children(piece.children)}*`;
    case "strong":
      return `**${children(piece.children)}**`;
    case "link":
      return `[${children(piece.children)}](${target(piece.href)})`;
  }
}

/** A description as Markdown: its Markdown subset written again, everything else escaped. */
export function markdownMarkdown(source: string): string {
  return parseMarkdown(source).map(mdBlock).join("\n\n");
}

function mdBlock(block: MdBlock): string {
  switch (block.kind) {
    case "paragraph":
      return block.content.map((p) => mdInline(p, false)).join("");
    case "code":
      return markdownFence(block.text, "");
    case "list":
      return block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : "-"} ${item.map((p) => mdInline(p, false)).join("")}`).join("\n");
  }
}

function inlineMd(ctx: Context, piece: Inline): string {
  const code = (value: string): string => markdownCode(value, { inTable: ctx.inTable });
  switch (piece.kind) {
    case "text":
      return markdownText(piece.text);
    case "code":
      return code(piece.text);
    case "link":
      return `[${piece.code ? code(piece.text) : markdownText(piece.text)}](${target(hrefOf(ctx.page.id, piece.to, ".md"))})`;
    case "badge":
      return `**${GLYPHS[piece.tone] ?? ""}${markdownText(piece.text)}**`;
    case "markdown":
      return flattenMarkdown(parseMarkdown(piece.text))
        .map((p) => mdInline(p, ctx.inTable))
        .join("");
  }
}

const inlines = (ctx: Context, pieces: readonly Inline[]): string => pieces.map((p) => inlineMd(ctx, p)).join("");

function rowMd(ctx: Context, row: Row): string {
  const cells = row.cells.map((cell, i) => {
    const content = inlines(ctx, cell);
    if (i !== 0 || row.trail === undefined || row.trail.length === 0) return content;
    return `${row.trail.map((label) => inlines(ctx, label)).join(" › ")} › ${content}`;
  });
  return `| ${cells.map((c) => c || " ").join(" | ")} |`;
}

function tableMd(ctx: Context, table: Extract<Block, { kind: "table" }>): string {
  const block = withoutEmptyColumns(table);
  const cellCtx = { ...ctx, inTable: true };
  const head = `| ${block.columns.map((c) => markdownText(c)).join(" | ")} |\n| ${block.columns.map(() => "---").join(" | ")} |`;
  return [head, ...block.rows.map((r) => rowMd(cellCtx, r))].join("\n");
}

function jsonMd(block: Extract<Block, { kind: "json" }>): string {
  return `${markdownText(block.label)}:\n\n${markdownFence(JSON.stringify(block.value as JsonValue, null, 2), "json")}`;
}

function blockMd(ctx: Context, block: Block): string | undefined {
  switch (block.kind) {
    case "paragraph":
      return inlines(ctx, block.content);
    case "markdown":
      return markdownMarkdown(block.text);
    case "facts":
      return block.items.map((f) => `- **${markdownText(f.label)}:** ${inlines(ctx, f.value)}`).join("\n");
    case "list":
      return block.items.map((item) => `- ${inlines(ctx, item)}`).join("\n");
    case "table":
      return block.rows.length === 0 ? undefined : tableMd(ctx, block);
    case "json":
      return jsonMd(block);
    case "tool-filter":
      return undefined;
    case "section": {
      const inner = block.blocks.map((b) => blockMd(ctx, b)).filter((b): b is string => b !== undefined);
      return [`${"#".repeat(block.level)} ${inlines(ctx, block.title)}`, ...inner].join("\n\n");
    }
  }
}

export function renderMarkdown(page: Page, frame: SiteFrame): string {
  const ctx: Context = { page, inTable: false };
  const badges = page.badges.length > 0 ? ` ${page.badges.map((b) => inlineMd(ctx, b)).join(" ")}` : "";
  const nav = frame.nav
    .map((item) =>
      item.page === page.id ? `**${markdownText(item.label)}**` : `[${markdownText(item.label)}](${target(hrefOf(page.id, { page: item.page }, ".md"))})`,
    )
    .join(" · ");
  const blocks = page.blocks.map((b) => blockMd(ctx, b)).filter((b): b is string => b !== undefined);
  return `${[htmlComment(frame.header), nav, `# ${markdownText(page.title)}${badges}`, ...blocks].join("\n\n")}\n`;
}
