/**
 * Deprecation and openWorld end to end: a contract that states them, compiled
 * by `toolc generate` into a project, served by the generated server to the
 * real MCP SDK client (tools/list carries them), and judged by `toolc diff`
 * when the tool goes away before and after its sunset, or opens its world.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectInMemory } from "../runtime/connect.js";
import { demoProject, generate, linkAllModules } from "../contract-tests/project.js";
import { runDiff } from "./helpers.js";

const ARCHIVE = `# yaml-language-server: $schema=../schema/contract.schema.json
name: archive_orders
version: 1
description: Move old orders to the archive.
effect: write
openWorld: true
deprecated: Use archive_orders_v2, which takes a date range.
sunset: SUNSET
input:
  type: object
  properties:
    before: { type: string, format: date }
  required: [before]
output:
  type: object
  properties:
    archived: { type: integer, minimum: 0 }
  required: [archived]
`;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("a deprecated, open-world tool", () => {
  it("is served with its deprecation, sunset and openWorldHint in tools/list", async () => {
    const dir = demoProject({ "definitions/archive_orders.yaml": ARCHIVE.replace("SUNSET", "2030-06-30") });
    roots.push(dir);
    await generate(dir);
    linkAllModules(dir);
    const generated = (await import(join(dir, "generated/index.ts"))) as { createServer: (handlers: object) => Parameters<typeof connectInMemory>[0] };
    const handlers = { get_order: async () => ({}), search_orders: async () => ({}), create_refund: async () => ({}), delete_customer: async () => ({}), archive_orders: async () => ({ archived: 0 }) };
    const { client, close } = await connectInMemory(generated.createServer(handlers));
    try {
      const { tools } = await client.listTools();
      const archive = tools.find((t) => t.name === "archive_orders");
      expect(archive?._meta).toMatchObject({ "toolc/deprecated": "Use archive_orders_v2, which takes a date range.", "toolc/sunset": "2030-06-30", "toolc/contractVersion": 1 });
      expect(archive?.annotations).toMatchObject({ openWorldHint: true });
      expect(tools.find((t) => t.name === "get_order")?._meta).not.toHaveProperty("toolc/deprecated");
    } finally {
      await close();
    }
  });

  /** base/ with the deprecated tool (sunset `sunset`), head/ without it, as toolc diff sees them. */
  function removal(sunset: string): string {
    const root = mkdtempSync(join(tmpdir(), "toolc-diff-sunset-"));
    roots.push(root);
    const demo = new URL("../../definitions/", import.meta.url).pathname;
    cpSync(demo, join(root, "base"), { recursive: true });
    cpSync(demo, join(root, "head"), { recursive: true });
    writeFileSync(join(root, "base", "archive_orders.yaml"), ARCHIVE.replace("SUNSET", sunset));
    return root;
  }

  it("toolc diff: removed before its sunset exits 1; removed after it exits 0", async () => {
    const before = await runDiff(removal("2999-12-31"), ["--base", "base", "--definitions", "head"]);
    expect(before.code).toBe(1);
    expect(before.out).toMatch(/^base\/archive_orders\.yaml:2:7: breaking tool-removed: archive_orders: tool `archive_orders` removed before its sunset \(2999-12-31\)$/m);
    const after = await runDiff(removal("2020-01-31"), ["--base", "base", "--definitions", "head"]);
    expect(after.code).toBe(0);
    expect(after.out).toMatch(/info tool-removed-after-sunset: archive_orders: tool `archive_orders` removed after its sunset \(2020-01-31\)$/m);
  });

  it("toolc diff: a tool that opens its world exits 1", async () => {
    const root = removal("2999-12-31");
    writeFileSync(join(root, "head", "archive_orders.yaml"), ARCHIVE.replace("SUNSET", "2999-12-31"));
    writeFileSync(join(root, "base", "archive_orders.yaml"), ARCHIVE.replace("SUNSET", "2999-12-31").replace("openWorld: true\n", ""));
    const run = await runDiff(root, ["--base", "base", "--definitions", "head"]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^head\/archive_orders\.yaml:6:12: breaking open-world-added: archive_orders: openWorld false → true/m);
  });
});
