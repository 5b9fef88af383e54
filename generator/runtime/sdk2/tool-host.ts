// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * toolc's tools on an `McpServer` the application owns (SDK 2.x): one made
 * by Vercel's `mcp-handler` or `agents`' `createMcpHandler`, or one with
 * hand-written resources, prompts and tools. Each served contract is
 * registered with its exact schemas, and its calls go through the same
 * tools/call as toolc's own server (server.ts `createToolCalls`): input and
 * output validation, retries and the envelope, the scopes of the caller the
 * SDK hands over as `authInfo`, confirmation of `confirm: true` tools, and
 * `ctx.progress` and `ctx.log` routed to the caller. The McpServer's own
 * schema check is told to let every call through to toolc's. What happens
 * before the SDK (Host/Origin, the body cap, `Mcp-Param-*` headers, the
 * OAuth gate) is the host's to do: see docs/runtime.md.
 */
import {
  fromJsonSchema,
  type jsonSchemaValidator,
  type McpServer,
} from "@modelcontextprotocol/server";
import type { ContractMap } from "./contract.js";
import { hostedCallContext, onSetLoggingLevel } from "./sdk.js";
import { createToolCalls, type ServerOptions } from "./server.js";
import type { HandlersFor } from "./types.js";

/** toolc checks every call itself, with the contract's compiled validators: the SDK's own check lets everything through to it. */
const checkedByToolc: jsonSchemaValidator = {
  getValidator: () => (input) => ({
    valid: true,
    data: input as never,
    errorMessage: undefined,
  }),
};

/**
 * Registers every contract that has a handler on `mcp`, served as toolc's
 * own server serves it, and declares the `logging` capability (answering
 * a 2025-era `logging/setLevel` for these tools' `ctx.log`). Call it before
 * `mcp` is connected. Returns the registered tools' names.
 */
export function registerToolsOn<M extends ContractMap>(
  mcp: McpServer,
  contracts: M,
  handlers: HandlersFor<M>,
  options: ServerOptions = {},
): string[] {
  const calls = createToolCalls(contracts, handlers, options);
  mcp.server.registerCapabilities({ logging: {} });
  // The casts (`as never`): toolc's own build reads server.ts against the 1.x port and this file against the 2.x one; a project's copy has one port.
  onSetLoggingLevel(mcp.server as never, calls.setLevel);
  for (const tool of calls.tools) {
    mcp.registerTool(
      tool.name,
      {
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined
          ? {}
          : { description: tool.description }),
        inputSchema: fromJsonSchema(tool.inputSchema as never, checkedByToolc),
        ...(tool.outputSchema === undefined
          ? {}
          : {
              outputSchema: fromJsonSchema(
                tool.outputSchema as never,
                checkedByToolc,
              ),
            }),
        ...(tool.annotations === undefined
          ? {}
          : { annotations: tool.annotations }),
        ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
      },
      async (args: unknown, ctx: unknown) =>
        (await calls.call(
          { name: tool.name, arguments: args },
          (await hostedCallContext(
            mcp.server as never,
            ctx as never,
            calls.approvals?.codec,
          )) as never,
        )) as never,
    );
  }
  return calls.tools.map((tool) => tool.name);
}
