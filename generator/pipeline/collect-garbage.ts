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
 * none, and a step that left little garbage (the heap grew by less than
 * MIN_GARBAGE_BYTES since the last full collection) is not collected after:
 * on GitHub's tools, three of the targets' shared files left under 3 MB each
 * and were collected for 0.1 s apiece.
 *
 * `gc` is exposed to this process for the moment it takes to read it, then
 * the flag is turned off again, so no other code sees a `gc` global; where it
 * cannot be had (another runtime), nothing is collected and nothing else
 * changes.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
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

/** A step that grew the heap by less than this since the last full collection made too little garbage to collect after. */
export const MIN_GARBAGE_BYTES = 32 * 1024 * 1024;

/** The heap in use (live and garbage) just after the last full collection made here. */
let usedAfterCollection = 0;

const usedHeap = (): number => getHeapStatistics().used_heap_size;

/** One full collection now; false when this runtime offers none. */
export function collectGarbage(): boolean {
  if (collector === undefined) collector = readCollector();
  collector?.();
  usedAfterCollection = usedHeap();
  return collector !== null;
}

/**
 * A collection after a step over `work` texts or tools, when it was large (LARGE_STEP) and the heap has
 * grown by MIN_GARBAGE_BYTES since the last collection (what the step kept counts as garbage here, so this
 * errs on the side of collecting). Whether it collected.
 */
export function collectAfter(work: number): boolean {
  if (work < LARGE_STEP || usedHeap() - usedAfterCollection < MIN_GARBAGE_BYTES) return false;
  return collectGarbage();
}
