/**
 * A small MCP Apps host for the browser test, written on the extension's
 * host side (AppBridge, PostMessageTransport): it connects to the generated
 * server over Streamable HTTP as a client that declares the extension, calls
 * the tool, reads the `ui://` resource the tool's `_meta.ui` names, and
 * renders it in a sandboxed iframe (scripts only, an opaque origin) under a
 * Content Security Policy built from the resource's `_meta.ui.csp`, as a host
 * does. The bridge carries the view's tool calls to the server. Bundled for
 * the browser by the test (esbuild); status goes to `window.hostLog`.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, buildAllowAttribute, getToolUiResourceUri, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The little of the DOM the host uses, typed here: toolc's own tsc runs without the DOM library. */
interface IFrame {
  setAttribute(name: string, value: string): void;
  title: string;
  style: { cssText: string };
  contentWindow: unknown;
  srcdoc: string;
}
interface HostDom {
  location: { href: string };
  document: { createElement(tag: "iframe"): IFrame; getElementById(id: string): { append(node: IFrame): void } | null };
  hostLog: string[];
}
const dom = globalThis as unknown as HostDom;
const log: string[] = [];
dom.hostLog = log;

/** The policy a host puts on a view: nothing but its own inline code, and the origins the resource declares. */
function policyOf(csp: Csp | undefined): string {
  const list = (domains: string[] | undefined): string => (domains === undefined || domains.length === 0 ? "" : ` ${domains.join(" ")}`);
  const resources = list(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data:${resources}`,
    `font-src${resources || " 'none'"}`,
    `connect-src${list(csp?.connectDomains) || " 'none'"}`,
    `frame-src${list(csp?.frameDomains) || " 'none'"}`,
    `base-uri${list(csp?.baseUriDomains) || " 'self'"}`,
  ].join("; ");
}

/**
 * The `Mcp-Param-*` headers of a call on protocol 2026-07-28 (SEP-2243): one per top-level input property
 * the tool's schema marks `x-mcp-header`. The SDK's client mirrors them itself, but not in a browser, so a
 * host running its client in a page (this one) sets them; the server refuses a call without them (400, -32020).
 */
function paramHeaders(schema: { properties?: Record<string, unknown> } | undefined, args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    const header = typeof property === "object" && property !== null ? (property as { "x-mcp-header"?: unknown })["x-mcp-header"] : undefined;
    const value = args[key];
    if (typeof header === "string" && (typeof value === "string" || typeof value === "number" || typeof value === "boolean"))
      headers[`Mcp-Param-${header}`] = String(value);
  }
  return headers;
}

async function main(): Promise<void> {
  // Version negotiation on: the client offers protocol 2026-07-28 (without it, the SDK 2.x client speaks 2025-11-25).
  const client = new Client(
    { name: "toolc-apps-host", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", dom.location.href)));
  log.push(`protocol ${client.getNegotiatedProtocolVersion() ?? "none"}`);
  const { tools } = await client.listTools();
  // The tool and its arguments: the page's query (?tool=get_order&args={...}), the fixture's show_order by default.
  const query = new URL(dom.location.href).searchParams;
  const name = query.get("tool") ?? "show_order";
  const args = JSON.parse(query.get("args") ?? '{"orderId":"ord_42"}') as Record<string, unknown>;
  const tool = tools.find((t) => t.name === name);
  const uri = tool === undefined ? undefined : getToolUiResourceUri(tool);
  if (uri === undefined) throw new Error(`${name} has no view`);
  log.push(`view ${uri}`);
  const resource = await client.readResource({ uri });
  const content = resource.contents[0] as { text: string; mimeType?: string; _meta?: { ui?: { csp?: Csp; permissions?: object } } };
  log.push(`mime ${content.mimeType ?? ""}`);
  const ui = content._meta?.ui;
  const html = content.text.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${policyOf(ui?.csp)}">`);

  const iframe = dom.document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("allow", buildAllowAttribute(ui?.permissions));
  iframe.title = `${name} view`;
  iframe.style.cssText = "width: 560px; height: 220px; border: 1px solid #bbb";
  dom.document.getElementById("view")!.append(iframe);
  const bridge = new AppBridge(client, { name: "toolc-apps-host", version: "1.0.0" }, { serverTools: {}, logging: {} });
  bridge.oninitialized = () => {
    log.push("view initialized");
    void (async () => {
      await bridge.sendToolInput({ arguments: args });
      const result = await client.callTool({ name, arguments: args }, { headers: paramHeaders(tool?.inputSchema, args) });
      await bridge.sendToolResult(result as never);
      log.push("result sent");
    })();
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow as never, iframe.contentWindow as never));
  iframe.srcdoc = html;
}

main().catch((error: unknown) => log.push(`host error: ${String(error)}`));
