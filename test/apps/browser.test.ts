/**
 * MCP Apps in a real browser: Debian's Chromium (playwright-core) loads a
 * small host page written on the extension's AppBridge (host-page.ts), which
 * connects to the generated server (SDK 2.x, protocol 2026-07-28) over
 * Streamable HTTP, calls the tool and renders its `ui://` view in a
 * sandboxed iframe. The view is the fixture's, written against the generated
 * typed wrapper (view-source.ts) and bundled into the view's HTML, which the
 * contract's `ui.source` names. Checked: the view shows the result; a button
 * in it calls the app-only tool through the host and the server's border
 * (INVALID_INPUT for a bad amount, the output for a good one); and the
 * iframe's CSP, from the contract, blocks an origin the contract did not
 * list. Screenshots go to docs/apps/.
 */
import { createServer as createNodeServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../compiler/helpers.js";
import { generate } from "../contract-tests/project.js";
import { launchChromium, watchProblems, type Browser } from "../helpers/chromium.js";
import { appsProject } from "./project.js";
import { ORDER_VIEW_SOURCE } from "./view-source.js";

const SCREENSHOTS = join(ROOT, "docs/apps");
/** The pinned ext-apps first, then toolc's own packages (the SDK client it shares). */
const NODE_PATHS = [join(ROOT, "test/apps-runtimes/node_modules"), join(ROOT, "node_modules")];

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    nodePaths: NODE_PATHS,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

const VIEW_PAGE = (script: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Order</title>
<style>body{font:15px system-ui;margin:12px}button{margin:4px 4px 0 0}#status{font-weight:600}</style></head>
<body>
<p id="status">waiting for the order</p>
<button id="refund">Refund 3.00</button><button id="refund-bad">Refund 0</button>
<p><input id="probe-url" size="40"><button id="probe">Fetch</button></p>
<p id="outcome"></p>
<script type="module">${script.replace(/<\/script/gi, "<\\/script")}</script>
</body></html>
`;

const handlers = {
  show_order: (input: { orderId: string }) => ({ orderId: input.orderId, status: "paid", total: 1250 }),
  refund_order: (input: { amount: number }) => ({ refunded: input.amount }),
};

let dir: string;
let http: ReturnType<typeof createNodeServer>;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  dir = await appsProject(2);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/order-view.ts"), ORDER_VIEW_SOURCE);
  // The view's bundle is the contract's ui.source; generating again embeds it.
  writeFileSync(join(dir, "definitions/views/order.html"), VIEW_PAGE(await bundle(join(dir, "src/order-view.ts"))));
  await generate(dir);
  const hostScript = await bundle(join(ROOT, "test/apps/host-page.ts"));
  const { createHttpHandler } = (await import(pathToFileURL(join(dir, "generated/http.ts")).href)) as { createHttpHandler(h: unknown): RequestListener };
  const mcp = createHttpHandler(handlers);
  http = createNodeServer((req, res) => {
    if (req.url === "/")
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end('<!doctype html><meta charset="utf-8"><title>host</title><div id="view"></div><script type="module" src="/host.js"></script>');
    if (req.url === "/host.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(hostScript);
    if (req.url === "/favicon.ico") return void res.writeHead(204).end();
    if (req.url === "/elsewhere") return void res.writeHead(200, { "access-control-allow-origin": "*" }).end("reached");
    return mcp(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("an MCP Apps view in Chromium, on a host built on the extension's AppBridge", () => {
  it("shows the tool's result, calls the app-only tool through the border, and is held to the contract's CSP", async () => {
    const page = await browser.context.newPage();
    const problems = watchProblems(page);
    const violations: string[] = [];
    page.on("console", (message) => violations.push(message.text()));
    await page.goto(`${origin}/`);
    const view = page.frameLocator("iframe");
    await expect.poll(() => view.locator("#status").textContent(), { timeout: 30_000 }).toBe("ord_42: Paid, 12.50");
    const log = await page.evaluate(() => (globalThis as unknown as { hostLog: string[] }).hostLog);
    expect(log).toEqual(["protocol 2026-07-28", "view ui://show_order/view.html", "mime text/html;profile=mcp-app", "view initialized", "result sent"]);
    await page.locator("iframe").screenshot({ path: join(SCREENSHOTS, "view-result.png") });

    // A bad amount: the server's border refuses it, and the view gets the envelope.
    await view.locator("#refund-bad").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe("INVALID_INPUT at amount");
    await page.locator("iframe").screenshot({ path: join(SCREENSHOTS, "view-invalid-input.png") });
    await view.locator("#refund").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe("refunded 300");

    // An origin the contract's connectDomains does not list: the CSP blocks the fetch (the server would answer it).
    await view.locator("#probe-url").fill(`${origin}/elsewhere`);
    await view.locator("#probe").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe(`fetch blocked: ${origin}/elsewhere`);
    expect(violations.some((text) => text.includes("Content Security Policy") && text.includes("connect-src") && text.includes(`${origin}/elsewhere`))).toBe(
      true,
    );
    await page.locator("iframe").screenshot({ path: join(SCREENSHOTS, "view-csp-blocked.png") });
    // Nothing else went wrong: the only errors are the CSP's own report of the blocked fetch, and the
    // 405 a stateless Streamable HTTP server answers the client's optional GET for a standalone SSE stream.
    const expected = (e: string) => e.includes("Content Security Policy") || e.includes("/elsewhere") || e.includes("status of 405");
    expect(problems.errors.filter((e) => !expected(e))).toEqual([]);
  }, 120_000);
});
