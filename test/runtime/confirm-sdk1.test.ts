/**
 * Confirmed calls on the SDK 1.x line, which serves the 2025 revisions
 * without multi round-trip requests or the SDK 2.x shim: a confirmed tool is
 * refused with CONFIRMATION_UNAVAILABLE, even for a client that declares
 * elicitation, and its handler never runs; an unconfirmed tool beside it
 * runs as before.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createToolServer, FAILURE_META_KEY } from "../../generator/runtime/server.js";
import { defineContract } from "./fixtures.js";

const REASONS = { CONFIRMATION_DECLINED: "declined", CONFIRMATION_INVALID: "invalid", CONFIRMATION_UNAVAILABLE: "unavailable" };
const wipe = { ...defineContract<{ id: string }, { id: string }, { wiped: string }, keyof typeof REASONS>({
  name: "wipe",
  effect: "destructive",
  errors: REASONS,
  input: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
  output: { type: "object", properties: { wiped: { type: "string" } }, required: ["wiped"], additionalProperties: false },
}), confirm: true as const };
const peek = defineContract<{ id: string }, { id: string }, { wiped: string }>({ name: "peek", effect: "read", input: wipe.inputSchema, output: wipe.outputSchema });

describe("SDK 1.x", () => {
  it("refuses a confirmed tool with CONFIRMATION_UNAVAILABLE and runs nothing, even for a client that declares elicitation", async () => {
    const ran: string[] = [];
    const server = createToolServer({ wipe, peek }, { wipe: (i) => (ran.push(`wipe ${i.id}`), { wiped: i.id }), peek: (i) => (ran.push(`peek ${i.id}`), { wiped: i.id }) });
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => (asked++, { action: "accept", content: { confirm: true } }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    try {
      const refused = await client.callTool({ name: "wipe", arguments: { id: "x" } });
      expect(refused.isError).toBe(true);
      expect((refused._meta as Record<string, unknown>)[FAILURE_META_KEY]).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", attempts: 0 });
      expect((await client.callTool({ name: "peek", arguments: { id: "y" } })).structuredContent).toEqual({ wiped: "y" });
      expect(ran).toEqual(["peek y"]);
      expect(asked).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
