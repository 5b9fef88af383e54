/**
 * The demo's view (definitions/get_order.yaml's `ui:`, definitions/views/orders.html),
 * served by the committed generated/ server (SDK 2.x): listed for a 2025-11-25
 * client through the real SDK client, and rendered in Debian's Chromium by the
 * host page on ext-apps' AppBridge (host-page.ts) over protocol 2026-07-28.
 * The view shows get_order's result; its button calls create_refund through
 * the host and the server's border (INVALID_INPUT for a zero amount, the
 * refund for a good one); the iframe's CSP, from the contract, blocks an
 * origin the contract did not list. Screenshots go to docs/apps/.
 */
import { createServer as createNodeServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT } from "../compiler/helpers.js";
import { launchChromium, watchProblems, type Browser } from "../helpers/chromium.js";

const SCREENSHOTS = join(ROOT, "docs/apps");
const MIME = "text/html;profile=mcp-app";
const URI = "ui://get_order/view.html";

const handlers = {
  get_order: (input: { customerId: string }) => ({
    found: true,
    customerId: input.customerId,
    orders: [
      { id: "ord_1", status: "paid" },
      { id: "ord_2", status: "pending" },
    ],
  }),
  create_refund: (input: { amount: { amountCents: number; currency: string } }) => ({
    refundId: "re_1",
    status: "pending",
    amount: input.amount,
    createdAt: "2026-03-01T12:00:00Z",
  }),
  search_orders: () => ({ orders: [] }),
  delete_customer: () => ({ deleted: true }),
};

let http: ReturnType<typeof createNodeServer>;
let origin: string;

beforeAll(async () => {
  const { createHttpHandler } = (await import(pathToFileURL(join(ROOT, "generated/http.ts")).href)) as { createHttpHandler(h: unknown): RequestListener };
  const hostScript = (
    await build({
      entryPoints: [join(ROOT, "test/apps/host-page.ts")],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      nodePaths: [join(ROOT, "test/apps-runtimes/node_modules"), join(ROOT, "node_modules")],
      logLevel: "silent",
    })
  ).outputFiles[0]!.text;
  const mcp = createHttpHandler(handlers);
  http = createNodeServer((req, res) => {
    if (req.url?.startsWith("/?") === true || req.url === "/")
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
}, 120_000);

afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

describe("the demo's view, listed for a 2025-11-25 client", () => {
  it("lists get_order with _meta.ui and the legacy key, and its ui:// resource", async () => {
    const client = new Client(
      { name: "demo-apps-test", version: "1" },
      { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["create_refund", "delete_customer", "get_order", "search_orders"]);
      expect(tools.find((t) => t.name === "get_order")?._meta).toMatchObject({ ui: { resourceUri: URI }, "ui/resourceUri": URI });
      expect(tools.find((t) => t.name === "create_refund")?._meta).not.toHaveProperty("ui");
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        expect.objectContaining({
          uri: URI,
          name: "get_order",
          title: "Orders",
          mimeType: MIME,
          _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } },
        }),
      ]);
      const read = await client.readResource({ uri: URI });
      expect(read.contents[0]).toMatchObject({ uri: URI, mimeType: MIME });
      expect((read.contents[0] as { text: string }).text).toContain('"ui/initialize"');
    } finally {
      await client.close();
    }
  });
});

describe("the demo's view in Chromium, on a host built on the extension's AppBridge", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => browser?.close());

  it("shows get_order's result, calls create_refund through the border, and is held to the contract's CSP", async () => {
    const page = await browser.context.newPage();
    const problems = watchProblems(page);
    const violations: string[] = [];
    page.on("console", (message) => violations.push(message.text()));
    await page.goto(`${origin}/?tool=get_order&args=${encodeURIComponent(JSON.stringify({ customerId: "cus_1" }))}`);
    const view = page.frameLocator("iframe");
    await expect.poll(() => view.locator("#status").textContent(), { timeout: 30_000 }).toBe("cus_1: 2 order(s)");
    expect(await view.locator("#orders li").allTextContents()).toEqual(["ord_1 paid", "ord_2 awaiting payment"]);
    const log = await page.evaluate(() => (globalThis as unknown as { hostLog: string[] }).hostLog);
    expect(log).toEqual(["protocol 2026-07-28", `view ${URI}`, `mime ${MIME}`, "view initialized", "result sent"]);

    await view.locator("#refund-bad").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe("INVALID_INPUT at amount.amountCents");
    await page.locator("iframe").screenshot({ path: join(SCREENSHOTS, "demo-invalid-input.png") });
    await view.locator("#refund").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe("refund re_1 pending");

    await view.locator("#probe-url").fill(`${origin}/elsewhere`);
    await view.locator("#probe").click();
    await expect.poll(() => view.locator("#outcome").textContent(), { timeout: 15_000 }).toBe(`fetch blocked: ${origin}/elsewhere`);
    await page.locator("iframe").screenshot({ path: join(SCREENSHOTS, "demo-csp-blocked.png") });
    expect(violations.some((text) => text.includes("Content Security Policy") && text.includes("connect-src") && text.includes(`${origin}/elsewhere`))).toBe(
      true,
    );
    const expected = (e: string) => e.includes("Content Security Policy") || e.includes("/elsewhere") || e.includes("status of 405");
    expect(problems.errors.filter((e) => !expected(e))).toEqual([]);
  }, 120_000);
});
