/**
 * The README's picture of the catalog: the demo's index in Chromium, from
 * disk, written to docs/catalog.png. Run: npm run screenshot:catalog
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium } from "../test/helpers/chromium.js";

const ROOT = new URL("../", import.meta.url).pathname;

const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 470 });
  await page.goto(pathToFileURL(join(ROOT, "demo/catalog/index.html")).href);
  await page.screenshot({ path: join(ROOT, "docs/catalog.png") });
} finally {
  await browser.close();
}
