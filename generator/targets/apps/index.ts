/**
 * The MCP Apps target: for the tools whose contract has a `ui:` view, the
 * view's typed wrapper (`views/<tool>.ts`, from the IR) and `views.ts`, the
 * `ui://` resources createServer serves, with each view's HTML read from the
 * definitions folder once per run. The HTML files are part of the run's
 * cache key, so an edited view is generated again. A project without a view
 * gets none of its files.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Codes, error } from "../../diagnostics.js";
import type { Diagnostic } from "../../ir.js";
import type { Target } from "../target.js";

export { EXT_APPS_PACKAGE, viewExportNames } from "./view-wrapper.js";

/** Every .html file below `dir`, sorted: what a view can be. */
function htmlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.html?$/i.test(entry.name)) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

export const appsTarget: Target = {
  name: "apps",
  root: "out",
  marker: "generated",
  runKey(plan) {
    const files = htmlFiles(plan.definitions);
    if (files.length === 0) return { key: "", diagnostics: [] };
    const hash = createHash("sha256");
    for (const path of files) hash.update(relative(plan.definitions, path).split(sep).join("/")).update("\0").update(readFileSync(path)).update("\0");
    return { key: hash.digest("hex"), diagnostics: [] };
  },
  async load() {
    const [{ emitViewWrapper }, { emitViewsModule }] = await Promise.all([import("./view-wrapper.js"), import("./views-module.js")]);
    return {
      sharedFiles: (ir) => ir.tools.filter((tool) => tool.ui?.view !== undefined).map((tool) => emitViewWrapper(tool, ir)),
      runFiles(head, plan) {
        const withViews = head.ir.tools.filter((tool) => tool.ui?.view !== undefined);
        if (withViews.length === 0) return Promise.resolve({ files: [], diagnostics: [] });
        const html = new Map<string, string>();
        const diagnostics: Diagnostic[] = [];
        for (const tool of withViews) {
          const view = tool.ui!.view!;
          try {
            html.set(tool.name, readFileSync(join(plan.definitions, ...view.source.split("/")), "utf8"));
          } catch {
            diagnostics.push(
              error(view.sourceAt, Codes.uiView, `ui.source: the view ${view.source} is not in the definitions folder (build it first if it is a bundle)`),
            );
          }
        }
        if (diagnostics.length > 0) return Promise.resolve({ diagnostics });
        return Promise.resolve({ files: [emitViewsModule(head.ir.tools, html)], diagnostics });
      },
    };
  },
};
