/**
 * Chaos for the second attack pass, from the other end of the wire
 * (docs/robustness.md, "A second attack pass"): a hostile server echoes a
 * call's secrets in every field of its failure envelope and claims retries
 * the contract rules out, its tools/list cursors go round in cycles, and
 * browser pages send any Host and Origin to a server on a non-loopback
 * address. Servers run in memory or on 127.0.0.1 only; every loop is
 * bounded. Fixed seed, run counts from config.ts.
 */
import { once } from "node:events";
import { createServer, request, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolClient } from "../../generator/runtime/client.js";
import { checkToolDrift, MAX_TOOL_LIST_PAGES, ToolListError } from "../../generator/runtime/drift.js";
import { createToolHttpHandler, type HttpHandlerOptions } from "../../generator/runtime/http.js";
import { createToolServer } from "../../generator/runtime/server.js";
import { connectInMemory } from "../runtime/connect.js";
import { contracts as orders, FakeOrders, makeHandlers } from "../runtime/fixtures.js";
import { CHAOS_SEED, runs, timeoutFor } from "./config.js";
import { containsString } from "./harness.js";

type Answer = Record<string, unknown>;

/** One in-memory server whose tools/call and tools/list answers each run scripts. */
let answerCall: () => Answer = () => ({ content: [] });
let answerList: (cursor: string | undefined) => Answer = () => ({ tools: [] });
let client: Awaited<ReturnType<typeof connectInMemory>> | undefined;

beforeAll(async () => {
  const server = new Server({ name: "hostile", version: "0.0.1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, () => answerCall() as never);
  server.setRequestHandler(ListToolsRequestSchema, (req) => answerList(req.params?.cursor) as never);
  client = await connectInMemory(server);
});
afterAll(async () => client?.close());

/** Distinctive, so it cannot occur by chance in a fixed message; alphanumeric, so no escaping hides it. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{8,30}$/).map((s) => `zQ${s}`);
const CODES = ["INVALID_INPUT", "INVALID_OUTPUT", "RETRYABLE", "REJECTED", "FAILED"] as const;

/** Which of the envelope's strings carry the secret, and how the envelope travels. */
const echo = fc.record({
  code: fc.constantFrom(...CODES),
  inMessage: fc.boolean(),
  inTool: fc.boolean(),
  inReason: fc.constantFrom("none", "declared", "secret"),
  inIssues: fc.array(fc.constantFrom("path", "message", "both", "neither"), { maxLength: 3 }),
  inExtra: fc.boolean(),
  channel: fc.constantFrom("meta", "text", "both", "notJson"),
  retryable: fc.boolean(),
  effect: fc.constantFrom("none", "applied", "unknown"),
});
type Echo = typeof echo extends fc.Arbitrary<infer E> ? E : never;

/** The tools/call result a hostile server sends for `tool`, quoting `s` where `e` says. */
function hostileResult(tool: string, s: string, e: Echo): Answer {
  const envelope: Answer = {
    ok: false, code: e.code, message: e.inMessage ? `bad ${s}` : "bad", retryable: e.retryable, effect: e.effect,
    tool: e.inTool ? `${tool} ${s}` : tool, version: 2, attempts: 1,
    ...(e.inReason === "none" ? {} : { reason: e.inReason === "declared" ? "CUSTOMER_BLOCKED" : s }),
    ...(e.inIssues.length === 0 ? {} : { issues: e.inIssues.map((at) => ({ path: ["path", "both"].includes(at) ? `apiKey.${s}` : "apiKey", message: ["message", "both"].includes(at) ? `${s} is wrong` : "is wrong" })) }),
    ...(e.inExtra ? { extra: s } : {}),
  };
  const text = e.channel === "notJson" ? `upstream said ${s} <html>` : JSON.stringify(envelope);
  return { isError: true, content: [{ type: "text", text }], ...(e.channel === "text" ? {} : { _meta: { "toolc/failure": envelope } }) };
}

/** What each fixture contract says about retries: read, idempotent, or with an idempotency key. */
const RETRY_SAFE = { get_order: true, delete_order: false, charge_card: true, tag_resource: true } as const;

describe("chaos: the typed client against a hostile server", () => {
  const n = runs(2, 50);
  it(`passes on no secret the server echoes, anywhere in the envelope, and names the tool it called (${n} runs)`, async () => {
    const tools = createToolClient(orders, client!.client);
    const calls = {
      get_order: (s: string) => tools.get_order({ customerId: "c", apiKey: s }),
      charge_card: (s: string) => tools.charge_card({ requestId: "r", amountCents: 1, card: { number: s, cvc: "123" } }),
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("get_order", "charge_card" as const), secret, echo, async (tool, s, e) => {
        answerCall = () => hostileResult(tool, s, e);
        const result = await calls[tool](s);
        expect(result.ok).toBe(false);
        expect(containsString(result, s), JSON.stringify(result)).toBe(false);
        expect(result.ok === false && result.tool).toBe(tool);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n));

  it("found by this property: a secret as the `reason` of an envelope that is not REJECTED (a reason is REJECTED's alone) is dropped", async () => {
    const tools = createToolClient(orders, client!.client);
    const s = "zQ0A0AA0AA";
    answerCall = () => hostileResult("get_order", s, { code: "INVALID_INPUT", inMessage: false, inTool: false, inReason: "secret", inIssues: [], inExtra: false, channel: "meta", retryable: false, effect: "none" });
    const result = await tools.get_order({ customerId: "c", apiKey: s });
    expect(result).toEqual({ ok: false, code: "INVALID_INPUT", message: "bad", retryable: false, effect: "none", tool: "get_order", version: 2, attempts: 1 });
  });

  it(`takes the retry verdict from the contract: a RETRYABLE for a tool not safe to retry is FAILED, effect unknown (${n} runs)`, async () => {
    const tools = createToolClient(orders, client!.client);
    const inputs = { get_order: { customerId: "c" }, delete_order: { orderId: "o" }, charge_card: { requestId: "r", amountCents: 1, card: { number: "4242", cvc: "123" } }, tag_resource: { tags: {} } };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(inputs) as (keyof typeof inputs)[])), echo, async (tool, e) => {
        answerCall = () => hostileResult(tool, "nothing-secret", { ...e, channel: e.channel === "notJson" ? "meta" : e.channel, inReason: "none" });
        const result = await (tools[tool] as (input: unknown) => Promise<{ ok: boolean; code?: string; retryable?: boolean; effect?: string }>)(inputs[tool]);
        const said = e.code === "REJECTED" ? "FAILED" : e.code;
        const expected = said === "RETRYABLE" && !RETRY_SAFE[tool] ? "FAILED" : said;
        expect(result).toMatchObject({ ok: false, code: expected, retryable: expected === "RETRYABLE" });
        if (said === "RETRYABLE" && !RETRY_SAFE[tool]) expect(result.effect).toBe("unknown");
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n));
});

describe("chaos: tools/list cursors that go round", () => {
  const n = runs(10, 20);
  /** Fresh cursors, then a cursor given before (a cycle) or the end; now and then more fresh ones than the page limit. */
  const listing = fc.record({
    fresh: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: MAX_TOOL_LIST_PAGES - 2, max: MAX_TOOL_LIST_PAGES + 40 }) }),
    alphabet: fc.string({ minLength: 1, maxLength: 6 }),
    repeat: fc.option(fc.nat(), { nil: undefined }),
  });

  it(`verifyServer's check stops at the first repeated cursor or at the page limit, and reads no page past it (${n} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(listing, async ({ fresh, alphabet, repeat }) => {
        const cursors = Array.from({ length: fresh }, (_, i) => `${alphabet}${i}`);
        const cycles = repeat !== undefined && fresh > 0;
        let served = 0;
        answerList = () => {
          const page = served++;
          const next = page < fresh ? cursors[page] : cycles ? cursors[repeat % fresh] : undefined;
          return { tools: [{ name: "get_order", inputSchema: { type: "object" } }], ...(next === undefined ? {} : { nextCursor: next }) };
        };
        const outcome = await checkToolDrift(orders, client!.client).then(() => undefined, (e: unknown) => e);
        // Page p (from 0) gives the p-th fresh cursor; page `fresh` gives the repeat, or none.
        const pages = fresh + 1;
        if (pages > MAX_TOOL_LIST_PAGES) expect(outcome).toMatchObject({ problem: "too-many-pages", pages: MAX_TOOL_LIST_PAGES });
        else if (cycles) expect(outcome).toMatchObject({ problem: "repeated-cursor", pages });
        else expect(outcome).toBeUndefined();
        if (outcome !== undefined) expect(outcome).toBeInstanceOf(ToolListError);
        expect(served).toBe(Math.min(pages, MAX_TOOL_LIST_PAGES));
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 200));
});

describe("chaos: any Host and Origin against a server on a non-loopback address without allowedHosts", () => {
  // One listener on 127.0.0.1 whose connections are seen to arrive on `localAddress`, as on a server bound to another
  // interface (test/runtime/http-guard.test.ts does the same); each run gets a handler of its own.
  let http: HttpServer;
  let port = 0;
  let handle: ReturnType<typeof createToolHttpHandler> = async () => {};
  let localAddress = "192.0.2.10";
  let created = 0;

  beforeAll(async () => {
    http = createServer((req, res) => {
      Object.defineProperty(req.socket, "localAddress", { value: localAddress, configurable: true });
      return handle(req, res);
    });
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    port = (http.address() as AddressInfo).port;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  function post(headers: Record<string, string>): Promise<number> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** An IPv6 address as Node writes it (a socket's localAddress, a URL's host): `[0::0]` is `[::]`, and the SDK answers 400 to a Host not written so. */
  const ipV6 = fc.ipV6().map((a) => new URL(`http://[${a}]`).hostname.slice(1, -1));
  const notLoopback = fc.oneof(fc.ipV4().filter((a) => !a.startsWith("127.")), ipV6.filter((a) => a !== "::1" && !a.startsWith("::ffff:7f")));
  const hostName = fc.oneof(fc.domain(), fc.ipV4(), ipV6.map((a) => `[${a}]`), fc.constantFrom("localhost", "127.0.0.1", "[::1]"));
  const hostPort = fc.tuple(hostName, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([h, p]) => (p === undefined ? h : `${h}:${p}`));
  /** What a browser page sends: no Origin (not a browser), its own name (a rebound page), another site, `null`, or a listed origin. */
  const originFor = (host: string, listed: readonly string[]) =>
    fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("http", "https").map((scheme) => `${scheme}://${host}`),
      fc.tuple(fc.constantFrom("http", "https"), hostPort).map(([scheme, other]) => `${scheme}://${other}`),
      fc.constant("null"),
      ...(listed.length === 0 ? [] : [fc.constantFrom(...listed)]),
    );
  const scenario = fc
    .record({
      address: notLoopback,
      allowedOrigins: fc.option(fc.uniqueArray(hostPort.map((h) => `https://${h}`), { maxLength: 3 }), { nil: undefined }),
      hosts: fc.array(hostPort, { minLength: 1, maxLength: 3 }),
    })
    .chain(({ address, allowedOrigins, hosts }) =>
      fc.tuple(...hosts.map((host) => originFor(host, allowedOrigins ?? []).map((origin) => ({ host, origin })))).map((requests) => ({ address, allowedOrigins, requests })),
    );

  const n = runs(10, 50);
  it(`refuses every request without allowedOrigins, and with it every Origin it does not list, creates nothing for them, and serves the rest (${n} runs)`, async () => {
    const handlers = makeHandlers(new FakeOrders());
    await fc.assert(
      fc.asyncProperty(scenario, async ({ address, allowedOrigins, requests }) => {
        const options: HttpHandlerOptions = allowedOrigins === undefined ? {} : { allowedOrigins };
        handle = createToolHttpHandler(() => (created++, createToolServer(orders, handlers)), options);
        localAddress = address;
        for (const { host, origin } of requests) {
          const before = created;
          const status = await post({ host, ...(origin === undefined ? {} : { origin }) });
          const allowed = allowedOrigins !== undefined && (origin === undefined || allowedOrigins.includes(origin));
          expect([status, created - before], `${host} ${origin}`).toEqual(allowed ? [200, 1] : [403, 0]);
        }
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 200));
});
