/**
 * The catalog as a document model: pages of blocks of inline pieces, built
 * from the IR once and rendered twice, as HTML (html.ts) and as Markdown
 * (markdown.ts). Nothing here is markup; every string is plain text, which
 * the renderers escape (escape.ts).
 */
import type { JsonValue } from "../../ir.js";

/** A page of the catalog, without extension: the renderers add `.html` or `.md`. */
export type PageId = "index" | "types" | "changelog" | `tools/${string}`;

/** Where a link goes: a page, and an element on it. */
export interface Target {
  readonly page: PageId;
  readonly anchor?: string;
}

/** The colour and mark of a badge: an effect, a change level, or neither. */
export type Tone = "read" | "write" | "destructive" | "breaking" | "warning" | "info" | "plain";

export type Inline =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "link"; readonly text: string; readonly to: Target; readonly code?: boolean }
  | { readonly kind: "badge"; readonly text: string; readonly tone: Tone }
  /** A description from a contract: its Markdown subset (markdown-subset.ts) on one line, as a table cell shows it. */
  | { readonly kind: "markdown"; readonly text: string };

export type Cell = readonly Inline[];

export interface Row {
  readonly cells: readonly Cell[];
  /** Nesting depth in a schema table, 0 at the top. */
  readonly depth?: number;
  /** The labels of the rows above it in a schema table, outermost first (Markdown shows a path, HTML an indent). */
  readonly trail?: readonly Cell[];
  /** What the index's search and effect filter read from a tool's row. */
  readonly filter?: { readonly effect: string; readonly text: string };
}

export interface Fact {
  readonly label: string;
  readonly value: readonly Inline[];
}

export type Block =
  | { readonly kind: "paragraph"; readonly content: readonly Inline[] }
  /** A description from a contract, its Markdown subset (markdown-subset.ts) shown as formatting, everything else as text. */
  | { readonly kind: "markdown"; readonly text: string }
  | { readonly kind: "facts"; readonly items: readonly Fact[] }
  | { readonly kind: "list"; readonly items: readonly (readonly Inline[])[] }
  | {
      readonly kind: "table";
      readonly label: string;
      readonly columns: readonly string[];
      readonly rows: readonly Row[];
      readonly role: "schema" | "tools" | "plain";
    }
  /** A JSON document, collapsed until opened, with a copy button. */
  | { readonly kind: "json"; readonly label: string; readonly id: string; readonly value: JsonValue; readonly open?: boolean }
  | { readonly kind: "section"; readonly id: string; readonly title: readonly Inline[]; readonly level: 2 | 3; readonly blocks: readonly Block[] }
  /** The index's search box and effect filter; only the HTML catalog has one. */
  | { readonly kind: "tool-filter"; readonly total: number };

export interface Page {
  readonly id: PageId;
  /** The page's title, plain text. */
  readonly title: string;
  /** Shown beside the title (effect, version, and the like). */
  readonly badges: readonly Inline[];
  readonly blocks: readonly Block[];
}

export const text = (value: string): Inline => ({ kind: "text", text: value });
export const code = (value: string): Inline => ({ kind: "code", text: value });
export const markdown = (value: string): Inline => ({ kind: "markdown", text: value });
export const badge = (value: string, tone: Tone = "plain"): Inline => ({ kind: "badge", text: value, tone });
export const link = (value: string, to: Target, options: { code?: boolean } = {}): Inline => ({
  kind: "link",
  text: value,
  to,
  ...(options.code ? { code: true } : {}),
});

/** `items` with `separator` between them. */
export function joined(items: readonly (readonly Inline[])[], separator: string): Inline[] {
  return items.flatMap((item, i) => (i === 0 ? [...item] : [text(separator), ...item]));
}

/**
 * An element id from a heading's words, as GitHub makes one for a Markdown
 * heading (lower case; letters, digits, `-` and `_` kept; spaces to `-`), so
 * the HTML catalog and its Markdown rendering share their anchors.
 */
export function slug(words: string): string {
  return words
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** A JSON value as one line of code, as it would be written in a contract. */
export function jsonCode(value: JsonValue | undefined): Inline {
  return code(JSON.stringify(value) ?? "undefined");
}

type TableBlock = Extract<Block, { kind: "table" }>;

const emptyCell = (cell: Cell | undefined): boolean => cell === undefined || cell.every((piece) => piece.kind !== "badge" && piece.text.trim() === "");

/**
 * The table without the columns that are empty in every row (an imported
 * API's tools without titles, a schema without descriptions), so neither
 * rendering shows a column of blanks. The first column always stays.
 */
export function withoutEmptyColumns(table: TableBlock): TableBlock {
  if (table.rows.length === 0) return table;
  const keep = table.columns.map((_, i) => i === 0 || table.rows.some((row) => !emptyCell(row.cells[i])));
  if (keep.every(Boolean)) return table;
  return {
    ...table,
    columns: table.columns.filter((_, i) => keep[i]),
    rows: table.rows.map((row) => ({ ...row, cells: row.cells.filter((_, i) => keep[i]) })),
  };
}
