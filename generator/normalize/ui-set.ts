/**
 * The `ui:` checks that need every tool at once: a `ui://` URI two views
 * claim (a host would show one tool's view for the other's result), and a
 * view's `calls` naming a tool the definitions do not declare.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, ToolIR } from "../ir.js";
import { didYouMean } from "../load/suggest.js";

export function lintViews(tools: readonly ToolIR[], out: Diagnostic[]): void {
  const byUri = new Map<string, ToolIR>();
  const names = tools.map((t) => t.name);
  for (const tool of tools) {
    const view = tool.ui?.view;
    if (view === undefined) continue;
    const first = byUri.get(view.uri);
    if (first !== undefined) {
      out.push(
        error(
          view.uriAt,
          Codes.uiUriClash,
          `ui:// resource ${view.uri} is already the view of \`${first.name}\` (${first.source}); give this view a \`ui.uri\` of its own`,
        ),
      );
    } else byUri.set(view.uri, tool);
    view.calls.forEach((called, i) => {
      if (names.includes(called)) return;
      const at = view.callsAt[i] ?? view.sourceAt;
      out.push(error(at, Codes.uiCalls, `ui.calls names \`${called}\`, which is not a tool of these definitions${didYouMean(called, names)}`));
    });
  }
}
