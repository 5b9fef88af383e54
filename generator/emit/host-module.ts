/**
 * `mcp-host.ts` (MCP SDK 2.x): `registerTools`, which puts this project's
 * tools on an `McpServer` the application owns (Vercel's `mcp-handler`,
 * `agents`' `createMcpHandler`, or a server with hand-written resources and
 * prompts), served as toolc's own server serves them: validation, the
 * envelope, confirmation, scopes from the SDK's `authInfo`, progress and
 * logging (runtime/tool-host.ts). Printed by the file builder.
 */
import type { EmittedFile } from "../ir.js";
import { code, FileBuilder, typeSymbol, valueSymbol } from "../printer/file-builder.js";
import { headerComment } from "../printer/header.js";
import { CONTRACTS, HANDLERS, SERVER_OPTIONS } from "./http-module.js";
import { jsDoc } from "../printer/literal.js";
import { runtimeValue } from "./runtime-symbols.js";

const MCP_SERVER = typeSymbol("McpServer", "@modelcontextprotocol/server");
const REGISTER_TOOLS_ON = runtimeValue("tool-host", "registerToolsOn");

/** `hasViews`: a contract has a view (MCP Apps), so registerTools registers the `ui://` resources too (runtime/apps.ts). */
export function emitHostModule(hasViews: boolean): EmittedFile {
  const file = new FileBuilder("mcp-host.ts", headerComment("the definitions folder"), { importOrder: "used" });
  file.reserve("registerTools");
  for (const symbol of [MCP_SERVER, CONTRACTS, HANDLERS, SERVER_OPTIONS, REGISTER_TOOLS_ON]) file.use(symbol);
  const doc = jsDoc([
    "Registers every tool that has a handler on an `McpServer` of your own, before it is connected: validation, the envelope,",
    "confirmation, scopes from the SDK's `authInfo`, progress and logging as `createServer` serves them. Checks made before the SDK",
    "(Host and Origin, the body cap, `Mcp-Param-*` headers, the OAuth gate) are the host's; see docs/runtime.md. Returns the tools' names.",
    ...(hasViews ? ["The tools' views (MCP Apps) are registered as `ui://` resources beside the McpServer's own."] : []),
  ])!;
  const views = hasViews ? code`${runtimeValue("apps", "registerViewsOn")}(mcp, ${valueSymbol("views", "./views.js")});\n  ` : code``;
  file.add(code`${doc}
export function registerTools(
  mcp: ${MCP_SERVER},
  handlers: ${HANDLERS},
  options?: ${SERVER_OPTIONS},
): string[] {
  ${views}return ${REGISTER_TOOLS_ON}(mcp, ${CONTRACTS}, handlers, options);
}`);
  return { path: file.path, text: file.toText() };
}
