/**
 * A contract's `ui:` section (MCP Apps, the `io.modelcontextprotocol/ui`
 * extension): its view, resolved against the contract's folder, the CSP
 * origins checked one by one, and the tool's `_meta.ui` as the extension
 * serves it. The meta-schema has checked the shape already; this adds what a
 * schema cannot say. What needs the file on disk (the view exists) or every
 * tool at once (a `ui://` URI two views claim, `calls` naming a tool) is
 * checked by the apps target (targets/apps/).
 */
import { posix } from "node:path";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonObject, ToolUiIR, UiCspIR, UiVisibility, ViewIR } from "../ir.js";
import type { YamlSource } from "../load/index.js";

/** The tool's view in `_meta.ui.resourceUri`, as the extension names it. */
export const UI_META_KEY = "ui";
/** The flat key the extension still asks servers to fill beside `_meta.ui.resourceUri`, for hosts that read only it. */
export const LEGACY_RESOURCE_URI_META_KEY = "ui/resourceUri";

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;

export interface RawUi {
  source?: string;
  uri?: string;
  title?: string;
  description?: string;
  csp?: { [K in (typeof CSP_KEYS)[number]]?: string[] };
  permissions?: ViewIR["permissions"];
  prefersBorder?: boolean;
  visibility?: UiVisibility[];
  calls?: string[];
}

/**
 * Why `domain` is not an origin a CSP source list can carry, or undefined
 * when it is one: a scheme the view can reach (https, http, wss, ws), a host
 * (its first label may be `*` for any subdomain), an optional port, and
 * nothing after it (a path, a query or a trailing slash would widen or
 * narrow it differently in each browser).
 */
export function originProblem(domain: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(domain);
  if (!match) return "it has no scheme (write it as https://host)";
  const [, scheme = "", authority = "", rest = ""] = match;
  if (!["https", "http", "wss", "ws"].includes(scheme.toLowerCase())) return `its scheme \`${scheme}\` is not one of https, http, wss, ws`;
  if (rest !== "") return `it has a path, query or fragment (\`${rest}\`); an origin is scheme://host[:port]`;
  if (authority.includes("@")) return "it carries credentials";
  const hostPort = /^(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(authority);
  if (!hostPort) return `\`${authority}\` is not a host name`;
  const port = hostPort[3];
  if (port !== undefined && Number(port) > 65535) return `port ${port} is out of range`;
  return undefined;
}

/** The view's path from the definitions folder, or why it cannot be one. */
function resolveSource(contract: string, source: string): { path?: string; problem?: string } {
  if (posix.isAbsolute(source) || /^[a-z]:/i.test(source) || source.includes("\\")) return { problem: "must be a relative path with / separators" };
  const path = posix.normalize(posix.join(posix.dirname(contract), source));
  if (path === ".." || path.startsWith("../"))
    return { problem: "is outside the definitions folder (a view is generated into the server, so it must be part of the contracts)" };
  if (!/\.html?$/i.test(path)) return { problem: "is not an HTML file (.html); a view written in a framework is served as its built, single-file bundle" };
  return { path };
}

function cspOf(raw: RawUi, file: YamlSource, out: Diagnostic[]): UiCspIR {
  const csp: { [K in (typeof CSP_KEYS)[number]]?: string[] } = {};
  for (const key of CSP_KEYS) {
    const domains = raw.csp?.[key];
    if (domains === undefined || domains.length === 0) continue;
    domains.forEach((domain, i) => {
      const problem = originProblem(domain);
      if (problem !== undefined)
        out.push(error(file.locate(["ui", "csp", key, i]), Codes.uiDomain, `ui.csp.${key}: ${JSON.stringify(domain)} is not an origin: ${problem}`));
    });
    csp[key] = [...domains];
  }
  return csp;
}

function viewOf(raw: RawUi, name: string, file: YamlSource, out: Diagnostic[]): ViewIR | undefined {
  if (raw.source === undefined) {
    for (const key of ["uri", "title", "description", "csp", "permissions", "prefersBorder", "calls"] as const) {
      if (raw[key] !== undefined)
        out.push(error(file.locate(["ui", key], { key: true }), Codes.uiView, `ui.${key} describes a view, and this \`ui:\` has no \`source\``));
    }
    return undefined;
  }
  const resolved = resolveSource(file.source, raw.source);
  if (resolved.problem !== undefined)
    out.push(error(file.locate(["ui", "source"]), Codes.uiView, `ui.source ${JSON.stringify(raw.source)} ${resolved.problem}`));
  const uriKey = raw.uri === undefined ? ["ui"] : ["ui", "uri"];
  return {
    source: resolved.path ?? raw.source,
    sourceAt: file.locate(["ui", "source"]),
    uri: raw.uri ?? `ui://${name}/view.html`,
    uriAt: file.locate(uriKey, { key: raw.uri === undefined }),
    ...(raw.title === undefined ? {} : { title: raw.title }),
    ...(raw.description === undefined ? {} : { description: raw.description }),
    csp: cspOf(raw, file, out),
    permissions: raw.permissions ?? [],
    ...(raw.prefersBorder === undefined ? {} : { prefersBorder: raw.prefersBorder }),
    calls: raw.calls ?? [],
    callsAt: (raw.calls ?? []).map((_, i) => file.locate(["ui", "calls", i])),
  };
}

/** The contract's `ui:` section as the IR carries it, or undefined without one. */
export function uiOf(raw: RawUi | undefined, name: string, file: YamlSource, out: Diagnostic[]): ToolUiIR | undefined {
  if (raw === undefined) return undefined;
  const view = viewOf(raw, name, file, out);
  return { ...(view === undefined ? {} : { view }), ...(raw.visibility === undefined ? {} : { visibility: raw.visibility }) };
}

/** The tool's `_meta` keys for its `ui:` section: `ui` (resourceUri, visibility), and the legacy flat key beside a view. */
export function uiMeta(ui: ToolUiIR | undefined): JsonObject {
  if (ui === undefined) return {};
  const meta: JsonObject = {
    ...(ui.view === undefined ? {} : { resourceUri: ui.view.uri }),
    ...(ui.visibility === undefined ? {} : { visibility: [...ui.visibility] }),
  };
  return { [UI_META_KEY]: meta, ...(ui.view === undefined ? {} : { [LEGACY_RESOURCE_URI_META_KEY]: ui.view.uri }) };
}
