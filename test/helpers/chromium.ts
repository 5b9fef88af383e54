/**
 * Debian's Chromium, driven by playwright-core (which never downloads a
 * browser of its own), for the catalog's browser tests, its bench row and
 * the README screenshot. Every launch gets a new empty profile, and the
 * flags keep Chromium from reaching for the network at start-up, which a
 * closed machine refuses.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium, headless, with a fresh profile that is deleted on close. */
export async function launchChromium(options: { colorScheme?: "light" | "dark" } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's Chromium (apt-get install -y chromium), as .ci/run does`);
  const profile = mkdtempSync(join(tmpdir(), "toolc-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, colorScheme: options.colorScheme ?? "light" });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Everything a page reports that would mean something went wrong: console errors, uncaught exceptions, failed requests, dialogs. */
export interface PageProblems {
  readonly errors: string[];
  readonly dialogs: string[];
}

/** Listens on `page` for problems; a dialog is recorded and dismissed, so a script that opens one cannot hang the test. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { errors: [], dialogs: [] };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.errors.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.errors.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.errors.push(`request failed: ${request.url()}`));
  page.on("dialog", (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}
