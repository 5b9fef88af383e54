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
    ["mail @someone", "mail @\u2060someone"],
    ["see https://example.com or www.example.com", "see https:\u2060//example.com or www\u2060.example.com"],
    ["one\ntwo", "one two"],
    [" kept at the ends ", " kept at the ends "],
    ["back\\slash", "back\\\\slash"],
  ])("%j", (input, expected) => {
    expect(markdownText(input)).toBe(expected);
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
