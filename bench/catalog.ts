/**
 * The tool catalog in Chromium: how long the index of the 117 GitHub MCP
 * tools (imported with `toolc import`, written with `toolc docs`) takes to
 * load from disk, beside the demo's 4-tool index and an empty page (the
 * floor: what Chromium costs for any file://), and how long one search
 * keystroke takes to filter it. Each page is opened in a fresh tab, the
 * three interleaved round by round; the time is the Navigation Timing
 * entry's start to the end of the load event.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CHROMIUM, launchChromium } from "../test/helpers/chromium.js";
import { median } from "./lib/measure.js";
import { ROOT, tempProject, toolc } from "./lib/project.js";

const GITHUB = join(ROOT, "test/corpus/github-mcp-toolsnaps");

export interface CatalogBench {
  readonly docsMs: number;
  readonly pages: readonly { readonly label: string; readonly tools: number; readonly kb: number; readonly loadMs: number }[];
  readonly keystrokeMs: number;
}

const LOAD_MS = `(() => { const e = performance.getEntriesByType("navigation")[0]; return e.loadEventEnd - e.startTime; })()`;

/** Types one letter into the index's search and times the filter's work on every row. */
const KEYSTROKE_MS = `(() => {
  const search = document.getElementById("toolc-search");
  search.value = search.value === "p" ? "pu" : "p";
  const t0 = performance.now();
  search.dispatchEvent(new Event("input", { bubbles: true }));
  return performance.now() - t0;
})()`;

export async function benchCatalog(rounds: number): Promise<CatalogBench | string> {
  if (!existsSync(CHROMIUM)) return `skipped: ${CHROMIUM} not found (apt-get install -y chromium)`;
  const dir = tempProject("catalog");
  toolc(dir, ["import", GITHUB, "--out", "definitions"]);
  const docsMs = toolc(dir, ["docs", "--out", "catalog"]);
  mkdirSync(join(dir, "floor"));
  writeFileSync(join(dir, "floor/index.html"), "<!DOCTYPE html><title>floor</title>\n");
  const targets = [
    { label: "empty page (floor)", tools: 0, file: join(dir, "floor/index.html") },
    { label: "demo index", tools: 4, file: join(ROOT, "demo/catalog/index.html") },
    { label: "GitHub MCP index", tools: 117, file: join(dir, "catalog/index.html") },
  ];
  const browser = await launchChromium();
  try {
    const samples = targets.map((): number[] => []);
    const keystrokes: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      for (const [i, target] of targets.entries()) {
        const page = await browser.context.newPage();
        await page.goto(pathToFileURL(target.file).href, { waitUntil: "load" });
        const ms = (await page.evaluate(LOAD_MS)) as number;
        // Round 0 warms Chromium's caches up and is not counted.
        if (round > 0) samples[i]?.push(ms);
        if (round > 0 && target.tools === 117) for (let k = 0; k < 5; k++) keystrokes.push((await page.evaluate(KEYSTROKE_MS)) as number);
        await page.close();
      }
    }
    const pages = targets.map((t, i) => ({ label: t.label, tools: t.tools, kb: statSync(t.file).size / 1024, loadMs: median(samples[i] ?? []) }));
    return { docsMs, pages, keystrokeMs: median(keystrokes) };
  } finally {
    await browser.close();
  }
}
