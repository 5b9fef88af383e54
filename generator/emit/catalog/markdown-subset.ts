/**
 * A contract's descriptions are Markdown as API authors write it (OpenAPI
 * says CommonMark): this reads the small part of it a catalog shows as
 * formatting, and nothing else. Paragraphs, fenced and indented code blocks,
 * bullet and numbered lists, code spans, emphasis and strong emphasis, and
 * links whose target is an absolute http(s) URL (bracketed, `<angle>` or
 * bare). Everything else, raw HTML and entities included, stays literal
 * text, which the renderers escape (escape.ts). A link to anything but
 * http(s) (`javascript:`, a relative `#anchor` of the API's own docs) keeps
 * its words and loses its target. The result is a tree of plain strings:
 * nothing here is markup.
 */

export type MdInline =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "em" | "strong"; readonly children: readonly MdInline[] }
  | { readonly kind: "link"; readonly href: string; readonly children: readonly MdInline[] };

export type MdBlock =
  | { readonly kind: "paragraph"; readonly content: readonly MdInline[] }
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "list"; readonly ordered: boolean; readonly items: readonly (readonly MdInline[])[] };

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const INDENTED = /^(?: {4}|\t)/;
const PUNCTUATION = /[!-/:-@[-`{-~]/;

/** An absolute http(s) URL as the browser serializes it, or undefined for any other target. */
export function safeHref(target: string): string | undefined {
  const trimmed = target.trim().replace(/^<(.*)>$/, "$1");
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(CONTROL, "").split(/\r\n|[\r\n\u2028\u2029]/);
  const blocks: MdBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[][] } | undefined;
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", content: parseInline(paragraph.join("\n").trim()) });
    paragraph = [];
    if (list) blocks.push({ kind: "list", ordered: list.ordered, items: list.items.map((item) => parseInline(item.join("\n").trim())) });
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const fence = FENCE.exec(line);
    if (fence && !(fence[1]?.startsWith("`") && fence[2]?.includes("`"))) {
      flush();
      const marker = fence[1] ?? "```";
      const body: string[] = [];
      for (i++; i < lines.length && !new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`).test(lines[i] ?? ""); i++)
        body.push(lines[i] ?? "");
      blocks.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1] ?? "");
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push([item[2] ?? ""]);
      continue;
    }
    if (list) {
      // A line after an item continues it (indented or lazy), as CommonMark reads it.
      list.items[list.items.length - 1]?.push(line.trim());
      continue;
    }
    if (paragraph.length === 0 && INDENTED.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && (INDENTED.test(lines[i] ?? "") || (lines[i] ?? "").trim() === ""); i++) body.push((lines[i] ?? "").replace(INDENTED, ""));
      i--;
      while (body.length > 0 && body[body.length - 1]?.trim() === "") body.pop();
      blocks.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}

/** Where the bracket opened at `open` closes, counting nested brackets and skipping escapes; -1 when it does not. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  return -1;
}

/** The link destination after `](` at `start`, up to its balanced `)`; undefined when it is not closed. */
function destination(text: string, start: number): { target: string; end: number } | undefined {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && depth-- === 0) return { target: text.slice(start, i).replace(/\s+"[^"]*"\s*$/, ""), end: i + 1 };
  }
  return undefined;
}

const isWord = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const isSpace = (c: string | undefined): boolean => c === undefined || /\s/.test(c);

/** The closing run of `delimiter` for an opening at `open`: after a non-space, and for `_` not inside a word. */
function closingDelimiter(text: string, open: number, delimiter: string): number {
  for (let i = text.indexOf(delimiter, open + delimiter.length + 1); i !== -1; i = text.indexOf(delimiter, i + 1)) {
    if (text[i - 1] === "\\" || isSpace(text[i - 1])) continue;
    if (delimiter[0] === "_" && isWord(text[i + delimiter.length])) continue;
    if (delimiter.length === 1 && text[i + 1] === delimiter) {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

const BARE_URL = /^https?:\/\/[^\s<>"'`]+/i;

/** The inline formatting of one paragraph or list item. */
export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let plain = "";
  const push = (piece: MdInline): void => {
    if (plain !== "") out.push({ kind: "text", text: plain });
    plain = "";
    out.push(piece);
  };
  for (let i = 0; i < text.length;) {
    const c = text[i] ?? "";
    const rest = text.slice(i);
    if (c === "\\" && PUNCTUATION.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(rest)?.[0] ?? "`";
      const close = text.indexOf(run, i + run.length);
      if (close !== -1 && text[close + run.length] !== "`") {
        const body = text.slice(i + run.length, close).replace(/\n/g, " ");
        push({ kind: "code", text: body.length > 2 && body.startsWith(" ") && body.endsWith(" ") ? body.slice(1, -1) : body });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (c === "[") {
      const close = closingBracket(text, i);
      const dest = close !== -1 && text[close + 1] === "(" ? destination(text, close + 2) : undefined;
      if (dest) {
        const children = parseInline(text.slice(i + 1, close));
        const href = safeHref(dest.target);
        if (href === undefined) children.forEach((child) => (child.kind === "text" ? (plain += child.text) : push(child)));
        else push({ kind: "link", href, children });
        i = dest.end;
        continue;
      }
    }
    if (c === "<") {
      const auto = /^<(https?:\/\/[^\s<>]+)>/i.exec(rest);
      const href = auto ? safeHref(auto[1] ?? "") : undefined;
      if (auto && href !== undefined) {
        push({ kind: "link", href, children: [{ kind: "text", text: auto[1] ?? "" }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((c === "h" || c === "H") && !isWord(text[i - 1])) {
      const bare = BARE_URL.exec(rest)?.[0].replace(/[.,;:!?)\]]+$/, "");
      const href = bare === undefined ? undefined : safeHref(bare);
      if (bare !== undefined && href !== undefined) {
        push({ kind: "link", href, children: [{ kind: "text", text: bare }] });
        i += bare.length;
        continue;
      }
    }
    if (c === "*" || c === "_") {
      const delimiter = text[i + 1] === c ? c + c : c;
      const opens = !isSpace(text[i + delimiter.length]) && !(c === "_" && isWord(text[i - 1]));
      const close = opens ? closingDelimiter(text, i, delimiter) : -1;
      if (close !== -1) {
        push({ kind: delimiter.length === 2 ? "strong" : "em", children: parseInline(text.slice(i + delimiter.length, close)) });
        i = close + delimiter.length;
        continue;
      }
      plain += delimiter;
      i += delimiter.length;
      continue;
    }
    plain += c === "\n" ? " " : c;
    i++;
  }
  if (plain !== "") out.push({ kind: "text", text: plain });
  return out;
}

/** The blocks as one line of inline pieces, for a table cell: paragraphs and list items run on, a code block becomes a code span. */
export function flattenMarkdown(blocks: readonly MdBlock[]): MdInline[] {
  const parts: MdInline[][] = blocks.flatMap((block): MdInline[][] => {
    if (block.kind === "paragraph") return [[...block.content]];
    if (block.kind === "code") return [[{ kind: "code", text: block.text.replace(/\s*\n\s*/g, " ") }]];
    return block.items.map((item, i) => [{ kind: "text", text: block.ordered ? `${i + 1}. ` : "• " }, ...item]);
  });
  return parts.flatMap((part, i) => (i === 0 ? part : [{ kind: "text", text: " " }, ...part]));
}
