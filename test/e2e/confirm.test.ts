/**
 * Confirmed calls (`confirm: true`) end to end, on test/fixtures/auth's
 * delete_customer: the server asks through MCP 2026-07-28's InputRequiredResult
 * with an elicitation, and through the SDK's shim on a 2025-era stdio
 * connection; an approval runs the handler once, is bound to the exact
 * arguments, the tool and the caller, expires, and cannot be replayed; a
 * client that cannot ask gets a REJECTED envelope; nothing runs unapproved,
 * not even for a tool whose open input schema lets a model add `confirm: true`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { rmSync, writeFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import { join } from "node:path";
import { LogBuffer } from "./helpers.js";
import { authProject, close, load, serveLater, startIssuer, type Issuer } from "./auth/harness.js";
import { final, modernRequest, post } from "./rpc.js";

interface HttpApi {
  createHttpHandler(handlers: unknown, options?: Record<string, unknown>): RequestListener;
}

/** A second confirmed tool, beside test/fixtures/auth's: its input is open, so an argument named `confirm` is valid input. */
const ARCHIVE_CUSTOMER = `name: archive_customer
version: 1
title: Archive customer
description: Archive a customer; any other arguments are kept as notes. Each call is confirmed by the user.
effect: destructive
scopes: [customers:delete]
confirm: true
input:
  type: object
  properties:
    customerId: { type: string, minLength: 1, maxLength: 64 }
  required: [customerId]
  additionalProperties: true
output:
  type: object
  properties:
    archived: { type: string }
  required: [archived]
`;

const deleted: unknown[] = [];
const archived: unknown[] = [];
const handlers = {
  delete_customer: (input: { customerId: string }) => (deleted.push(input), { deleted: input.customerId }),
  archive_customer: (input: { customerId: string }) => (archived.push(input), { archived: input.customerId }),
  whoami: () => ({ subject: "", clientId: "", scopes: [] }),
};

let dir: string;
let issuer: Issuer;
let site: Awaited<ReturnType<typeof serveLater>>;
let token: string;
let otherUser: string;

beforeAll(async () => {
  dir = await authProject({ "archive_customer.yaml": ARCHIVE_CUSTOMER });
  issuer = await startIssuer();
  const { createHttpHandler } = await load<HttpApi>(dir, "http.ts");
  site = await serveLater();
  site.use(createHttpHandler(handlers, { auth: { resource: site.resource, jwksUri: issuer.jwksUri }, confirm: { secret: "a test secret of more than thirty-two bytes", ttlSeconds: 60 } }));
  token = await issuer.token(site.resource, { scope: "customers:delete" });
  otherUser = await issuer.token(site.resource, { scope: "customers:delete", sub: "user-2" });
}, 120_000);

afterAll(async () => {
  await Promise.all([site && close(site.server), issuer?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const FORM = { elicitation: { form: {} } };
const auth = (t = token) => ({ authorization: `Bearer ${t}` });
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

/** A 2026-07-28 tools/call (of delete_customer unless `tool` says), with the client's capabilities and, on a retry, its answer and the state it echoes. */
async function call(args: Record<string, unknown>, options: { retry?: { inputResponses: unknown; requestState: unknown }; capabilities?: unknown; as?: string; tool?: string } = {}) {
  const params = { name: options.tool ?? "delete_customer", arguments: args, ...(options.retry ?? {}) };
  const meta = { "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? FORM };
  return final(await modernRequest(new URL(site.resource), "tools/call", params, { meta, headers: auth(options.as) }));
}

function inputRequired(response: Record<string, unknown>): { message: string; requestState: string } {
  const result = response["result"] as { resultType: string; requestState: string; inputRequests: { confirm: { method: string; params: { message: string } } } };
  expect(result.resultType).toBe("input_required");
  expect(result.inputRequests.confirm.method).toBe("elicitation/create");
  return { message: result.inputRequests.confirm.params.message, requestState: result.requestState };
}

function envelope(response: Record<string, unknown>): Record<string, unknown> {
  const result = response["result"] as { isError?: boolean; _meta?: Record<string, unknown> };
  expect(result.isError).toBe(true);
  return result._meta?.["toolc/failure"] as Record<string, unknown>;
}

describe("MCP 2026-07-28: InputRequiredResult with an elicitation", () => {
  it("approved once runs once; the same approval with other arguments, or again, is refused", async () => {
    const before = deleted.length;
    const args = { customerId: "cus_1", pin: "4821-secret" };
    const asked = inputRequired(await call(args));
    expect(asked.message).toContain("cus_1");
    expect(asked.message).not.toContain("4821-secret");
    expect(deleted.length).toBe(before);
    // The approval is still unused here: only the arguments differ (the same keys in another order are the same call).
    const otherArgs = envelope(await call({ customerId: "cus_2", pin: "4821-secret" }, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } }));
    expect(otherArgs).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_INVALID", message: expect.stringContaining("another call"), effect: "none", attempts: 0, retryable: false });
    expect(deleted.length).toBe(before);
    const approved = await call({ pin: "4821-secret", customerId: "cus_1" }, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } });
    expect((approved["result"] as { structuredContent: unknown }).structuredContent).toEqual({ deleted: "cus_1" });
    expect(deleted.length).toBe(before + 1);
    const again = envelope(await call(args, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } }));
    expect(again).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_INVALID", message: expect.stringContaining("already used") });
    expect(deleted.length).toBe(before + 1);
  });

  it("a declined confirmation, or an answer without the server's state, runs nothing", async () => {
    const before = deleted.length;
    const asked = inputRequired(await call({ customerId: "cus_3" }));
    const declined = envelope(await call({ customerId: "cus_3" }, { retry: { inputResponses: { confirm: { action: "decline" } }, requestState: asked.requestState } }));
    expect(declined).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
    // An answer the server never asked for (no state of its own) is only another first round.
    inputRequired(await call({ customerId: "cus_3" }, { retry: { inputResponses: ACCEPT, requestState: undefined } }));
    expect(deleted.length).toBe(before);
  });

  it("a model cannot approve through the arguments, and a tampered or borrowed state is refused", async () => {
    const before = deleted.length;
    const viaArguments = envelope(await call({ customerId: "cus_4", confirm: true }));
    expect(viaArguments).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "confirm", message: expect.any(String) }] });
    const asked = inputRequired(await call({ customerId: "cus_4" }));
    const tampered = await call({ customerId: "cus_4" }, { retry: { inputResponses: ACCEPT, requestState: `${asked.requestState.slice(0, -2)}xx` } });
    expect(tampered["error"]).toMatchObject({ code: -32602 });
    const borrowed = await call({ customerId: "cus_4" }, { retry: { inputResponses: ACCEPT, requestState: asked.requestState }, as: otherUser });
    expect(borrowed["error"]).toMatchObject({ code: -32602 });
    expect(deleted.length).toBe(before);
  });

  it("an approval used after its time-to-live is refused by the state check, and nothing runs", async () => {
    const before = deleted.length;
    const asked = inputRequired(await call({ customerId: "cus_10" }));
    // Only Date is faked: the server is in this process, and its state codec reads the clock through Date.now.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      vi.setSystemTime(Date.now() + 62_000);
      const late = await call({ customerId: "cus_10" }, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } });
      expect(late["error"]).toMatchObject({ code: -32602 });
    } finally {
      vi.useRealTimers();
    }
    expect(deleted.length).toBe(before);
  });

  it("an approval given for one tool, presented to another with the same arguments, is refused and stays unused", async () => {
    const [deletedBefore, archivedBefore] = [deleted.length, archived.length];
    const asked = inputRequired(await call({ customerId: "cus_11" }));
    const elsewhere = envelope(await call({ customerId: "cus_11" }, { tool: "archive_customer", retry: { inputResponses: ACCEPT, requestState: asked.requestState } }));
    expect(elsewhere).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_INVALID", tool: "archive_customer", effect: "none", attempts: 0 });
    expect([deleted.length, archived.length]).toEqual([deletedBefore, archivedBefore]);
    // Refused, not spent: the tool it was given for still runs on it, once.
    const approved = await call({ customerId: "cus_11" }, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } });
    expect((approved["result"] as { structuredContent: unknown }).structuredContent).toEqual({ deleted: "cus_11" });
    expect(deleted.length).toBe(deletedBefore + 1);
  });

  it("a client without form elicitation gets CONFIRMATION_UNAVAILABLE, and nothing runs", async () => {
    const before = deleted.length;
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      expect(envelope(await call({ customerId: "cus_5" }, { capabilities }))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", attempts: 0 });
    }
    expect(deleted.length).toBe(before);
  });

  it("the SDK 2.x client answers through its elicitation handler and retries: the handler runs once", async () => {
    const before = deleted.length;
    const asked: string[] = [];
    const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(site.resource), { authProvider: { token: async () => token } }));
    try {
      const result = await client.callTool({ name: "delete_customer", arguments: { customerId: "cus_6" } });
      expect(result.structuredContent).toEqual({ deleted: "cus_6" });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^Allow Delete customer \(delete_customer\)\?/);
      expect(deleted.length).toBe(before + 1);
    } finally {
      await client.close();
    }
  });
});

describe("a confirmed tool with an open input schema: `confirm: true` among the arguments approves nothing", () => {
  const ARGS = { customerId: "cus_12", confirm: true };
  const archive = (args: Record<string, unknown>, options: Parameters<typeof call>[1] = {}) => call(args, { ...options, tool: "archive_customer" });

  it("the call is asked about, and the user's answer, not the argument, decides it", async () => {
    const before = archived.length;
    const asked = inputRequired(await archive(ARGS));
    expect(asked.message).toContain("\nconfirm: true");
    // An answer without the server's state is only another first round.
    inputRequired(await archive(ARGS, { retry: { inputResponses: ACCEPT, requestState: undefined } }));
    const declined = envelope(await archive(ARGS, { retry: { inputResponses: { confirm: { action: "decline" } }, requestState: asked.requestState } }));
    expect(declined).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
    expect(archived.length).toBe(before);
  });

  it("an approval of the call without the argument does not cover the call with it", async () => {
    const before = archived.length;
    const asked = inputRequired(await archive({ customerId: "cus_12" }));
    const widened = envelope(await archive(ARGS, { retry: { inputResponses: ACCEPT, requestState: asked.requestState } }));
    expect(widened).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_INVALID" });
    expect(archived.length).toBe(before);
  });

  it("a client that cannot ask, of either generation, is refused with CONFIRMATION_UNAVAILABLE", async () => {
    const before = archived.length;
    expect(envelope(await archive(ARGS, { capabilities: {} }))).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE" });
    const body = { jsonrpc: "2.0", id: 71, method: "tools/call", params: { name: "archive_customer", arguments: ARGS } };
    const legacy = final(await post(new URL(site.resource), body, { "mcp-protocol-version": "2025-11-25", ...auth() }));
    expect(envelope(legacy)).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE" });
    expect(archived.length).toBe(before);
  });
});

describe("what the user is asked (H3): every argument in full, in the contract's order, or no question", () => {
  it("a memo sent first that would push the recipient past the limit refuses the call instead of asking a cut question", async () => {
    const before = archived.length;
    const refused = envelope(await call({ memo: "Quarterly archive, as agreed. ".repeat(70), customerId: "cus_ATTACKER_991" }, { tool: "archive_customer" }));
    expect(refused).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE", effect: "none", message: expect.stringContaining("too long to show the user in full") });
    expect(archived.length).toBe(before);
  });

  it("the contract's properties come first whatever the order sent; a secret is masked by its path, not by its text; bidi characters show escaped", async () => {
    const asked = inputRequired(await call({ pin: "cus_4821", reason: "moved \u202Eabroad", customerId: "cus_4821" }));
    expect(asked.message).toMatch(/Arguments:\ncustomerId: "cus_4821"\nreason: "moved \\u\{202E\}abroad"\npin: \[REDACTED\]$/);
    expect(asked.message).not.toContain("\u202E");
  });
});

describe("2025-era clients", () => {
  it("over stateless HTTP, which cannot carry the question, the call is refused with CONFIRMATION_UNAVAILABLE", async () => {
    const before = deleted.length;
    const body = { jsonrpc: "2.0", id: 70, method: "tools/call", params: { name: "delete_customer", arguments: { customerId: "cus_7" } } };
    const response = final(await post(new URL(site.resource), body, { "mcp-protocol-version": "2025-11-25", ...auth() }));
    expect(envelope(response)).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_UNAVAILABLE" });
    expect(deleted.length).toBe(before);
  });

  it("over stdio, the SDK's shim asks through elicitation/create: accepted runs once, declined runs nothing", async () => {
    writeFileSync(
      join(dir, "stdio-server.mts"),
      `import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServer } from "./generated/index.js";
const handlers = { delete_customer: (input) => { process.stderr.write("call " + JSON.stringify(input) + "\\n"); return { deleted: input.customerId }; } };
serveStdio(() => createServer(handlers));
`,
    );
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "stdio-server.mts"], cwd: dir, stderr: "pipe" });
    const log = new LogBuffer();
    log.attach(transport.stderr as NodeJS.ReadableStream | null);
    const answers = [{ action: "accept" as const, content: { confirm: true } }, { action: "decline" as const }];
    const client = new Client({ name: "legacy-host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler("elicitation/create", async () => answers.shift() ?? { action: "cancel" as const });
    await client.connect(transport);
    try {
      const accepted = await client.callTool({ name: "delete_customer", arguments: { customerId: "cus_8" } });
      expect(accepted.structuredContent).toEqual({ deleted: "cus_8" });
      const declined = await client.callTool({ name: "delete_customer", arguments: { customerId: "cus_9" } });
      expect(declined.isError).toBe(true);
      expect((declined._meta as Record<string, unknown>)["toolc/failure"]).toMatchObject({ code: "REJECTED", reason: "CONFIRMATION_DECLINED" });
      await log.waitFor(/call \{"customerId":"cus_8"\}/);
      expect(log.text).not.toContain("cus_9");
      expect(log.lines().filter((l) => l.startsWith("call "))).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 60_000);
});
