/** The framework-host target: mcp-host.ts, `registerTools` onto an application's own `McpServer` (MCP SDK 2.x only). */
import type { Target } from "../targets/target.js";

export const hostTarget: Target = {
  name: "mcp-host",
  root: "out",
  marker: "generated",
  enabled: (options) => options.mcpSdk === 2,
  async load() {
    const { emitHostModule } = await import("./host-module.js");
    return { sharedFiles: (ir) => [emitHostModule(ir.tools.some((tool) => tool.ui?.view !== undefined))] };
  },
};
