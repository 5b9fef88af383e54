/**
 * The views (MCP Apps) a change breaks. A view reads its own tool's output
 * (the result's `structuredContent`), and the output of each tool its
 * contract's `ui.calls` names, whose input it writes: a change there that a
 * client must act on (breaking, undecided, or a warning such as a new enum
 * value an exhaustive `switch` in the view does not handle) no longer fits
 * the view's compiled code, so it is breaking for the tool, and the change
 * names the view.
 */
import type { ToolIR } from "../ir.js";
import type { Affected, Change } from "./index.js";
import type { Level } from "./rules.js";

/** The label a report names a view by. */
function viewLabel(tool: ToolIR): string {
  return `the view of ${tool.name} (${tool.ui?.view?.uri ?? ""})`;
}

/**
 * `tool direction` → the views that read (output) or write (input) it: the
 * base's views, with the base's `calls`. A view was written against the data
 * of the side it was written for; one that is new in the head (or a call the
 * head's view adds) was written against the head's data, which no change
 * since the base can break. (The catalog's changelog compares a release with
 * today: a view added since must not be named under older changes.)
 */
function viewReaders(base: readonly ToolIR[]): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  const add = (key: string, label: string): void => {
    const list = readers.get(key) ?? [];
    if (!list.includes(label)) readers.set(key, [...list, label]);
  };
  for (const tool of base) {
    const view = tool.ui?.view;
    if (view === undefined) continue;
    const label = viewLabel(tool);
    add(`${tool.name} output`, label);
    for (const called of view.calls) {
      add(`${called} output`, label);
      add(`${called} input`, label);
    }
  }
  return readers;
}

const BREAKS_A_VIEW: ReadonlySet<Level> = new Set(["breaking", "undecided", "warning"]);

/** The changes, each one that breaks a view's data raised to breaking for the tools it reaches that way, and naming the views. */
export function markViewBreaks(changes: readonly Change[], base: readonly ToolIR[]): Change[] {
  const readers = viewReaders(base);
  if (readers.size === 0) return [...changes];
  return changes.map((change) => {
    const views: string[] = [];
    const affects = change.affects.map((a): Affected => {
      const seen = readers.get(`${a.tool} ${a.direction}`);
      if (seen === undefined || !BREAKS_A_VIEW.has(a.level)) return a;
      for (const label of seen) if (!views.includes(label)) views.push(label);
      return { ...a, level: "breaking" };
    });
    if (views.length === 0) return change;
    return { ...change, affects, level: "breaking", views, message: `${change.message}; breaks ${views.join(", ")}` };
  });
}
