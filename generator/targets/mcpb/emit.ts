/**
 * manifest.json, an MCP Bundle's description of a local server: who made
 * it, how a client starts it (Node.js, the stdio entry point, the
 * environment it reads), the tools it serves with their descriptions, and
 * what the client asks the user on install. Manifest version 0.3, the one
 * that has `_meta`: JSON has no comments, so toolc's marker is there, near
 * the top, where write/output.ts looks for it.
 */
import type { ContractIR, EmittedFile } from "../../ir.js";
import { headerLine } from "../../printer/header.js";
import type { BundleOptions } from "./config.js";

export const MANIFEST_VERSION = "0.3";

export function emitManifest(ir: ContractIR, options: BundleOptions): EmittedFile {
  const env = Object.fromEntries(options.variables.map((v) => [v.env, `\${user_config.${v.key}}`]));
  const userConfig = Object.fromEntries(
    options.variables.map((v) => [
      v.key,
      {
        type: "string",
        title: v.title,
        description: v.description,
        ...(v.sensitive ? { sensitive: true } : {}),
        required: v.required,
        // A blank optional setting must reach the server as "" (unset to the handlers' runtime), not as the literal `${user_config...}`.
        ...(v.default !== undefined ? { default: v.default } : v.required ? {} : { default: "" }),
      },
    ]),
  );
  const document = {
    manifest_version: MANIFEST_VERSION,
    _meta: { toolc: { generatedBy: headerLine("toolc.config.yaml") } },
    name: options.name,
    ...(options.displayName === undefined ? {} : { display_name: options.displayName }),
    version: options.version,
    description: options.description,
    author: options.author,
    ...(options.license === undefined ? {} : { license: options.license }),
    ...(options.homepage === undefined ? {} : { homepage: options.homepage }),
    server: {
      type: "node",
      entry_point: options.entry,
      mcp_config: {
        command: "node",
        // A client runs the bundle from wherever it unpacked it: `${__dirname}` is that folder.
        args: [`\${__dirname}/${options.entry}`],
        ...(options.variables.length === 0 ? {} : { env }),
      },
    },
    tools: ir.tools.map((tool) => ({ name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }) })),
    tools_generated: false,
    ...(options.variables.length === 0 ? {} : { user_config: userConfig }),
    compatibility: {
      ...(options.platforms === undefined ? {} : { platforms: options.platforms }),
      runtimes: { node: options.node },
    },
  };
  return { path: "manifest.json", text: `${JSON.stringify(document, null, 2)}\n` };
}
