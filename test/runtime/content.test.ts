/**
 * Content blocks through the real executor, real validators and a real SDK
 * client: ctx.attach adds checked blocks after the output's text block,
 * blocks are dropped on failure (and on a retried attempt), an undeclared
 * kind or a malformed block fails the call as invalid output with a located
 * issue in the trace, and the typed client hands the blocks back.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { checkContent, type ContentBlock, type ImageBlock } from "../../generator/runtime/content.js";
import type { ToolContract } from "../../generator/runtime/contract.js";
import { TransientError } from "../../generator/runtime/errors.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { createToolClient, createToolServer, type HandlerFor, type TraceEvent } from "../../generator/runtime/api.js";
import { defineContract } from "./fixtures.js";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const IMAGE: ImageBlock = { type: "image", data: PNG, mimeType: "image/png" };
const LINK: ContentBlock = { type: "resource_link", uri: "file:///charts/1.png", name: "chart.png", mimeType: "image/png" };

type Out = { width: number };
const base = defineContract<Record<string, never>, Record<string, never>, Out>({
  name: "render_chart",
  effect: "read",
  retry: { attempts: 3, backoffMs: 1, maxBackoffMs: 1 },
  input: { type: "object", additionalProperties: false },
  output: { type: "object", properties: { width: { type: "integer" } }, required: ["width"], additionalProperties: false },
});
/** Declares image and resource_link only. */
const chart = { ...base, content: ["image", "resource_link"] } as ToolContract<Record<string, never>, Record<string, never>, Out, never, "image" | "resource_link">;
/** Declares nothing: any kind may be attached. */
const open: ToolContract<Record<string, never>, Record<string, never>, Out> = base;

function traced(): { events: TraceEvent[]; onTrace: (e: TraceEvent) => void } {
  const events: TraceEvent[] = [];
  return { events, onTrace: (e) => events.push(e) };
}

describe("ctx.attach through the executor", () => {
  it("returns the attached blocks, checked, with the output", async () => {
    const handler: HandlerFor<typeof chart> = (_input, ctx) => {
      ctx.attach(IMAGE);
      ctx.attach(LINK as Extract<ContentBlock, { type: "resource_link" }>);
      return { width: 1 };
    };
    expect(await executeTool(chart, {}, handler)).toEqual({ ok: true, data: { width: 1 }, content: [IMAGE, LINK] });
  });

  it("leaves the result as it was when nothing is attached", async () => {
    const result = await executeTool(open, {}, () => ({ width: 2 }));
    expect(result).toEqual({ ok: true, data: { width: 2 } });
    expect(result).not.toHaveProperty("content");
  });

  it("copies a block when the handler returns: a later change to it never reaches the caller", async () => {
    const block = { type: "text" as const, text: "before" };
    const result = await executeTool(open, {}, (_i, ctx) => {
      ctx.attach(block);
      setTimeout(() => (block.text = "after"), 0);
      return { width: 1 };
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(result.ok && result.content).toEqual([{ type: "text", text: "before" }]);
  });

  it("drops the blocks when the call fails, whatever the failure", async () => {
    const rejecting = defineContract<Record<string, never>, Record<string, never>, Out, "NO">({ ...{ name: "r", effect: "read" }, errors: { NO: "no" }, input: base.inputSchema, output: base.outputSchema });
    expect(await executeTool(rejecting, {}, (_i, ctx) => (ctx.attach(IMAGE), ctx.reject("NO")))).not.toHaveProperty("content");
    expect(await executeTool(open, {}, (_i, ctx) => (ctx.attach(IMAGE), { width: "wide" as unknown as number }))).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    const thrown = await executeTool(open, {}, (_i, ctx) => {
      ctx.attach(IMAGE);
      throw new Error("boom");
    });
    expect(thrown).toMatchObject({ ok: false, code: "FAILED" });
    expect(thrown).not.toHaveProperty("content");
  });

  it("keeps only the successful attempt's blocks when a retry succeeds", async () => {
    const result = await executeTool(open, {}, (_i, ctx) => {
      ctx.attach({ type: "text", text: `attempt ${ctx.attempt}` });
      if (ctx.attempt < 3) throw new TransientError("busy");
      return { width: 3 };
    });
    expect(result).toEqual({ ok: true, data: { width: 3 }, content: [{ type: "text", text: "attempt 3" }] });
  });

  it("fails the call as invalid output when a kind is not declared, with the issue in the trace only", async () => {
    const { events, onTrace } = traced();
    const result = await executeTool(chart, {}, (_i, ctx) => {
      ctx.attach(IMAGE);
      // @ts-expect-error: audio is not among the contract's content kinds
      ctx.attach({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" });
      return { width: 1 };
    }, { onTrace });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false, attempts: 1 });
    expect(result).not.toHaveProperty("issues");
    expect(events.at(-1)?.issuePaths).toEqual(["/content/1/type"]);
    expect(events.at(-1)?.outputIssues?.[0]?.message).toContain("does not declare");
  });

  it("locates a malformed block in the trace", async () => {
    const { events, onTrace } = traced();
    const result = await executeTool(open, {}, (_i, ctx) => (ctx.attach({ type: "image", data: "not base64!", mimeType: "png" }), { width: 1 }), { onTrace });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(events.at(-1)?.issuePaths).toEqual(["/content/0/data", "/content/0/mimeType"]);
  });
});

describe("block shape checks", () => {
  const paths = (blocks: unknown[], declared?: ("image" | "audio" | "text" | "resource" | "resource_link")[]) => {
    const checked = checkContent(blocks, declared);
    return checked.ok ? [] : checked.issues.map((i) => i.path);
  };

  it("accepts every MCP block kind in its documented shape", () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "hello", annotations: { audience: ["user"], priority: 0.5 } },
      IMAGE,
      { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } },
      { type: "resource", resource: { uri: "file:///a.bin", blob: "AAEC" } },
      { ...LINK, icons: [{ src: "https://example.com/i.png", sizes: ["48x48"], theme: "dark" }] } as ContentBlock,
    ];
    expect(checkContent(blocks, undefined)).toEqual({ ok: true, blocks });
  });

  it("checks base64, media types, URIs, names and the text/blob choice", () => {
    expect(paths([{ type: "image", data: "", mimeType: "image/png" }])).toEqual(["/content/0/data"]);
    expect(paths([{ type: "image", data: "AAA", mimeType: "image/png" }])).toEqual(["/content/0/data"]);
    expect(paths([{ type: "image", data: "AAAA", mimeType: "audio/wav" }])).toEqual(["/content/0/mimeType"]);
    expect(paths([{ type: "audio", data: "AA==", mimeType: "audio" }])).toEqual(["/content/0/mimeType"]);
    expect(paths([{ type: "resource", resource: { uri: "no scheme", text: "x" } }])).toEqual(["/content/0/resource/uri"]);
    expect(paths([{ type: "resource", resource: { uri: "a:b", text: "x", blob: "AAAA" } }])).toEqual(["/content/0/resource"]);
    expect(paths([{ type: "resource", resource: { uri: "a:b" } }])).toEqual(["/content/0/resource"]);
    expect(paths([{ type: "resource", resource: { uri: "a:b", blob: "%%%%" } }])).toEqual(["/content/0/resource/blob"]);
    expect(paths([{ type: "resource_link", uri: "a:b" }])).toEqual(["/content/0/name"]);
    expect(paths([{ type: "resource_link", uri: "a:b", name: "n", icons: [{ src: "x" }] }])).toEqual(["/content/0/icons/0/src"]);
    expect(paths([{ type: "text", text: 1 }])).toEqual(["/content/0/text"]);
    expect(paths([{ type: "video" }])).toEqual(["/content/0/type"]);
    expect(paths(["text"])).toEqual(["/content/0"]);
  });

  it("rejects fields MCP does not define on a block, so nothing slips out with it", () => {
    expect(paths([{ type: "text", text: "t", internal: "secret" }])).toEqual(["/content/0/internal"]);
    expect(paths([{ type: "text", text: "t", annotations: { priority: 2, x: 1 } }])).toEqual(["/content/0/annotations/x", "/content/0/annotations/priority"]);
    // Field names are JSON-pointer tokens in the path: `~` and `/` are encoded.
    expect(paths([{ type: "text", text: "t", "a/b~c": 1 }])).toEqual(["/content/0/a~1b~0c"]);
  });

  it("checks kinds against the declared ones", () => {
    expect(paths([IMAGE, { type: "text", text: "t" }], ["image"])).toEqual(["/content/1/type"]);
    expect(paths([IMAGE], ["image"])).toEqual([]);
  });

  it("refuses what is not plain JSON", () => {
    expect(paths([{ type: "text", text: "t", get annotations() { return new Date(); } }])).toEqual(["/content"]);
  });
});

describe("over MCP, with the typed client", () => {
  async function connected() {
    const handler: HandlerFor<typeof chart> = (_i, ctx) => (ctx.attach(IMAGE), ctx.attach(LINK as Extract<ContentBlock, { type: "resource_link" }>), { width: 7 });
    const server = createToolServer({ render_chart: { ...chart, icons: [{ src: "https://example.com/chart.svg", mimeType: "image/svg+xml", sizes: ["any"] }] } }, { render_chart: handler });
    const client = new Client({ name: "content-test", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    return { client, close: async () => (await client.close(), await server.close()) };
  }

  it("sends structuredContent, its text block, then the attached blocks; the typed client returns them", async () => {
    const { client, close } = await connected();
    try {
      const raw = await client.request({ method: "tools/call", params: { name: "render_chart", arguments: {} } }, CallToolResultSchema);
      expect(raw.structuredContent).toEqual({ width: 7 });
      expect(raw.content).toEqual([{ type: "text", text: '{"width":7}' }, IMAGE, LINK]);
      const { tools } = await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema);
      expect(tools[0]?.icons).toEqual([{ src: "https://example.com/chart.svg", mimeType: "image/svg+xml", sizes: ["any"] }]);
      const typed = createToolClient({ render_chart: chart }, client);
      const result = await typed.render_chart({});
      expect(result).toEqual({ ok: true, data: { width: 7 }, content: [IMAGE, LINK] });
    } finally {
      await close();
    }
  });

  it("the typed client reports a block of an undeclared kind from the server as INVALID_OUTPUT", async () => {
    const { client, close } = await connected();
    try {
      const typed = createToolClient({ render_chart: { ...chart, content: ["image"] } as typeof chart }, client);
      expect(await typed.render_chart({})).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    } finally {
      await close();
    }
  });
});

describe("types", () => {
  it("narrows ctx.attach to the declared kinds, and allows every kind when none are declared", () => {
    const declared: HandlerFor<typeof chart> = (_i, ctx) => {
      expectTypeOf(ctx.attach).parameter(0).toEqualTypeOf<Extract<ContentBlock, { type: "image" | "resource_link" }>>();
      return { width: 1 };
    };
    const any: HandlerFor<typeof open> = (_i, ctx) => {
      expectTypeOf(ctx.attach).parameter(0).toEqualTypeOf<ContentBlock>();
      return { width: 1 };
    };
    expect([declared, any]).toHaveLength(2);
  });
});
