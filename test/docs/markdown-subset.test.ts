/**
 * Descriptions are Markdown as API authors write it; the catalog formats a
 * safe subset of it (paragraphs, code, emphasis, lists, http(s) links) and
 * shows everything else as text, in HTML and again in Markdown. Hostile
 * input (markup, script URLs, entities, brackets) never becomes markup.
 */
import { describe, expect, it } from "vitest";
import { markdownHtml } from "../../generator/emit/catalog/html.js";
import { markdownMarkdown } from "../../generator/emit/catalog/markdown.js";
import { safeHref } from "../../generator/emit/catalog/markdown-subset.js";

describe("a description's Markdown as HTML", () => {
  it.each<[string, string, string]>([
    ["plain text", "Sends a message.", "<p>Sends a message.</p>"],
    ["paragraphs; a soft break is a space", "one\ntwo\n\nthree", "<p>one two</p><p>three</p>"],
    ["inline code", "Use `chat:write` here", "<p>Use <code>chat:write</code> here</p>"],
    ["code with a backtick inside", "``a`b``", "<p><code>a`b</code></p>"],
    ["emphasis and strong", "*a* _b_ **c** __d__", "<p><em>a</em> <em>b</em> <strong>c</strong> <strong>d</strong></p>"],
    ["snake_case is not emphasis", "admin_apps_approve and a_b_c", "<p>admin_apps_approve and a_b_c</p>"],
    ["a lone star", "2 * 3 = 6", "<p>2 * 3 = 6</p>"],
    ["bullet list", "- one\n- two `x`", "<ul><li>one</li><li>two <code>x</code></li></ul>"],
    ["numbered list after a paragraph", "Steps:\n1. a\n2. b", "<p>Steps:</p><ol><li>a</li><li>b</li></ol>"],
    ["fenced code keeps its text", "```json\n{\"a\": \"<b>\"}\n```", '<pre class="md-code"><code>{&quot;a&quot;: &quot;&lt;b&gt;&quot;}</code></pre>'],
    ["http link", "[docs](https://api.example.com/a?b=1&c=2)", '<p><a href="https://api.example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs</a></p>'],
    ["angle autolink", "<https://example.com/x>", '<p><a href="https://example.com/x" rel="nofollow noopener noreferrer">https://example.com/x</a></p>'],
    ["bare URL, trailing period left out", "See https://example.com/a.", '<p>See <a href="https://example.com/a" rel="nofollow noopener noreferrer">https://example.com/a</a>.</p>'],
    ["relative link keeps its words only", "See [below](#channels) for more", "<p>See below for more</p>"],
    ["backslash escapes", "\\*not em\\* \\`not code\\`", "<p>*not em* `not code`</p>"],
    // Hostile input.
    ["a script element is text", "<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    ["raw HTML is text", 'Be <b>careful</b> <img src=x onerror="alert(1)">', "<p>Be &lt;b&gt;careful&lt;/b&gt; &lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>"],
    ["javascript: link", "[click](javascript:alert(1))", "<p>click</p>"],
    ["JaVaScRiPt: with entities", "[x](&#106;avascript:alert(1))", "<p>x</p>"],
    ["data: link", "[x](data:text/html,<script>alert(1)</script>)", "<p>x</p>"],
    ["javascript autolink", "<javascript:alert(1)>", "<p>&lt;javascript:alert(1)&gt;</p>"],
    ["nested brackets", "[a [b] c](https://e.com)", '<p><a href="https://e.com/" rel="nofollow noopener noreferrer">a [b] c</a></p>'],
    ["an unclosed bracket", "[a [b](https://e.com)", '<p>[a <a href="https://e.com/" rel="nofollow noopener noreferrer">b</a></p>'],
    ["a quote in a URL cannot end the attribute", '[x](https://e.com/"onmouseover="alert(1))', '<p><a href="https://e.com/%22onmouseover=%22alert(1)" rel="nofollow noopener noreferrer">x</a></p>'],
    ["HTML entities stay as written", "&lt;b&gt; &amp; &#60;", "<p>&amp;lt;b&amp;gt; &amp;amp; &amp;#60;</p>"],
    ["markup inside code is text", "`<script>`", "<p><code>&lt;script&gt;</code></p>"],
    ["markup inside a link's words is text", "[<img src=x>](https://e.com)", '<p><a href="https://e.com/" rel="nofollow noopener noreferrer">&lt;img src=x&gt;</a></p>'],
    ["headings and quotes are text", "# Title\n> quoted", "<p># Title &gt; quoted</p>"],
    ["control characters are dropped", "a\u0000b\u0007c", "<p>abc</p>"],
  ])("%s", (_label, input, expected) => {
    expect(String(markdownHtml(input))).toBe(expected);
  });
});

describe("a description's Markdown as Markdown", () => {
  it.each<[string, string, string]>([
    ["formatting is written again", "Use `x` and **bold** *em*", "Use `x` and **bold** *em*"],
    ["a list", "- a\n- b", "- a\n- b"],
    ["an http link", "[docs](https://e.com/a)", "[docs](https://e.com/a)"],
    ["raw HTML is escaped text", "<b>careful</b>", "\\<b\\>careful\\</b\\>"],
    ["a javascript: link keeps its words only", "[click](javascript:alert(1))", "click"],
    ["a URL with parentheses and a pipe cannot end the link", "<https://e.com/a_(b)|c>", "[https:\u2060//e\\.com/a\\_(b)\\|c](https://e.com/a_%28b%29%7Cc)"],
  ])("%s", (_label, input, expected) => {
    expect(markdownMarkdown(input)).toBe(expected);
  });
});

describe("safeHref", () => {
  it.each<[string, string | undefined]>([
    ["https://example.com", "https://example.com/"],
    ["HTTP://EXAMPLE.com/a b", "http://example.com/a%20b"],
    ["<https://e.com>", "https://e.com/"],
    ["javascript:alert(1)", undefined],
    [" javascript:alert(1)", undefined],
    ["//evil.example", undefined],
    ["#anchor", undefined],
    ["mailto:a@b.c", undefined],
    ["https://", undefined],
  ])("%j", (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });
});
