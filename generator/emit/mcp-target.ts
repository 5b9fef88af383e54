/**
 * The MCP target: each tool's module, its chunk (the copies its first call
 * loads) and the named types' copies the chunks share; the contracts and
 * index modules (the server, the typed client, `execute`); and the output
 * folder's README.
 */
import { providersOn } from "./providers/target.js";
import { schemasJsonTarget } from "../targets/schemas-json/index.js";
import { optionsOf, type Target } from "../targets/target.js";
import { lintIndexExports } from "./ts-name-lints.js";

export const mcpTarget: Target = {
  name: "mcp",
  root: "out",
  marker: "generated",
  runtime: (options) => (options.mcpSdk === undefined ? {} : { mcpSdk: options.mcpSdk }),
  // Names its index.ts would export twice (TC013 at a tool, TC024 at a named type).
  lint: (ir) => lintIndexExports(ir),
  async load() {
    const [{ emitToolModule }, copies, { emitContractsFiles }, { emitIndexModule }, { emitFolderReadme }, { headerComment }] = await Promise.all([
      import("./tool-module.js"),
      import("./copies.js"),
      import("./contracts-module.js"),
      import("./index-module.js"),
      import("./folder-readme.js"),
      import("../printer/header.js"),
    ]);
    return {
      toolFiles: (tool) => [emitToolModule(tool), copies.emitCopies(tool, headerComment(tool.source))],
      sharedFiles: (ir, options) => [
        ...emitContractsFiles(ir),
        ...copies.emitSharedCopies(ir, headerComment),
        emitIndexModule(ir, options.server),
        emitFolderReadme(ir, { providers: providersOn(options), host: options.mcpSdk === 2, schemas: optionsOf(schemasJsonTarget, options) === true }),
      ],
    };
  },
};
