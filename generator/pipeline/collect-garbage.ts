/**
 * Full garbage collections at the points of a large compile where much has
 * just become garbage: after every text was loaded, each time the shared
 * Ajv instances are started afresh (compile-tool.ts), after each target's
 * shared files were made (compile-texts.ts), and before the write (run.ts).
 *
 * Why: V8 sets the old generation's next limit at up to four times what
 * survived its last full collection. On GitHub's 1,223 tools that one ran
 * just after loading, with every loaded document still held (109 MB live),
 * so no other ran for the next 24 seconds of the compile while the heap
 * grew to 451 MB, of which 335 MB was garbage (`--trace-gc`, 2026-12-07):
 * the run's peak memory was set by when V8 last looked, not by what the
 * compile holds. Collected at these points, the heap stays within what the
 * run holds plus one stretch of 200 tools' garbage. Each collection costs
 * about 0.1 s there, so a small run (under LARGE_STEP texts or tools) does
 * none.
 *
 * `gc` is exposed to this process for the moment it takes to read it, then
 * the flag is turned off again, so no other code sees a `gc` global; where it
 * cannot be had (another runtime), nothing is collected and nothing else
 * changes.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A step over at least this many texts or tools is large enough to collect after. */
export const LARGE_STEP = 200;

let collector: (() => void) | null | undefined;

function readCollector(): (() => void) | null {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as () => void;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

/** One full collection now; false when this runtime offers none. */
export function collectGarbage(): boolean {
  if (collector === undefined) collector = readCollector();
  collector?.();
  return collector !== null;
}

/** A collection after a step over `work` texts or tools, when it was large (LARGE_STEP). */
export function collectAfter(work: number): void {
  if (work >= LARGE_STEP) collectGarbage();
}
