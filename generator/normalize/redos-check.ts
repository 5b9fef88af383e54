/**
 * redos-detector, run in a worker thread and waited for synchronously.
 *
 * Why a thread: redos-detector forks its readers through WeakRefs and a
 * FinalizationRegistry. A WeakRef keeps its target alive until the end of
 * the job that made it, and cleanup callbacks run only between jobs, so a
 * synchronous loop over patterns (normalize checks every pattern of every
 * contract in one job) kept every reader of every pattern: 16 patterns such
 * as `^(?<x>x)(?:\k<x>|x)+$` held 4.25 GB, 22 ran out of memory. In the
 * worker each check is a job of its own: when it returns, what it made is
 * released. The worker is started once per thread, on the first pattern,
 * and does not keep the process alive.
 *
 * The budget is redos-detector's step count, never a clock, so the verdict
 * is the same on any machine. A step reading a backreference costs that
 * library about ten times the work (and memory) of any other, so a pattern
 * with one gets a smaller budget: a verdict for `^(x)(?:\1|x)+$` at the full
 * budget took 30 s and 400 MB. A worker that still dies (out of memory under
 * its resource limits) is replaced, and the pattern is refused.
 */
import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

/** Steps redos-detector may take on one pattern. */
export const PATTERN_STEPS = 20_000;
/** Steps for a pattern with a backreference (`\1`, `\k<name>` once numbered), each far costlier. */
export const BACKREFERENCE_STEPS = 2_000;
/** The worker's heap: far above what one check within its budget uses (about 40 MB), far below what would hurt. */
const WORKER_HEAP_MB = 512;
/** A safety net only, never reached within the step budget: how long to wait for a worker that neither answers nor dies. */
const WAIT_LIMIT_MS = 5 * 60_000;

/** What the checker said, reduced to what the verdict needs (plain data, posted between threads). */
export type DetectorReply =
  | { readonly kind: "verdict"; readonly safe: boolean; readonly error: string | null; readonly overlap?: readonly [string, string] }
  | { readonly kind: "unreadable"; readonly message: string }
  | { readonly kind: "failed"; readonly message: string };

/** The worker: CommonJS, evaluated from this string, so the same code runs from dist/ and from the TypeScript sources. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { isSafePattern } = require(workerData.detector);
parentPort.on("message", ({ pattern, maxSteps, signal, port }) => {
  let reply;
  try {
    const result = isSafePattern(pattern, { unicode: true, maxSteps });
    const step = result.safe ? undefined : result.trails[0]?.trail[0];
    reply = { kind: "verdict", safe: result.safe, error: result.error ?? null, ...(step ? { overlap: [step.a.node.source, step.b.node.source] } : {}) };
  } catch (e) {
    reply = { kind: "unreadable", message: String(e instanceof Error ? e.message : e).split("\\n")[0] };
  }
  port.postMessage(reply);
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

let worker: Worker | undefined;

function startWorker(): Worker {
  const detector = createRequire(import.meta.url).resolve("redos-detector");
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { detector }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  started.unref();
  // A worker that dies is replaced on the next check; the error itself was reported as that check's verdict.
  started.on("error", () => undefined);
  return started;
}

/** Whether `pattern` holds a backreference outside a character class: `\1`…`\9…`, or `\k<name>`. */
export function hasBackreference(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (!inClass && /[1-9k]/.test(pattern[i + 1] ?? "")) return true;
      i++;
    } else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
  }
  return false;
}

/** The step budget for `pattern`. */
export function stepBudget(pattern: string): number {
  return hasBackreference(pattern) ? BACKREFERENCE_STEPS : PATTERN_STEPS;
}

/** redos-detector's verdict on `pattern` (valid with the "u" flag, groups numbered), within its step budget. */
export function detect(pattern: string): DetectorReply {
  worker ??= startWorker();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ pattern, maxSteps: stepBudget(pattern), signal, port: port2 }, [port2]);
  const waited = Atomics.wait(signal, 0, 0, WAIT_LIMIT_MS);
  const reply = receiveMessageOnPort(port1)?.message as DetectorReply | undefined;
  port1.close();
  if (waited !== "timed-out" && reply !== undefined) return reply;
  // Out of memory, or stuck: this worker is done; the next check starts another.
  void worker.terminate();
  worker = undefined;
  return { kind: "failed", message: waited === "timed-out" ? "the checker did not finish" : "the checker ran out of memory" };
}
