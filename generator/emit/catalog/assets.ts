/**
 * The catalog's style and script, inlined into every page so a page works
 * alone, from `file://` or any static host, with no request for anything.
 * The Content-Security-Policy allows exactly these two by their hashes (CSP
 * Level 3, "hash-source"), and nothing else: no other script, style, font,
 * frame or connection, so even markup that got into a page could not run.
 */
import { createHash } from "node:crypto";

export const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--link:#0550ae;--focus:#0969da;
--read-bg:#dafbe1;--read-fg:#116329;--write-bg:#fff1c2;--write-fg:#7a4b00;--bad-bg:#ffe1e0;--bad-fg:#a40e26;--warn-bg:#fff1c2;--warn-fg:#7a4b00;--info-bg:#ddf4ff;--info-fg:#0a3069;--plain-bg:#eaeef2;--plain-fg:#32383f}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--soft:#161b22;--link:#4493f8;--focus:#4493f8;
--read-bg:#12361f;--read-fg:#6fdd8b;--write-bg:#3b2a00;--write-fg:#f2cc60;--bad-bg:#4a1219;--bad-fg:#ff9492;--warn-bg:#3b2a00;--warn-fg:#f2cc60;--info-bg:#0c2d6b;--info-fg:#a5d6ff;--plain-bg:#262c36;--plain-fg:#d1d7e0}}
*{box-sizing:border-box}
html{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg);color:var(--fg)}
body{margin:0}
a{color:var(--link);text-underline-offset:.25em;overflow-wrap:anywhere}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
code,pre{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
code{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 .25em;overflow-wrap:anywhere}
a code{color:var(--link)}
pre code{background:none;border:0;padding:0;overflow-wrap:normal}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;padding:.75rem max(1rem,calc((100% - 72rem)/2 + 1rem));border-bottom:1px solid var(--line);background:var(--soft)}
.site .brand{font-weight:600;color:var(--fg);text-decoration:none}
.site nav{display:flex;flex-wrap:wrap;gap:1rem}
.site nav a[aria-current=page]{font-weight:600;color:var(--fg)}
main{display:block;max-width:72rem;margin:0 auto;padding:1rem}
main:focus{outline:none}
h1{font-size:1.6rem;margin:.5rem 0 .75rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;overflow-wrap:break-word;min-width:0}
h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.5rem 0 .5rem}
h1 .title-text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;min-width:0;overflow-wrap:anywhere}
.prose{overflow-wrap:anywhere;max-width:50rem}
.prose p,.prose ul,.prose ol,.prose pre{margin:.5rem 0}
pre.md-code{padding:.5rem .6rem;overflow-x:auto;background:var(--soft);border:1px solid var(--line);border-radius:6px}
.badge{display:inline-block;font-size:.78rem;font-weight:600;line-height:1.4;padding:.05rem .5rem;border-radius:999px;border:1px solid transparent;white-space:nowrap;background:var(--plain-bg);color:var(--plain-fg)}
.tone-read{background:var(--read-bg);color:var(--read-fg)}
.tone-write{background:var(--write-bg);color:var(--write-fg);border-color:currentColor}
.tone-destructive,.tone-breaking{background:var(--bad-bg);color:var(--bad-fg);border-color:currentColor}
.tone-warning{background:var(--warn-bg);color:var(--warn-fg)}
.tone-info{background:var(--info-bg);color:var(--info-fg)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}
.facts dt{font-weight:600;color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;margin:.5rem 0 1rem;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
tbody tr:last-child td{border-bottom:0}
th{background:var(--soft);font-weight:600;white-space:nowrap}
tr[hidden]{display:none}
.schema td:first-child{white-space:nowrap}
.schema td.c-details{min-width:12rem}
.schema td.c-description{min-width:14rem;overflow-wrap:anywhere}
.depth{display:inline-block;color:var(--muted)}
.d1{padding-left:1.25rem}.d2{padding-left:2.5rem}.d3{padding-left:3.75rem}.d4{padding-left:5rem}.d5{padding-left:6.25rem}.d6{padding-left:7.5rem}
.tools{table-layout:fixed}
.tools .c-tool{width:24%}.tools .c-title{width:17%}.tools .c-effect{width:8.5rem}.tools .c-scopes{width:12%}.tools .c-version{width:5.5rem}.tools .c-notes{width:9.5rem}
.tools td.c-description{color:var(--muted);overflow-wrap:anywhere}
.tools td.c-notes .badge{margin:0 .2rem .2rem 0}
.tools .clamp{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.filter{display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;margin:1rem 0}
.filter input[type=search]{font:inherit;padding:.4rem .6rem;min-width:min(22rem,100%);border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.filter fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
.filter legend{float:left;font-weight:600;margin-right:.5rem}
.filter label.choice{display:inline-flex;gap:.3rem;align-items:center;padding:.15rem .6rem;border:1px solid var(--line);border-radius:999px;cursor:pointer}
.filter label.choice:has(input:checked){background:var(--soft);border-color:var(--focus)}
.filter .count{margin:0;color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
details.json{border:1px solid var(--line);border-radius:6px;margin:.5rem 0}
details.json summary{cursor:pointer;padding:.4rem .6rem;font-weight:600;display:flex;justify-content:space-between;align-items:center;gap:1rem}
details.json pre{margin:0;padding:.6rem;overflow:auto;max-height:32rem;border-top:1px solid var(--line);background:var(--soft)}
button.copy{font:inherit;font-size:.8rem;padding:.1rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);cursor:pointer}
footer{max-width:72rem;margin:2rem auto 0;padding:1rem;color:var(--muted);border-top:1px solid var(--line);font-size:.85rem}
.empty{color:var(--muted)}
@media (max-width:640px){
html{font-size:14px}
thead{display:none}
table,tbody,tr,td{display:block;width:100%}
.tools{table-layout:auto}
tbody tr{border-bottom:1px solid var(--line);padding:.5rem 0}
tbody tr:last-child{border-bottom:0}
td,.schema td:first-child{border:0;padding:.1rem .6rem;white-space:normal;min-width:0}
.tools td[class],.schema td.c-details,.schema td.c-description{width:auto;min-width:0}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}
td:first-child::before{content:none}
td:empty{display:none}
.schema tr[data-depth="1"] td{padding-left:1.85rem}.schema tr[data-depth="2"] td{padding-left:3.1rem}.schema tr[data-depth="3"] td{padding-left:4.35rem}.schema tr[data-depth="4"] td,.schema tr[data-depth="5"] td,.schema tr[data-depth="6"] td{padding-left:5.6rem}
.schema td:first-child .depth{padding-left:0}
.facts{grid-template-columns:1fr}
.facts dd{margin-bottom:.4rem}
}
`.trim();

export const SCRIPT = `
"use strict";
(() => {
  const filter = document.querySelector("[data-tool-filter]");
  if (filter) {
    const search = filter.querySelector("input[type=search]");
    const count = document.getElementById("toolc-count");
    const empty = document.querySelector("[data-empty]");
    const rows = Array.from(document.querySelectorAll("tr[data-effect]"));
    const apply = () => {
      const words = search.value.toLowerCase().split(/\\s+/).filter((w) => w !== "");
      const checked = filter.querySelector("input[name=effect]:checked");
      const effect = checked ? checked.value : "all";
      let shown = 0;
      for (const row of rows) {
        const hit = (effect === "all" || row.dataset.effect === effect) && words.every((w) => row.dataset.search.includes(w));
        row.hidden = !hit;
        if (hit) shown++;
      }
      count.textContent = shown === rows.length ? rows.length + (rows.length === 1 ? " tool" : " tools") : shown + " of " + rows.length + " tools";
      if (empty) empty.hidden = shown > 0;
    };
    filter.addEventListener("input", apply);
    filter.addEventListener("change", apply);
    document.addEventListener("keydown", (event) => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        search.focus();
      }
    });
    apply();
  }
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", async (event) => {
      event.preventDefault();
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      try {
        await navigator.clipboard.writeText(source.textContent);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        document.execCommand("copy");
      }
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = "Copy"), 1500);
    });
  }
})();
`.trim();

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("base64");

/**
 * The policy every page carries in a `<meta>` element: nothing is loaded or
 * run but the inline style and script above, by hash. `base-uri` and
 * `form-action` close the remaining ways markup could send a reader
 * elsewhere. (`frame-ancestors` has no effect in a meta element; a host that
 * wants it sets it as a header.)
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${sha256(STYLE)}'`,
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
