/**
 * The HTML rendering of a catalog page. All markup is made by `html`
 * (escape.ts), which escapes every value put into it, so text from a
 * contract can only ever be text. Links are relative, so the catalog works
 * from any folder, `file://` included.
 */
import type { JsonValue } from "../../ir.js";
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from "./assets.js";
import { breakable, fragment, html, Html, htmlComment } from "./escape.js";
import { flattenMarkdown, parseMarkdown, type MdBlock, type MdInline } from "./markdown-subset.js";
import { withoutEmptyColumns, type Block, type Inline, type Page, type PageId, type Row, type Target, type Tone } from "./model.js";

export interface SiteFrame {
  readonly title: string;
  /** The pages the header links to, in order. */
  readonly nav: readonly { readonly label: string; readonly page: PageId }[];
  /** The generated-by line, also written as the first comment. */
  readonly header: string;
  /** Links to files that are not pages (llms.txt), from the catalog's root. */
  readonly files: readonly { readonly label: string; readonly path: string }[];
}

/** The path from `from`'s folder to the catalog root: `../` for a tool page. */
function rootOf(from: PageId): string {
  return "../".repeat(from.split("/").length - 1);
}

export function hrefOf(from: PageId, to: Target, extension: string): string {
  const path = to.page === from ? "" : `${rootOf(from)}${to.page}${extension}`;
  return `${path}${to.anchor === undefined ? "" : fragment(to.anchor)}` || fragment("toolc-main");
}

/** A name, path or URL in code, with a line-break opportunity after each separator and at each camelCase hump, so a long one wraps between its words. */
function codeHtml(value: string): Html {
  return html`<code>${breakable(value)}</code>`;
}

function mdInlineHtml(piece: MdInline): Html {
  switch (piece.kind) {
    case "text":
      return html`${piece.text}`;
    case "code":
      return codeHtml(piece.text);
    case "em":
      return html`<em>${piece.children.map(mdInlineHtml)}</em>`;
    case "strong":
      return html`<strong>${piece.children.map(mdInlineHtml)}</strong>`;
    case "link":
      return html`<a href="${piece.href}" rel="nofollow noopener noreferrer">${piece.children.map(mdInlineHtml)}</a>`;
  }
}

function mdBlockHtml(block: MdBlock): Html {
  switch (block.kind) {
    case "paragraph":
      return html`<p>${block.content.map(mdInlineHtml)}</p>`;
    case "code":
      return html`<pre class="md-code"><code>${block.text}</code></pre>`;
    case "list": {
      const items = block.items.map((item) => html`<li>${item.map(mdInlineHtml)}</li>`);
      return block.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
    }
  }
}

/** A description as HTML: its Markdown subset as elements, everything else escaped text. */
export function markdownHtml(source: string): Html {
  return html`${parseMarkdown(source).map(mdBlockHtml)}`;
}

const GLYPHS: Partial<Record<Tone, string>> = { write: "✎", destructive: "⚠", breaking: "⚠" };

function badgeHtml(value: string, tone: Tone): Html {
  const glyph = GLYPHS[tone];
  return html`<span class="badge tone-${tone}">${glyph === undefined ? "" : html`<span aria-hidden="true">${glyph} </span>`}${value}</span>`;
}

function inlineHtml(from: PageId, piece: Inline): Html {
  switch (piece.kind) {
    case "text":
      return html`${piece.text}`;
    case "code":
      return codeHtml(piece.text);
    case "link":
      return html`<a href="${hrefOf(from, piece.to, ".html")}">${piece.code ? codeHtml(piece.text) : piece.text}</a>`;
    case "badge":
      return badgeHtml(piece.text, piece.tone);
    case "markdown":
      return html`${flattenMarkdown(parseMarkdown(piece.text)).map(mdInlineHtml)}`;
  }
}

const inlines = (from: PageId, pieces: readonly Inline[]): Html[] => pieces.map((p) => inlineHtml(from, p));

/** A column's class in the index, from its heading: `c-tool`, `c-effect`. */
const columnClass = (column: string): string => `c-${column.toLowerCase()}`;

/** A cell of the index: classed by column, labelled for the phone layout, the description clamped. */
function toolCell(column: string, content: Html[], last: boolean): Html {
  const body = last ? html`<div class="clamp">${content}</div>` : content;
  return html`<td class="${columnClass(column)}" data-label="${column}">${body}</td>`;
}

function rowHtml(from: PageId, row: Row, columns: readonly string[], role: string): Html {
  const depth = Math.min(row.depth ?? 0, 6);
  const cells = row.cells.map((cell, i) => {
    const content = inlines(from, cell);
    if (role === "tools") return toolCell(columns[i] ?? "", content, i === row.cells.length - 1);
    if (role === "schema" && i === 0)
      return html`<td><span class="depth d${depth}">${depth > 0 ? html`<span aria-hidden="true">↳ </span>` : ""}${content}</span></td>`;
    if (role === "schema")
      return i === 0 ? html`<td>${content}</td>` : html`<td class="${columnClass(columns[i] ?? "")}" data-label="${columns[i] ?? ""}">${content}</td>`;
    return i === 0 ? html`<td>${content}</td>` : html`<td data-label="${columns[i] ?? ""}">${content}</td>`;
  });
  if (row.filter) return html`<tr data-effect="${row.filter.effect}" data-search="${row.filter.text}">${cells}</tr>\n`;
  return row.depth === undefined ? html`<tr>${cells}</tr>\n` : html`<tr data-depth="${row.depth}">${cells}</tr>\n`;
}

function tableHtml(from: PageId, table: Extract<Block, { kind: "table" }>): Html {
  const block = withoutEmptyColumns(table);
  const head = block.columns.map((c) => (block.role === "tools" ? html`<th scope="col" class="${columnClass(c)}">${c}</th>` : html`<th scope="col">${c}</th>`));
  const body = block.rows.map((r) => rowHtml(from, r, block.columns, block.role));
  const empty = block.role === "tools" ? html`<p class="empty" data-empty hidden>No tool matches.</p>` : "";
  return html`<div class="table-wrap" role="region" aria-label="${block.label}" tabindex="0"><table class="${block.role}"><thead><tr>${head}</tr></thead><tbody>\n${body}</tbody></table></div>${empty}\n`;
}

function jsonHtml(block: Extract<Block, { kind: "json" }>): Html {
  const text = JSON.stringify(block.value as JsonValue, null, 2);
  const pre = `${block.id}-json`;
  const copy = html`<button type="button" class="copy" data-copy="${pre}" aria-label="Copy ${block.label}">Copy</button>`;
  return html`<details class="json"${block.open ? html` open` : ""} id="${block.id}"><summary><span>${block.label}</span>${copy}</summary><pre id="${pre}"><code>${text}</code></pre></details>\n`;
}

function filterHtml(block: Extract<Block, { kind: "tool-filter" }>): Html {
  const choice = (value: string, label: string, checked = false): Html =>
    html`<label class="choice"><input type="radio" name="effect" value="${value}"${checked ? html` checked` : ""}> ${label === "all" ? "All" : badgeHtml(label, label as Tone)}</label>`;
  return html`<div class="filter" data-tool-filter role="search">
<label for="toolc-search" class="visually-hidden">Search tools</label><input id="toolc-search" type="search" placeholder="Search tools (press /)" autocomplete="off" spellcheck="false">
<fieldset><legend>Effect</legend>${choice("all", "all", true)}${choice("read", "read")}${choice("write", "write")}${choice("destructive", "destructive")}</fieldset>
<p class="count" id="toolc-count" aria-live="polite">${block.total} ${block.total === 1 ? "tool" : "tools"}</p>
</div>\n`;
}

function blockHtml(from: PageId, block: Block): Html {
  switch (block.kind) {
    case "paragraph":
      return html`<p>${inlines(from, block.content)}</p>\n`;
    case "markdown":
      return html`<div class="prose">${markdownHtml(block.text)}</div>\n`;
    case "facts":
      return html`<dl class="facts">${block.items.map((f) => html`<dt>${f.label}</dt><dd>${inlines(from, f.value)}</dd>`)}</dl>\n`;
    case "list":
      return html`<ul>${block.items.map((item) => html`<li>${inlines(from, item)}</li>`)}</ul>\n`;
    case "table":
      return tableHtml(from, block);
    case "json":
      return jsonHtml(block);
    case "tool-filter":
      return filterHtml(block);
    case "section": {
      const heading = block.level === 2 ? html`<h2>${inlines(from, block.title)}</h2>` : html`<h3>${inlines(from, block.title)}</h3>`;
      return html`<section id="${block.id}">${heading}\n${block.blocks.map((b) => blockHtml(from, b))}</section>\n`;
    }
  }
}

export function renderHtml(page: Page, frame: SiteFrame): string {
  const nav = frame.nav.map(
    (item) => html`<a href="${hrefOf(page.id, { page: item.page }, ".html")}"${item.page === page.id ? html` aria-current="page"` : ""}>${item.label}</a>`,
  );
  const files = frame.files.map((f) => html`<a href="${rootOf(page.id)}${f.path}">${f.label}</a>`);
  const title = page.id === "index" ? frame.title : `${page.title} · ${frame.title}`;
  const name = page.id.startsWith("tools/") ? html`<span class="title-text">${breakable(page.title)}</span>` : html`<span>${page.title}</span>`;
  const heading = html`<h1>${name}${page.badges.length > 0 ? html` ${inlines(page.id, page.badges)}` : ""}</h1>`;
  const markdown = `${page.id.split("/").pop() ?? page.id}.md`;
  return `<!DOCTYPE html>
${htmlComment(frame.header)}
${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${Html.trusted(STYLE)}</style>
</head>
<body>
<a class="skip" href="#toolc-main">Skip to content</a>
<header class="site"><a class="brand" href="${hrefOf(page.id, { page: "index" }, ".html")}">${frame.title}</a><nav aria-label="Catalog">${nav}${files}</nav></header>
<main id="toolc-main" tabindex="-1">
${heading}
${page.blocks.map((b) => blockHtml(page.id, b))}</main>
<footer>${frame.header} · <a href="${markdown}">This page in Markdown</a></footer>
<script>${Html.trusted(SCRIPT)}</script>
</body>
</html>
`}`;
}
