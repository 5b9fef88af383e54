/**
 * The MCP target: each tool's module, its code (the validators and copies
 * its first call loads: a module of its own, or its function in a group's
 * module, emit/tool-code/) and the named types' copies that code shares;
 * the contracts and index modules (the server, the typed client,
 * `execute`); and the output folder's README. Its config key,
 * `toolsPerChunk`, sets how many tools' code share a module.
 */
import { Codes, error } from "../diagnostics.js";
import { providersOn } from "./providers/target.js";
import { schemasJsonTarget } from "../targets/schemas-json/index.js";
import { optionsOf, type Target } from "../targets/target.js";
import { lintIndexExports } from "./ts-name-lints.js";

/** The config's `toolsPerChunk`: tools per code module on average (1: a module per tool). */
export type McpTargetOptions = number;

/** The largest `toolsPerChunk`: a group of more tools would make a first call load a large module for one tool. */
export const MAX_TOOLS_PER_CHUNK = 1000;

export const mcpTarget: Target<McpTargetOptions> = {
  name: "mcp",
  root: "out",
  marker: "generated",
  config: {
    key: "toolsPerChunk",
    parse: (value, context) =>
      Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TOOLS_PER_CHUNK
        ? { options: value as number, diagnostics: [] }
        : {
            diagnostics: [
              error(
                context.locate(["toolsPerChunk"]),
                Codes.invalidValue,
                `\`toolsPerChunk\` must be a whole number from 1 to ${MAX_TOOLS_PER_CHUNK} (tools per code module; 1: a module per tool), not ${JSON.stringify(value)}`,
              ),
            ],
          },
  },
  runtime: (options) => (options.mcpSdk === undefined ? {} : { mcpSdk: options.mcpSdk }),
  // Names its index.ts would export twice (TC013 at a tool, TC024 at a named type).
  lint: (ir) => lintIndexExports(ir),
  async load() {
    const [{ emitToolModule }, { toolCodePart }, { joinToolCode }, { emitContractsFiles, CONTRACTS_PART_BYTES }, { emitIndexModule }, { emitFolderReadme }] =
      await Promise.all([
        import("./tool-module.js"),
        import("./tool-code/part.js"),
        import("./tool-code/join.js"),
        import("./contracts-module.js"),
        import("./index-module.js"),
        import("./folder-readme.js"),
      ]);
    return {
      toolFiles: (tool) => [emitToolModule(tool), toolCodePart(tool)],
      // The contracts are written with the tools' code: their loaders name each tool's module, which the code's size decides.
      joinParts: (parts, ir, options) => {
        const code = joinToolCode(parts, optionsOf(mcpTarget, options));
        return [...code.files, ...emitContractsFiles(ir, CONTRACTS_PART_BYTES, code.places)];
      },
      sharedFiles: (ir, options) => [
        emitIndexModule(ir, options.server),
        emitFolderReadme(ir, {
          providers: providersOn(options),
          host: options.mcpSdk === 2,
          schemas: optionsOf(schemasJsonTarget, options) === true,
          toolsPerChunk: optionsOf(mcpTarget, options),
        }),
      ],
    };
  },
};
