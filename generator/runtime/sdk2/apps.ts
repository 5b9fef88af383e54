// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * MCP Apps on the SDK 2.x line: a tool server's views served as `ui://`
 * resources (runtime/ui-resources.ts), and the `resources` capability and
 * the extension declared, on both protocol generations (the SDK carries the
 * same handlers to 2026-07-28 and 2025-era requests). runtime/apps.ts is the
 * 1.x port under the same name; a project gets this file only when a
 * contract has a view.
 */
import { ResourceNotFoundError } from "@modelcontextprotocol/server";
import type { McpServer, Server } from "@modelcontextprotocol/server";
import {
  listedViews,
  readView,
  UI_EXTENSION_ID,
  VIEW_MIME_TYPE,
  type ViewResource,
} from "./ui-resources.js";

export type { ViewResource };

/** Serves `views` on `server` (before it connects): resources/list, resources/read, and the capabilities that announce them. */
export function serveViews(
  server: Server,
  views: readonly ViewResource[],
): Server {
  server.registerCapabilities({
    resources: {},
    extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } },
  });
  server.setRequestHandler("resources/list", () => ({
    resources: listedViews(views),
  }));
  server.setRequestHandler("resources/read", (request) => {
    const read = readView(views, request.params.uri);
    // The SDK's own error, so the code is the one this SDK line speaks for a missing resource.
    if (read === undefined) throw new ResourceNotFoundError(request.params.uri);
    return read;
  });
  return server;
}

/**
 * Registers `views` on an `McpServer` the application owns (mcp-host.ts's
 * `registerTools`, before it connects): each view a resource the McpServer
 * lists and reads beside the application's own, and the extension declared,
 * so a tool's `_meta.ui.resourceUri` names a resource the host can read.
 */
export function registerViewsOn(
  mcp: McpServer,
  views: readonly ViewResource[],
): void {
  mcp.server.registerCapabilities({
    extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } },
  });
  for (const { uri, name, ...metadata } of listedViews(views)) {
    mcp.registerResource(name, uri, metadata, () => readView(views, uri)!);
  }
}
