/**
 * The code-mode target in process and through the typed MCP client: each
 * function goes through the generated executor (validation, the envelope,
 * the loop guard), resolves to the tool's output, and throws ToolCallError
 * with the envelope's fields on failure. Without `codemode:` in the config
 * nothing of it is written.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { runCli } from "../compiler/helpers.js";
import { connectInMemory } from "../e2e/helpers.js";
import { codeModeProject } from "./project.js";

type Fn = (input: unknown) => Promise<unknown>;
interface CodeModeModule {
  ToolCallError: new (...args: never[]) => Error;
  createCodeMode(handlers: unknown, options?: unknown): Record<string, Fn>;
  createRemoteCodeMode(client: unknown): Record<string, Fn>;
  codeModeHost(handlers: unknown): (tool: string, input: unknown) => Promise<unknown>;
  codeModeTools: Record<string, string>;
  codeModeDeclarations: string;
  cloudflareCodeMode(call: unknown): { name: string; types: string; tools: Record<string, { execute(args: unknown): Promise<unknown> }> };
}
interface IndexModule {
  createServer(handlers: unknown): Parameters<typeof connectInMemory>[0];
  createClient(client: unknown): unknown;
  createLoopGuard(): unknown;
}

let dir: string;
let codemode: CodeModeModule;
let index: IndexModule;

beforeAll(async () => {
  dir = await codeModeProject();
  codemode = (await import(pathToFileURL(join(dir, "generated/codemode.ts")).href)) as CodeModeModule;
  index = (await import(pathToFileURL(join(dir, "generated/index.ts")).href)) as IndexModule;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a call rejected with (the test fails if it resolved). */
async function failed(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(codemode.ToolCallError);
  return outcome.error as Record<string, unknown>;
}

describe("the code-mode API in process", () => {
  it("resolves to the tool's output, through the executor", async () => {
    const api = codemode.createCodeMode(createDemoHandlers().handlers);
    await expect(api.getOrder!({ customerId: "cus_1" })).resolves.toMatchObject({
      found: true,
      customerId: "cus_1",
      orders: [{ id: "ord_1", status: "paid" }],
    });
    // The default applied by the border: history shows the cancelled order.
    const history = (await api.getOrder!({ customerId: "cus_1", includeHistory: true })) as { orders: unknown[] };
    expect(history.orders).toHaveLength(2);
  });

  it("throws ToolCallError with INVALID_INPUT and the issues for bad arguments, and the handler never runs", async () => {
    const { handlers, store } = createDemoHandlers();
    const api = codemode.createCodeMode(handlers);
    const error = await failed(api.createRefund!({ requestId: "not-a-uuid", orderId: "ord_1", amount: { amountCents: "12", currency: "EUR" } }));
    expect(error).toMatchObject({ name: "ToolCallError", tool: "create_refund", code: "INVALID_INPUT", retryable: false, effect: "none" });
    expect((error.issues as { path: string }[]).map((i) => i.path).sort()).toEqual(["amount.amountCents", "requestId"]);
    expect((error.failure as { ok: boolean }).ok).toBe(false);
    expect(store.refunds.size).toBe(0);
  });

  it("throws REJECTED with the declared reason", async () => {
    const api = codemode.createCodeMode(createDemoHandlers().handlers);
    const error = await failed(api.getOrder!({ customerId: "cus_blocked" }));
    expect(error).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED", effect: "none", issues: [] });
  });

  it("goes through the loop guard given in the options: the same invalid call again is refused without running", async () => {
    const guard = index.createLoopGuard();
    const api = codemode.createCodeMode(createDemoHandlers().handlers, { guard });
    expect(await failed(api.getOrder!({ customerId: 42 }))).toMatchObject({ code: "INVALID_INPUT" });
    expect(await failed(api.getOrder!({ customerId: 42 }))).toMatchObject({ code: "REJECTED", reason: "REPEATED_CALL" });
  });

  it("refuses, on the host's side of a sandbox, a tool name no contract declares", async () => {
    const host = codemode.codeModeHost(createDemoHandlers().handlers);
    await expect(host("read_file", { path: "/etc/passwd" })).resolves.toMatchObject({ ok: false, code: "FAILED" });
    expect(codemode.codeModeTools).toEqual({
      createRefund: "create_refund",
      deleteCustomer: "delete_customer",
      getOrder: "get_order",
      searchOrders: "search_orders",
    });
  });
});

describe("the @cloudflare/codemode binding", () => {
  it("runs each tool through the host's executor, and a failure's message leads with its code and issues", async () => {
    const provider = codemode.cloudflareCodeMode(codemode.codeModeHost(createDemoHandlers().handlers));
    expect(provider.name).toBe("tools");
    expect(provider.types).toBe(codemode.codeModeDeclarations);
    await expect(provider.tools.getOrder!.execute({ customerId: "cus_1" })).resolves.toMatchObject({ found: true });
    await expect(provider.tools.getOrder!.execute({ customerId: "" })).rejects.toThrow(/^INVALID_INPUT: .*\(customerId: /);
    await expect(provider.tools.getOrder!.execute({ customerId: "cus_blocked" })).rejects.toThrow(/^REJECTED CUSTOMER_BLOCKED: /);
  });
});

describe("the code-mode API through the typed MCP client", () => {
  it("calls the remote server's tools, and a bad argument is INVALID_INPUT before anything is sent", async () => {
    const server = index.createServer(createDemoHandlers().handlers);
    const client = await connectInMemory(server);
    try {
      const sent: string[] = [];
      const original = client.callTool.bind(client);
      client.callTool = ((params: { name: string }, ...rest: never[]) => {
        sent.push(params.name);
        return original(params as never, ...rest);
      }) as typeof client.callTool;
      const api = codemode.createRemoteCodeMode(index.createClient(client));
      await expect(api.searchOrders!({ filter: { customerId: "cus_2" } })).resolves.toMatchObject({
        orders: [{ id: "ord_3" }, { id: "ord_4" }],
        nextCursor: null,
      });
      expect(await failed(api.searchOrders!({ filter: { customerId: "" } }))).toMatchObject({ code: "INVALID_INPUT", tool: "search_orders" });
      expect(await failed(api.getOrder!({ customerId: "cus_blocked" }))).toMatchObject({ code: "REJECTED", reason: "CUSTOMER_BLOCKED" });
      expect(sent).toEqual(["search_orders", "get_order"]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("the codemode config section", () => {
  it("writes nothing of code mode without it, and refuses a bad one at its place", async () => {
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(existsSync(join(dir, "generated/codemode.ts"))).toBe(false);
    expect(existsSync(join(dir, "generated/runtime/codemode.ts"))).toBe(false);
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\ncodemode: { namespace: 'no such', other: 1 }\n");
    const shape = await runCli(dir, ["generate"]);
    expect(shape.code).not.toBe(0);
    expect(shape.stderr).toMatch(/toolc\.config\.yaml:3:\d+: error TC003: `codemode` must be true, false, or a mapping with namespace/);
    // A name the config's schema lets through, which would hide a global of the script's runtime.
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\ncodemode: { namespace: console }\n");
    const taken = await runCli(dir, ["generate"]);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toMatch(
      /toolc\.config\.yaml:3:\d+: error .*`codemode\.namespace` must be a JavaScript identifier that is not a standard global, not "console"/,
    );
    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\ncodemode: true\n");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
  });
});
