/**
 * Every way text from a contract reaches the catalog, in one module. A
 * contract's names, descriptions, enum values and examples are untrusted
 * text: in HTML they become character data or quoted attribute values, never
 * markup; in Markdown they become literal text, code spans or fenced blocks,
 * never links, emphasis or HTML. The renderers build pages only through
 * these functions.
 */

/** Control characters HTML and CommonMark both treat as errors; tab and line breaks are kept. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text as HTML character data or a quoted attribute value. Escaping the five
 * characters leaves no way to end the text or the attribute (HTML Living
 * Standard, 13.1.2.6 and 13.2.5.36-38). Control characters other than tab,
 * line feed and carriage return are dropped: HTML calls them parse errors.
 */
export function escapeHtml(text: string): string {
  return text.replace(CONTROL, "").replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Text as HTML character data with a `<wbr>` (a line-break opportunity, no
 * character) after each `_ . / - :` and between a lower-case letter and an
 * upper-case one, so that a long name, path or URL wraps between its words
 * rather than anywhere. The escaped text has none of those characters in an
 * entity, so no `<wbr>` lands inside one. Short text is left as it is.
 */
export function breakable(text: string): Html {
  const escaped = escapeHtml(text);
  if (text.length <= 16) return Html.trusted(escaped);
  return Html.trusted(escaped.replace(/([_./:-])(?=[^\s_./:-])/g, "$1<wbr>").replace(/([a-z])(?=[A-Z])/g, "$1<wbr>"));
}

/** A fragment of HTML that is safe as it is: built by `html`, from escaped text and other fragments only. */
export class Html {
  readonly #text: string;
  private constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
  /** Only for markup written in toolc's own source (the page frame, the assets); never for a value from a contract. */
  static trusted(text: string): Html {
    return new Html(text);
  }
}

export type HtmlValue = Html | string | number | undefined | readonly HtmlValue[];

function htmlOf(value: HtmlValue): string {
  if (value === undefined) return "";
  if (value instanceof Html) return value.toString();
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return escapeHtml(value);
  return value.map(htmlOf).join("");
}

/**
 * The only way markup is made: the template's literal parts are toolc's own
 * markup, and every value put into it is escaped unless it is already an
 * `Html` fragment. Values go in text or in double-quoted attributes only.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => (out += htmlOf(value) + (strings[i + 1] ?? "")));
  return Html.trusted(out);
}

/**
 * Text as an HTML comment, which Markdown passes through too: `--` and angle
 * brackets are spaced out, so nothing in it can end the comment early.
 */
export function htmlComment(text: string): string {
  return `<!-- ${text
    .replace(CONTROL, "")
    .replace(/-{2,}/g, (dashes) => dashes.split("").join(" "))
    .replace(/[<>\r\n]/g, " ")} -->`;
}

/** A URL fragment (`#…`) for an id made from a contract name: percent-encoded, so it is one token whatever the name holds. */
export function fragment(id: string): string {
  return `#${encodeURIComponent(id)}`;
}

/** One line of text as literal Markdown: what opens a block at its start (a heading, a list, a quote) escaped too. */
function markdownLine(line: string): string {
  const inline = line
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/@/g, "\\@\u2060")
    // A dot before a word of two letters or more ends a domain to linkify (markdown-it's, VS Code's preview): `file.md`, `example.com`.
    .replace(/([\p{L}\p{N}-])\.(?=\p{L}{2})/gu, "$1\\.")
    .replace(/:\/\//g, ":\u2060//")
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u2060.`);
  return inline.replace(/^([#>+=-])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
}

/**
 * Text as literal text in CommonMark and GitHub-flavoured Markdown, also
 * inside a table cell. Every character that can open or close something
 * inside a line (code, emphasis, strikethrough, links, HTML, entities, a
 * cell border) is backslash-escaped, as CommonMark allows for any ASCII
 * punctuation (spec 2.4), and so is what opens a block at a line's start;
 * `@`, `://` and `www.` get a word joiner so no mention or autolink is made,
 * and `@` and a dot inside a domain (`example\.com`) a backslash too: a
 * renderer that links bare domains and e-mail addresses (markdown-it's
 * linkify, which reads the text between two escapes as one piece) finds none.
 * Other punctuation stays as it is, so the text reads well raw, as agents
 * read it. Line breaks become spaces, or with `lines`, hard breaks between
 * the lines and paragraph breaks at blank lines.
 */
export function markdownText(text: string, options: { lines?: boolean } = {}): string {
  const clean = text.replace(CONTROL, "");
  // One line: breaks become spaces, and the spaces at the ends stay (the text may sit between other pieces).
  if (!options.lines) return markdownLine(clean.replace(/\s*(?:\r\n|[\r\n\u2028\u2029])\s*/g, " "));
  const lines = clean.split(/\r\n|[\r\n\u2028\u2029]/).map((line) => markdownLine(line.trim()));
  const paragraphs = lines
    .join("\n")
    .split(/\n{2,}/)
    .map((p) =>
      p
        .split("\n")
        .filter((l) => l !== "")
        .join("  \n"),
    );
  return paragraphs.filter((p) => p !== "").join("\n\n");
}

/**
 * Text as a Markdown code span, on one line: delimited by one more backtick
 * than the longest run inside, padded when it starts or ends with one
 * (spec 6.1). In a table cell, `|` is escaped, which GFM undoes inside code.
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  const oneLine = text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(CONTROL, "")
    .replace(/\t/g, " ");
  const longest = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const padded = oneLine.startsWith("`") || oneLine.endsWith("`") || (oneLine.startsWith(" ") && oneLine.endsWith(" ")) ? ` ${oneLine} ` : oneLine;
  return `${fence}${options.inTable ? padded.replace(/\|/g, "\\|") : padded}${fence}`;
}

/** Text as a fenced code block: the fence is longer than any backtick run inside, so nothing can close it early. */
export function markdownFence(text: string, info: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text.replace(CONTROL, "")}\n${fence}`;
}
