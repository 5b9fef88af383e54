/**
 * The catalog's one escaping module: contract text in HTML is character data
 * or an attribute value, in Markdown it is literal text, a code span or a
 * fenced block. (The browser test shows Chromium parsing the result so.)
 */
import { describe, expect, it } from "vitest";
import { escapeHtml, html, Html, htmlComment, markdownCode, markdownFence, markdownText } from "../../generator/emit/catalog/escape.js";

describe("escapeHtml", () => {
  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`" onmouseover="x`, "&quot; onmouseover=&quot;x"],
    ["it's", "it&#39;s"],
    ["a & b &amp;", "a &amp; b &amp;amp;"],
    ["bell\u0007 and nul\u0000 dropped, tab\tand\nline kept", "bell and nul dropped, tab\tand\nline kept"],
  ])("%j", (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });
});

describe("html``", () => {
  it("escapes every value, passes fragments it made, joins lists and skips undefined", () => {
    const inner = html`<b>${"<i>"}</b>`;
    const out = html`<p title="${`"><script>`}">${"<img onerror=x>"}${inner}${[html`<br>`, "&"]}${undefined}${3}</p>`;
    expect(String(out)).toBe('<p title="&quot;&gt;&lt;script&gt;">&lt;img onerror=x&gt;<b>&lt;i&gt;</b><br>&amp;3</p>');
  });

  it("takes a string as text even when it looks like a fragment", () => {
    expect(String(html`${String(Html.trusted("<b>"))}`)).toBe("&lt;b&gt;");
  });
});

describe("htmlComment", () => {
  it.each(["--> <script>", "--!> x", "a -- b", "<!-- nested -->", "line\nbreak"])("%j cannot end the comment early", (text) => {
    const comment = htmlComment(text);
    const body = comment.slice("<!--".length, -"-->".length);
    expect(comment.startsWith("<!-- ")).toBe(true);
    expect(body).not.toContain("--");
    expect(body).not.toMatch(/[<>\n]/);
  });
});

describe("markdownText", () => {
  it.each([
    ["*bold* and _em_", "\\*bold\\* and \\_em\\_"],
    ["[link](javascript:alert(1))", "\\[link\\](javascript:alert(1))"],
    ["<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>"],
    ["`code` | cell ~~strike~~", "\\`code\\` \\| cell \\~\\~strike\\~\\~"],
    ["&amp; &#x3c;", "\\&amp; \\&#x3c;"],
    ["# heading", "\\# heading"],
    ["- item", "\\- item"],
    ["> quote", "\\> quote"],
    ["1. first", "1\\. first"],
    ["mail @someone", "mail \\@\u2060someone"],
    ["see https://example.com or www.example.com", "see https:\u2060//example\\.com or www\\.example\\.com"],
    ["user@example.com, file.md, v1.2.3, e.g. this", "user\\@\u2060example\\.com, file\\.md, v1.2.3, e.g. this"],
    ["one\ntwo", "one two"],
    [" kept at the ends ", " kept at the ends "],
    ["back\\slash", "back\\\\slash"],
  ])("%j", (input, expected) => {
    expect(markdownText(input)).toBe(expected);
  });

  /**
   * What markdown-it's linkify (VS Code's preview) and GitHub link without
   * being asked: a URL with a scheme, `www.`, a bare domain (a name, a dot,
   * a top-level domain of two letters or more, such as `example.com` or
   * `file.md`) and an e-mail address. markdown-it runs linkify-it on each run
   * of text between two backslash escapes, which are tokens of their own, so
   * that is what is searched here; a word joiner is a letter to linkify-it
   * (format characters are not in its separators), so it does not split one.
   */
  const LINKIFY = [/[a-z][a-z0-9+.-]*:\/\//i, /\bwww\./i, /[\p{L}\p{N}\u2060-]\.\p{L}{2}/u, /@[\u2060]*[\p{L}\p{N}]/u];
  const linkifyPieces = (markdown: string): string[] => markdown.split(/\\[!-/:-@[-`{-~]/);

  it.each([
    "see example.com",
    "write to user@example.com",
    "the file README.md",
    "www.example.com/path",
    "https://api.example.com/v1?x=1",
    "mailto:someone@example.org",
    "sub.domain.example.co.uk and xn--80ak6aa92e.com",
    "ftp://files.example.net",
  ])("leaves nothing for linkify to link in %j", (input) => {
    const out = markdownText(input);
    for (const piece of linkifyPieces(out)) for (const pattern of LINKIFY) expect(piece).not.toMatch(pattern);
    // The escapes are only escapes: CommonMark reads the text back as written (but for the word joiners).
    expect(out.replace(/\\([!-/:-@[-`{-~])/g, "$1").replace(/\u2060/g, "")).toBe(input);
  });

  it("keeps lines as hard breaks and blank lines as paragraphs, escaping each line's start", () => {
    expect(markdownText("first\n# not a heading\n\n- not a list", { lines: true })).toBe("first  \n\\# not a heading\n\n\\- not a list");
  });
});

describe("markdownCode", () => {
  it.each([
    ["plain", "`plain`"],
    ["a`b", "``a`b``"],
    ["``x", "``` ``x ```"],
    ["`", "`` ` ``"],
    ["two\nlines", "`two lines`"],
  ])("%j", (input, expected) => {
    expect(markdownCode(input)).toBe(expected);
  });

  it("escapes a pipe inside a table cell, where GFM reads it back as a pipe", () => {
    expect(markdownCode("a|b", { inTable: true })).toBe("`a\\|b`");
    expect(markdownCode("a|b")).toBe("`a|b`");
  });
});

describe("markdownFence", () => {
  it("uses a fence longer than any backtick run inside", () => {
    expect(markdownFence('{"a": "```"}', "json")).toBe('````json\n{"a": "```"}\n````');
    expect(markdownFence("{}", "json")).toBe("```json\n{}\n```");
  });
});
