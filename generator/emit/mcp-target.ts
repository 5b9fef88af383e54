/**
 * The MCP target: each tool's module, its chunk (the copies its first call
 * loads) and its served schema; the contracts and index modules (the server,
 * the typed client, `execute`); and the output folder's README.
 */
import type { Target } from "../targets/target.js";

export const mcpTarget: Target = {
  name: "mcp",
  root: "out",
  marker: "generated",
  runtime: (options) => (options.mcpSdk === undefined ? {} : { mcpSdk: options.mcpSdk }),
  async load() {
    const [{ emitToolModule }, { emitCopies }, { emitSchemaJson }, { emitContractsModule }, { emitIndexModule }, { emitFolderReadme }, { headerComment }] =
      await Promise.all([
        import("./tool-module.js"),
        import("./copies.js"),
        import("./schemas-json.js"),
        import("./contracts-module.js"),
        import("./index-module.js"),
        import("./folder-readme.js"),
        import("../printer/header.js"),
      ]);
    return {
      toolFiles: (tool) => [emitToolModule(tool), emitCopies(tool, headerComment(tool.source)), emitSchemaJson(tool)],
      sharedFiles: (ir, options) => [
        emitContractsModule(ir),
        emitIndexModule(ir, options.server),
        emitFolderReadme(ir, { providers: options.providers !== false, host: options.mcpSdk === 2 }),
      ],
    };
  },
};
