// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The views of a project's tools (MCP Apps, the `io.modelcontextprotocol/ui`
 * extension) as `ui://` resources: what resources/list and resources/read
 * answer, the same on both SDK lines. The port's apps.ts registers them on
 * the SDK server. No SDK import, so both lines share it as it is.
 */

/** The MIME type of an MCP Apps view, as the extension names it. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";
/** The extension's id, under which client and server declare it in `capabilities.extensions`. */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** A view's `_meta.ui` on its resource: the CSP origins, sandbox permissions and border the contract declares. */
/** A type alias, not an interface: the SDKs take `_meta` as a record, and only aliases are assignable to one. */
export type ViewResourceMeta = {
  readonly csp?: {
    readonly connectDomains?: readonly string[];
    readonly resourceDomains?: readonly string[];
    readonly frameDomains?: readonly string[];
    readonly baseUriDomains?: readonly string[];
  };
  readonly permissions?: {
    readonly camera?: Record<string, never>;
    readonly microphone?: Record<string, never>;
    readonly geolocation?: Record<string, never>;
    readonly clipboardWrite?: Record<string, never>;
  };
  readonly prefersBorder?: boolean;
};

/** One tool's view, as the generated views.ts lists it. */
export interface ViewResource {
  readonly uri: string;
  /** The resource's name: the tool's name. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The HTML document, as the contract's `ui.source` held it when the code was generated. */
  readonly html: string;
  readonly meta: ViewResourceMeta;
}

/** A resources/list entry. */
export type ListedView = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  _meta: { ui: ViewResourceMeta };
};

/** resources/list: every view, in the order given (views.ts lists them by tool name). */
export function listedViews(views: readonly ViewResource[]): ListedView[] {
  return views.map((view) => ({
    uri: view.uri,
    name: view.name,
    ...(view.title === undefined ? {} : { title: view.title }),
    ...(view.description === undefined
      ? {}
      : { description: view.description }),
    mimeType: VIEW_MIME_TYPE,
    _meta: { ui: view.meta },
  }));
}

/** A resources/read result's one content item: the HTML, with the view's `_meta.ui` (which hosts read before the listing's). */
export type ReadView = {
  contents: [
    {
      uri: string;
      mimeType: string;
      text: string;
      _meta: { ui: ViewResourceMeta };
    },
  ];
};

/** resources/read of `uri`, or undefined when no view has it (the port answers that as the spec's resource-not-found error). */
export function readView(
  views: readonly ViewResource[],
  uri: string,
): ReadView | undefined {
  const view = views.find((v) => v.uri === uri);
  if (view === undefined) return undefined;
  return {
    contents: [
      {
        uri: view.uri,
        mimeType: VIEW_MIME_TYPE,
        text: view.html,
        _meta: { ui: view.meta },
      },
    ],
  };
}

/** The JSON-RPC error code the 2025 revisions give a resources/read of a URI the server does not have (SDK 1.x; SDK 2.x sends its own ResourceNotFoundError). */
export const RESOURCE_NOT_FOUND = -32002;
