/**
 * The public types, checked by the compiler (`tsc --noEmit` covers test/):
 * handlers get the resolved input and a reason-typed ctx, results and client
 * methods carry the contract's output and reasons.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { createToolClient, createToolServer, executeTool, type AccessReason, type CallerIdentity, type HandlersFor, type ToolClient, type ToolResult } from "../../generator/runtime/api.js";
import { type Contracts, contracts, type GetOrderInput, type GetOrderOutput, getOrder } from "./fixtures.js";

describe("types", () => {
  it("binds handlers, results and the client to the contracts", () => {
    const handlers: HandlersFor<Contracts> = {
      get_order: (input, ctx) => {
        expectTypeOf(input.includeHistory).toEqualTypeOf<boolean>(); // default applied
        expectTypeOf(ctx.idempotencyKey).toEqualTypeOf<string | undefined>();
        // The verified caller, or undefined (stdio, or no auth): a handler checks before reading it; it carries no token.
        expectTypeOf(ctx.auth).toEqualTypeOf<CallerIdentity | undefined>();
        expectTypeOf<CallerIdentity>().toHaveProperty("subject").toEqualTypeOf<string>();
        expectTypeOf<CallerIdentity>().toHaveProperty("scopes").toEqualTypeOf<readonly string[]>();
        expectTypeOf<CallerIdentity>().toHaveProperty("claims").toEqualTypeOf<{ readonly [claim: string]: unknown }>();
        expectTypeOf<CallerIdentity>().not.toHaveProperty("token");
        if (input.customerId === "x") return ctx.reject("CUSTOMER_BLOCKED");
        // @ts-expect-error: not a declared reason
        if (input.customerId === "y") return ctx.reject("NOPE");
        return { found: false, customerId: input.customerId, orders: [] };
      },
      // @ts-expect-error: output must match the contract
      delete_order: () => ({ deleted: "yes" }),
    };
    expectTypeOf(createToolServer(contracts, handlers)).toEqualTypeOf<Server>();
    expectTypeOf(executeTool(getOrder, {}, handlers.get_order)).resolves.toEqualTypeOf<ToolResult<GetOrderOutput, "CUSTOMER_BLOCKED">>();

    const tools = createToolClient(contracts, {} as Client);
    expectTypeOf(tools).toEqualTypeOf<ToolClient<Contracts>>();
    expectTypeOf(tools.get_order).parameter(0).toEqualTypeOf<GetOrderInput>();
    expectTypeOf(tools.get_order).returns.resolves.toEqualTypeOf<ToolResult<GetOrderOutput, "CUSTOMER_BLOCKED" | AccessReason>>();
    // A tool with no declared errors is REJECTED by the typed client only when the server's authorization refuses the call.
    expectTypeOf(tools.charge_card).returns.resolves.toEqualTypeOf<ToolResult<{ chargeId: string }, AccessReason>>();
  });
});
