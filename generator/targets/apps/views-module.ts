/**
 * `views.ts`: the project's views (MCP Apps) as the `ui://` resources
 * createServer serves, each with its HTML as the contract's `ui.source` held
 * it when the code was generated, and its `_meta.ui` (CSP origins, sandbox
 * permissions, border) as the extension names them.
 */
import type { EmittedFile, ToolIR, ViewIR } from "../../ir.js";
import { code, FileBuilder, typeSymbol } from "../../printer/file-builder.js";
import { headerComment } from "../../printer/header.js";
import { fittedLiteral, jsDoc } from "../../printer/literal.js";

function resourceMeta(view: ViewIR): Record<string, unknown> {
  return {
    ...(Object.keys(view.csp).length === 0 ? {} : { csp: view.csp }),
    ...(view.permissions.length === 0 ? {} : { permissions: Object.fromEntries(view.permissions.map((p) => [p, {}])) }),
    ...(view.prefersBorder === undefined ? {} : { prefersBorder: view.prefersBorder }),
  };
}

/** `views` holds each tool that has a view, by tool name, with the HTML read for it (`html`, by tool name). */
export function emitViewsModule(tools: readonly ToolIR[], html: ReadonlyMap<string, string>): EmittedFile {
  const file = new FileBuilder("views.ts", headerComment("the definitions folder"));
  const type = typeSymbol("ViewResource", "./runtime/apps.js");
  const entries = tools.flatMap((tool) => {
    const view = tool.ui?.view;
    if (view === undefined) return [];
    const resource = {
      uri: view.uri,
      name: tool.name,
      ...(view.title === undefined ? {} : { title: view.title }),
      ...(view.description === undefined ? {} : { description: view.description }),
      meta: resourceMeta(view),
      html: html.get(tool.name) ?? "",
    };
    return [`  ${fittedLiteral(resource, { depth: 1 })},\n`];
  });
  file.add(code`${jsDoc(["The views of this project's tools (MCP Apps), served by `createServer` as `ui://` resources."])!}
export const views: readonly ${type}[] = [
${entries.join("")}];`);
  return { path: file.path, text: file.toText() };
}
