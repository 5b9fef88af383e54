/**
 * The catalog in a real browser: Debian's Chromium, headless, opening the
 * pages from disk (file://), as a reviewer does. The demo's committed
 * catalog (demo/catalog, kept fresh by `toolc check`) is searched, filtered,
 * read and followed with the mouse and the keyboard; a contract full of
 * markup shows it as text and runs none of it; the 117 GitHub tools render.
 * Screenshots go to .tmp/catalog-screenshots/ for a person to look at.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sideFromFolder } from "../../generator/diff/sources.js";
import type { ToolIR } from "../../generator/ir.js";
import { contracts } from "../../generated/index.js";
import { ROOT, runCli } from "../compiler/helpers.js";
import { launchChromium, watchProblems, type Browser, type PageProblems } from "../helpers/chromium.js";
import { toolFileName } from "../../generator/emit/ts-names.js";

const DEMO_CATALOG = join(ROOT, "demo/catalog");
const SCREENSHOTS = join(ROOT, ".tmp/catalog-screenshots");
const GITHUB = join(ROOT, "test/corpus/github-mcp-toolsnaps");

const fileUrl = (dir: string, path: string): string => pathToFileURL(join(dir, path)).href;

function demoTools(): ToolIR[] {
  const side = sideFromFolder("definitions", ROOT).side;
  if (!side) throw new Error("the demo definitions do not compile");
  return [...side.ir.tools].sort((a, b) => (a.name < b.name ? -1 : 1));
}

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".html")) out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

/** The text of each cell of each visible row of a table, trimmed. */
async function tableRows(page: Page, table: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of await page.locator(`${table} tbody tr:not([hidden])`).all()) out.push((await row.locator("td").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim()));
  return out;
}

/** The focused element. */
const focused = (page: Page) => page.locator(":focus");

const visibleTools = (page: Page): Promise<string[]> => page.locator("table.tools tbody tr:not([hidden]) td.c-tool").allTextContents();

/** Every request a page made was for a file inside `dir`: no network, no file outside the catalog. */
function onlyLocalRequests(page: Page, dir: string): string[] {
  const outside: string[] = [];
  const prefix = pathToFileURL(dir).href;
  page.on("request", (request) => {
    if (!request.url().startsWith(prefix)) outside.push(request.url());
  });
  return outside;
}

const noProblems: PageProblems = { errors: [], dialogs: [] };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(): Promise<{ page: Page; problems: PageProblems; outside: string[] }> {
  const page = await browser.context.newPage();
  return { page, problems: watchProblems(page), outside: onlyLocalRequests(page, DEMO_CATALOG) };
}

describe("the demo's catalog, from disk", () => {
  const tools = demoTools();

  it("lists every tool, with its effect and version", async () => {
    const { page, problems, outside } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "index.html"));
    expect(await visibleTools(page)).toEqual(tools.map((t) => t.name));
    const effects = await page.locator("table.tools tbody tr td.c-effect").allTextContents();
    expect(effects.map((e) => e.replace(/[^a-z]/g, ""))).toEqual(tools.map((t) => t.effect));
    expect(await page.locator("table.tools tbody tr td.c-version").allTextContents()).toEqual(tools.map((t) => String(t.version)));
    expect(await page.locator("#toolc-count").textContent()).toBe(`${tools.length} tools`);
    expect(problems).toEqual(noProblems);
    expect(outside).toEqual([]);
    await page.close();
  });

  it("filters to destructive tools and searches, with the mouse", async () => {
    const { page, problems } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "index.html"));
    await page.locator("input[name=effect][value=destructive]").check();
    const destructive = tools.filter((t) => t.effect === "destructive").map((t) => t.name);
    expect(destructive.length).toBeGreaterThan(0);
    expect(await visibleTools(page)).toEqual(destructive);
    expect(await page.locator("#toolc-count").textContent()).toBe(`${destructive.length} of ${tools.length} tools`);
    await page.locator("input[name=effect][value=all]").check();
    await page.locator("#toolc-search").fill("refund");
    expect(await visibleTools(page)).toEqual(["create_refund"]);
    await page.locator("#toolc-search").fill("no such words");
    expect(await visibleTools(page)).toEqual([]);
    expect(await page.locator("[data-empty]").isVisible()).toBe(true);
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it("is usable from the keyboard: skip link, / to search, arrows through the effect filter, Enter on a tool", async () => {
    const { page, problems } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "index.html"));
    await page.keyboard.press("Tab");
    expect(await focused(page).textContent()).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await focused(page).getAttribute("id")).toBe("toolc-main");
    await page.keyboard.press("/");
    expect(await focused(page).getAttribute("id")).toBe("toolc-search");
    await page.keyboard.type("order");
    expect(await visibleTools(page)).toEqual(tools.filter((t) => /order/i.test(`${t.name} ${t.title} ${t.description}`)).map((t) => t.name));
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Tab");
    expect(await focused(page).getAttribute("value")).toBe("all");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    expect(await visibleTools(page)).toEqual(tools.filter((t) => t.effect === "destructive").map((t) => t.name));
    // Past the filter, the table's scroll region, then its first shown tool.
    await page.keyboard.press("Tab");
    expect(await focused(page).getAttribute("aria-label")).toBe("Tools");
    await page.keyboard.press("Tab");
    expect(await focused(page).textContent()).toBe("delete_customer");
    await page.keyboard.press("Enter");
    await page.waitForURL(/tools\/delete_customer\.html$/);
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it("opens a tool and reads its input table", async () => {
    const { page, problems } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "index.html"));
    await page.getByRole("link", { name: "get_order", exact: true }).click();
    await page.waitForURL(/tools\/get_order\.html$/);
    expect(await page.locator("h1").textContent()).toContain("get_order");
    const input = await tableRows(page, "#input table");
    expect(input.map((row) => row.slice(0, 3))).toEqual([
      ["customerId", "string", "yes"],
      ["includeHistory", "boolean", "no"],
    ]);
    expect(input[0]?.[3]).toMatch(/^1–64 characters\b/);
    expect(input[0]?.[4]).toMatch(/^Customer id, e\.g\. cus_123/);
    expect(input[1]?.slice(3)).toEqual(["default false", "Include cancelled orders too."]);
    expect(await tableRows(page, "#rejections table")).toEqual([["CUSTOMER_BLOCKED", "The customer is blocked; ask a human."]]);
    const invalid = await page.locator("#examples p", { hasText: "INVALID_INPUT" }).allTextContents();
    expect(invalid.map((t) => t.replace(/.*told to fix /, ""))).toEqual(["customerId.", "includeDeleted."]);
    // The served schema: collapsed, then opened, exactly the generated tools/list entry's.
    const served = page.locator("details#served-input-schema");
    expect(await served.getAttribute("open")).toBeNull();
    await served.locator("summary > span").click();
    expect(await served.getAttribute("open")).toBe("");
    const listed = { tool: contracts.get_order };
    expect(JSON.parse((await served.locator("pre").textContent()) ?? "")).toEqual(listed.tool.inputSchema);
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await served.getByRole("button", { name: "Copy inputSchema" }).click();
    await expect.poll(() => served.getByRole("button").textContent()).toBe("Copied");
    // What a reviewer pastes is the served schema itself.
    const copied = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(JSON.parse(copied)).toEqual(listed.tool.inputSchema);
    await browser.context.clearPermissions();
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it("follows a named-type link to the type, and from there to the next one", async () => {
    const { page, problems } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "tools/get_order.html"));
    await page.locator("#output table").getByRole("link", { name: "Order", exact: true }).click();
    await page.waitForURL(/types\.html#order$/);
    const target = page.locator("section:target");
    expect(await target.locator("h2").textContent()).toBe("Order");
    expect((await tableRows(page, "section:target table")).map((row) => row[0])).toEqual(["id", "status", "amountCents", "placedAt"]);
    await target.getByRole("link", { name: "OrderStatus", exact: true }).click();
    await page.waitForURL(/types\.html#orderstatus$/);
    expect(await page.locator("section:target h2").textContent()).toBe("OrderStatus");
    expect(await page.locator("section:target").textContent()).toContain('one of "pending", "paid", "cancelled"');
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it("shows the changelog per release, per tool, breaking first", async () => {
    const { page, problems } = await openPage();
    await page.goto(fileUrl(DEMO_CATALOG, "changelog.html"));
    const releases = await page.locator("main > section > h2").allTextContents();
    expect(releases.length).toBeGreaterThan(0);
    const perTool = await page.locator("main > section").first().locator("section h3").allTextContents();
    expect(perTool).toEqual([...perTool].sort());
    expect(await page.locator("main > section").first().locator(".tone-breaking").count()).toBeGreaterThan(0);
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it("opens every page without a console error, a failed load, or a request outside the catalog", async () => {
    const { page, problems, outside } = await openPage();
    const pages = htmlFiles(DEMO_CATALOG);
    expect(pages).toEqual(["changelog.html", "index.html", ...tools.map((t) => `tools/${toolFileName(t)}.html`), "types.html"].sort());
    for (const path of pages) await page.goto(fileUrl(DEMO_CATALOG, path));
    expect(problems).toEqual(noProblems);
    expect(outside).toEqual([]);
    await page.close();
  });

  it("writes screenshots of the index and a tool page at desktop and phone widths, light and dark", async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shots: [string, string, number, "light" | "dark"][] = [
      ["index-desktop.png", "index.html", 1280, "light"],
      ["index-phone.png", "index.html", 390, "light"],
      ["tool-desktop.png", "tools/create_refund.html", 1280, "light"],
      ["tool-phone.png", "tools/create_refund.html", 390, "light"],
      ["index-desktop-dark.png", "index.html", 1280, "dark"],
      ["tool-phone-dark.png", "tools/search_orders.html", 390, "dark"],
    ];
    for (const [name, path, width, colorScheme] of shots) {
      const page = await browser.context.newPage();
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(fileUrl(DEMO_CATALOG, path));
      // Nothing is wider than the viewport but the tables, which scroll inside their frame.
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(width);
      await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
      await page.close();
    }
    for (const [name] of shots) expect(statSync(join(SCREENSHOTS, name)).size).toBeGreaterThan(10_000);
  });

  it("follows the reader's colour scheme: light text on a dark page in dark mode, and the other way round", async () => {
    const luminance = (rgb: string): number => {
      const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const colours: Record<string, { background: number; text: number }> = {};
    for (const scheme of ["light", "dark"] as const) {
      const page = await browser.context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(fileUrl(DEMO_CATALOG, "tools/get_order.html"));
      const [background, text] = await page.evaluate<[string, string]>("[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.documentElement).color]");
      colours[scheme] = { background: luminance(background), text: luminance(text) };
      await page.close();
    }
    expect(colours.light!.background).toBeGreaterThan(colours.light!.text + 100);
    expect(colours.dark!.text).toBeGreaterThan(colours.dark!.background + 100);
  });
});

describe("a contract whose text is markup", () => {
  const EVIL = `name: evil_tool
version: 1
title: "<b>bold</b> title"
description: |-
  Hello <script>window.__ran = "script"; alert("script")</script> and <img src=x onerror="window.__ran = 'img'; alert('img')">
  [link](javascript:alert(1)) --> <!-- end
effect: destructive
input:
  type: object
  properties:
    "<img src=x onerror=alert(2)>": { type: string, maxLength: 10, description: "</td></tr><script>alert(3)</script>" }
    q: { enum: ["<script>alert(4)</script>", "a|b"] }
  required: []
output:
  type: object
  properties:
    ok: { type: boolean, description: "<style>body{display:none}</style>" }
  required: [ok]
errors:
  BAD_THING: { description: "<iframe src=x onload=alert(5)></iframe>" }
examples:
  - name: "<svg onload=alert(6)>"
    input: { q: "a|b" }
    output: { ok: true }
`;

  it("renders the markup as text, and nothing in it runs or loads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-catalog-evil-"));
    mkdirSync(join(dir, "definitions"));
    writeFileSync(join(dir, "definitions/evil_tool.yaml"), EVIL);
    const written = await runCli(dir, ["docs", "--out", "catalog"]);
    expect(written.code).toBe(0);
    const catalog = join(dir, "catalog");
    const page = await browser.context.newPage();
    const problems = watchProblems(page);
    const outside = onlyLocalRequests(page, catalog);
    for (const path of ["index.html", "tools/evil_tool.html"]) {
      await page.goto(fileUrl(catalog, path));
      // The page's own script is the only one; no element came from a contract.
      expect(await page.locator("script").count()).toBe(1);
      expect(await page.locator("main img, main iframe, main svg, main style, main b").count()).toBe(0);
      expect(await page.evaluate("window.__ran")).toBeUndefined();
    }
    const prose = await page.locator(".prose").textContent();
    expect(prose).toContain(`<script>window.__ran = "script"; alert("script")</script>`);
    expect(prose).toContain(`<img src=x onerror="window.__ran = 'img'; alert('img')">`);
    // The description's Markdown link to javascript: keeps its words, and is no link.
    expect(prose).toContain("> link --> <!-- end");
    expect(await page.locator("main .prose a").count()).toBe(0);
    expect(await page.locator("h1").textContent()).toContain("evil_tool");
    expect(await page.locator("main > p").first().textContent()).toBe("<b>bold</b> title");
    expect((await tableRows(page, "#input table"))[0]).toEqual(["<img src=x onerror=alert(2)>", "string", "no", "at most 10 characters", "</td></tr><script>alert(3)</script>"]);
    expect(await page.locator("#rejections td").nth(1).textContent()).toBe("<iframe src=x onload=alert(5)></iframe>");
    expect(await page.locator("#examples h3").textContent()).toContain("<svg onload=alert(6)>");
    expect(problems).toEqual(noProblems);
    expect(outside).toEqual([]);
    await page.close();
  });
});

describe("the Content-Security-Policy", () => {
  it("stops markup that got into a page anyway: no inline script, handler or outside load runs, and Chromium reports each", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-catalog-csp-"));
    const injected = `<script>window.__ran = "script"</script><img src="https://example.com/x.png" onerror="window.__ran = 'handler'"><iframe src="https://example.com/"></iframe>`;
    const original = readFileSync(join(DEMO_CATALOG, "index.html"), "utf8");
    const page = original.replace('<main id="toolc-main" tabindex="-1">', `$&${injected}`);
    expect(page).not.toBe(original);
    writeFileSync(join(dir, "index.html"), page);
    const tab = await browser.context.newPage();
    const problems = watchProblems(tab);
    await tab.goto(fileUrl(dir, "index.html"));
    expect(await tab.evaluate("window.__ran")).toBeUndefined();
    // The page's own script still runs: the filter works.
    await tab.locator("input[name=effect][value=read]").check();
    expect(await tab.locator("#toolc-count").textContent()).toMatch(/ of /);
    const refused = problems.errors.filter((e) => e.includes("Content Security Policy"));
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(problems.dialogs).toEqual([]);
    await tab.close();
  });
});

describe("the catalog of the 117 GitHub MCP tools", () => {
  it("imports them, renders every tool, and filters them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-catalog-github-"));
    expect((await runCli(dir, ["import", GITHUB, "--out", "definitions"])).code).toBe(0);
    expect((await runCli(dir, ["docs", "--out", "catalog"])).code).toBe(0);
    const catalog = join(dir, "catalog");
    const tools = sideFromFolder("definitions", dir).side?.ir.tools ?? [];
    expect(tools).toHaveLength(117);
    const page = await browser.context.newPage();
    const problems = watchProblems(page);
    await page.goto(fileUrl(catalog, "index.html"));
    expect(await visibleTools(page)).toEqual(tools.map((t) => t.name).sort());
    await page.locator("input[name=effect][value=destructive]").check();
    expect((await visibleTools(page)).length).toBe(tools.filter((t) => t.effect === "destructive").length);
    await page.goto(fileUrl(catalog, "tools/create_pull_request.html"));
    expect((await tableRows(page, "#input table")).map((row) => row[0])).toContain("head");
    expect(problems).toEqual(noProblems);
    await page.close();

    const longest = [...tools].sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : 1))[0]?.name;
    await expectNothingOverflows(catalog, ["index.html", `tools/${longest}.html`, "tools/create_pull_request.html"], "github");
  });
});

/**
 * At 390 px, long names, paths and URLs wrap inside their box: no cell, fact,
 * title or description is wider than its box, and the page is no wider than
 * the screen (at 1280 px too). Writes a screenshot of each page at each width.
 */
async function expectNothingOverflows(catalog: string, paths: readonly string[], prefix: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const path of paths) {
    for (const width of [390, 1280]) {
      const tab = await browser.context.newPage();
      await tab.setViewportSize({ width, height: 900 });
      await tab.goto(fileUrl(catalog, path));
      // Run in the page (a string, as this file's other evaluations: the tests are type-checked without the DOM's types).
      const overflowing = (await tab.evaluate(
        `Array.from(document.querySelectorAll("td, th, dd, h1, .prose")).flatMap((box) => box.scrollWidth > box.clientWidth ? [box.tagName.toLowerCase() + " " + box.scrollWidth + " > " + box.clientWidth + ": " + (box.textContent ?? "").slice(0, 80)] : [])`,
      )) as string[];
      if (width === 390) expect(overflowing, `${path} at ${width} px`).toEqual([]);
      expect(await tab.evaluate("document.documentElement.scrollWidth"), `${path} at ${width} px`).toBe(width);
      await tab.screenshot({ path: join(SCREENSHOTS, `${prefix}-${path.replace(/\W+/g, "-")}-${width}.png`), fullPage: true });
      await tab.close();
    }
  }
}

describe("long names, paths and URLs, as imported APIs have them", () => {
  // Slack's longest method name, and the kind of description an OpenAPI import carries over.
  const LONG = `name: admin_conversations_ekm_listOriginalConnectedChannelInfo
version: 1
description: |-
  List all disconnected channels. See **[the method's page](https://api.slack.com/methods/admin.conversations.ekm.listOriginalConnectedChannelInfo)**
  or https://api.slack.com/methods/admin.conversations.ekm.listOriginalConnectedChannelInfo/test?token=xoxp-0000000000-0000000000-000000000000 directly.

  - \`channel_ids\`: a comma-separated list of \`C0123456789,C0123456790,C0123456791,C0123456792\`
effect: read
input:
  type: object
  properties:
    channel_ids_to_look_up_in_the_enterprise_grid_organization: { type: string, maxLength: 2000, pattern: "^C[A-Z0-9]{8,10}(?:,C[A-Z0-9]{8,10})*$", description: "See https://api.slack.com/enterprise/grid/channel-management-and-ekm-original-connected-channels" }
    cursor: { type: string, maxLength: 200, examples: ["dXNlcjpVMDYxTkZUVDI=dXNlcjpVMDYxTkZUVDI=dXNlcjpVMDYxTkZUVDI="] }
  required: []
output:
  type: object
  properties:
    ok: { type: boolean }
  required: [ok]
`;

  it("wraps them inside their boxes at 390 px", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-catalog-long-"));
    mkdirSync(join(dir, "definitions"));
    writeFileSync(join(dir, "definitions/admin_conversations_ekm_listOriginalConnectedChannelInfo.yaml"), LONG.replace(/\`/g, "`"));
    const written = await runCli(dir, ["docs", "--out", "catalog"]);
    expect(written.code, written.stderr).toBe(0);
    await expectNothingOverflows(join(dir, "catalog"), ["index.html", "tools/admin_conversations_ekm_listOriginalConnectedChannelInfo.html"], "long");
  });
});
