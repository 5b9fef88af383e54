/**
 * server.json, the MCP registry's description of a server: its name,
 * version and description, the packages that install it and the remotes
 * that serve it, in the registry's server.json format of 2025-09-29.
 * JSON has no comments, so toolc's marker is in the publisher-provided
 * `_meta`, near the top, where write/output.ts looks for it.
 */
import type { EmittedFile } from "../../ir.js";
import { headerLine } from "../../printer/header.js";
import type { ServerJsonOptions } from "./config.js";

export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

export function emitServerJson(options: ServerJsonOptions): EmittedFile {
  const document = {
    $schema: SERVER_JSON_SCHEMA,
    _meta: { "io.modelcontextprotocol.registry/publisher-provided": { generatedBy: headerLine("toolc.config.yaml") } },
    name: options.name,
    description: options.description,
    version: options.version,
    ...(options.websiteUrl === undefined ? {} : { websiteUrl: options.websiteUrl }),
    ...(options.packages.length === 0 ? {} : { packages: options.packages }),
    ...(options.remotes.length === 0 ? {} : { remotes: options.remotes }),
  };
  return { path: "server.json", text: `${JSON.stringify(document, null, 2)}\n` };
}
