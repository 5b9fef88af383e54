/**
 * The HTTP entry's `Mcp-Param-*` check (SEP-2243), table-driven: which
 * header and body pairs agree, and that only 2026-07-28 tools/call requests
 * are checked at all. The end-to-end tests (test/e2e/mcp-2026.test.ts) send
 * the same over a real socket to a generated server.
 */
import { describe, expect, it } from "vitest";
import { paramHeaderMismatch } from "../../generator/runtime/mcp-headers.js";
import type { McpParamHeader } from "../../generator/runtime/contract.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const DECLARED: ReadonlyMap<string, readonly McpParamHeader[]> = new Map([
  ["t", [
    { name: "Region", path: ["region"], type: "string" },
    { name: "Shard", path: ["where", "shard"], type: "integer" },
    { name: "Dry", path: ["dry"], type: "boolean" },
  ]],
]);

function body(args: Record<string, unknown>, meta: Record<string, unknown> = { [VERSION_KEY]: "2026-07-28" }, name = "t") {
  return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: meta } };
}
const b64 = (text: string): string => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

describe("Mcp-Param-* headers against the body", () => {
  it.each([
    ["matching headers", { region: "eu-west1", where: { shard: 7 }, dry: true }, { "mcp-param-region": "eu-west1", "mcp-param-shard": "7", "mcp-param-dry": "true" }],
    ["an integer written as 7.0", { where: { shard: 7 } }, { "mcp-param-shard": "7.0" }],
    ["a Base64 sentinel for non-ASCII text", { region: "Zürich" }, { "mcp-param-region": b64("Zürich") }],
    ["a null value, with no header", { region: null }, {}],
    ["an absent value, with a header sent anyway", {}, { "mcp-param-region": "anything" }],
  ])("accepts %s", (_name, args, headers) => {
    expect(paramHeaderMismatch(body(args), headers, DECLARED, VERSION_KEY)).toBeUndefined();
  });

  it.each([
    ["a missing header", { region: "eu" }, {}, /Mcp-Param-Region header is missing/],
    ["a different value", { region: "eu" }, { "mcp-param-region": "us" }, /does not match arguments\.region/],
    ["a different integer", { where: { shard: 7 } }, { "mcp-param-shard": "8" }, /does not match arguments\.where\.shard/],
    ["a boolean spelt otherwise", { dry: false }, { "mcp-param-dry": "False" }, /does not match arguments\.dry/],
    ["a broken Base64 sentinel", { region: "eu" }, { "mcp-param-region": "=?base64?***?=" }, /malformed/],
    ["a non-ASCII value sent raw", { region: "Zürich" }, { "mcp-param-region": "Zürich" }, /malformed/],
    ["a header sent twice", { region: "eu" }, { "mcp-param-region": ["eu", "eu"] }, /malformed/],
  ])("refuses %s", (_name, args, headers, message) => {
    expect(paramHeaderMismatch(body(args), headers, DECLARED, VERSION_KEY)).toMatch(message);
  });

  it.each([
    ["a 2025-era request, without the envelope", body({ region: "eu" }, {})],
    ["another tool", body({ region: "eu" }, undefined, "other")],
    ["another method", { ...body({ region: "eu" }), method: "tools/list" }],
    ["a body that is not an object", [body({ region: "eu" })]],
  ])("does not check %s", (_name, request) => {
    expect(paramHeaderMismatch(request, {}, DECLARED, VERSION_KEY)).toBeUndefined();
  });

  it("checks nothing on a line that serves no 2026-07-28 request", () => {
    expect(paramHeaderMismatch(body({ region: "eu" }), {}, DECLARED, undefined)).toBeUndefined();
  });
});
