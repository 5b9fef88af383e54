/**
 * Phase 3, emit: every target is a pure function from the IR to files. No
 * target reads another's output; they agree because they share the IR.
 */
import type { AuthSetting } from "../config/auth.js";
import type { ServerDefaultsSetting } from "../config/server-defaults.js";
import type { ContractIR, EmittedFile, ToolIR } from "../ir.js";
import { emitContractTests, type ContractTestOptions } from "./contract-tests.js";
import { emitContractsModule } from "./contracts-module.js";
import { emitCopies } from "./copies.js";
import { emitFolderReadme } from "./folder-readme.js";
import { headerComment } from "../printer/header.js";
import { emitFetchModule } from "./fetch-module.js";
import { emitHostModule } from "./host-module.js";
import { emitHttpModule } from "./http-module.js";
import { emitIndexModule } from "./index-module.js";
import { emitProvidersModule } from "./providers/module.js";
import { emitRuntimeFiles, type McpSdkLine, type RuntimeNeeds } from "./runtime-files.js";
import { emitSchemaJson } from "./schemas-json.js";
import { emitToolModule } from "./tool-module.js";
import { emitTypeFile } from "./types.js";
import { emitSharedValidators, emitValidators } from "./validators.js";

export interface EmitOptions {
  /** Contract tests, and how they reach the output folder and the handlers; none when absent. */
  readonly tests?: ContractTestOptions;
  /** The MCP SDK line the runtime and the contract tests import; 1 when absent. */
  readonly mcpSdk?: McpSdkLine;
  /** What the generated server says about itself unless told otherwise (index.ts). */
  readonly server?: ServerDefaultsSetting;
  /** `false`: no providers.ts, and no provider lints (TC070-TC072); the config's `providers: false`. */
  readonly providers?: boolean;
  /**
   * The config's `auth:` section. Normalize applies its default scopes and
   * its lint (compileTool reads it from here, so it is part of the build
   * cache's key); http.ts carries the resource server; runtime/auth.ts is
   * emitted only with it.
   */
  readonly auth?: AuthSetting;
}

export type { McpSdkLine };
export { emitRuntimeFiles };

/** What of the runtime a project's generated files import. */
function runtimeNeeds(options: EmitOptions): RuntimeNeeds {
  return {
    tests: options.tests !== undefined,
    providers: options.providers !== false,
    auth: options.auth !== undefined,
    ...(options.mcpSdk === undefined ? {} : { mcpSdk: options.mcpSdk }),
  };
}

/**
 * Files that depend on the whole IR rather than on one tool: types, contracts, index, the HTTP entry, runtime, and the folder's README.
 * The runtime is the part of it these files and the contract tests reach: no contract-test helper without tests, no provider runtime without providers.ts.
 */
export function emitShared(ir: ContractIR, options: EmitOptions = {}): EmittedFile[] {
  return [
    ...ir.typeFiles.map((file) => emitTypeFile(file, ir, headerComment(file.source))),
    ...emitSharedValidators(ir, headerComment),
    emitContractsModule(ir),
    emitIndexModule(ir, options.server),
    emitHttpModule(options.auth),
    emitFetchModule(options.auth),
    ...(options.mcpSdk === 2 ? [emitHostModule()] : []),
    ...(options.providers === false ? [] : [emitProvidersModule(ir)]),
    ...emitRuntimeFiles(runtimeNeeds(options)),
    emitFolderReadme(ir, { providers: options.providers !== false, host: options.mcpSdk === 2 }),
  ];
}

/** Files that depend on one tool alone, so a build cache can reuse them while the tool is unchanged. */
export function emitToolFiles(tool: ToolIR, options: EmitOptions = {}): EmittedFile[] {
  const header = headerComment(tool.source);
  const files = [emitToolModule(tool), ...emitValidators(tool, header), emitCopies(tool, header), emitSchemaJson(tool)];
  return options.tests ? [...files, emitContractTests(tool, options.tests)] : files;
}

/** Output files first, then tests; by path within each. */
export function byPath(a: EmittedFile, b: EmittedFile): number {
  const ra = a.root ?? "";
  const rb = b.root ?? "";
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
