// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Deadlines for in-flight attempts, on one shared timer.
 *
 * A timer per attempt (setTimeout, then clearTimeout when the handler
 * settles) costs more than the rest of a fast call. Here an attempt only
 * joins and leaves a list; the single timer is re-armed when a deadline
 * earlier than the armed one arrives, and when it fires it expires what is
 * due and re-arms for the earliest deadline left.
 *
 * The timer does not hold the process open by itself, so an idle executor
 * never delays exit. Only when the process is about to exit while attempts
 * are still in flight (a handler waiting on a promise nothing will settle)
 * does it hold on, so that those attempts end in a timeout as they would
 * anywhere else. Toggling that on every call would cost two native calls.
 */

/**
 * One attempt's deadline, and its links in the list of pending ones. An
 * intrusive list, not a Set: a Set must give every new deadline object an
 * identity hash, which cost more than everything else here.
 */
export interface Deadline {
  /** performance.now() at which the attempt times out. */
  readonly at: number;
  /** Called once, when `at` has passed, unless the deadline was cleared first. */
  onExpire(): void;
  prev: Deadline | undefined;
  next: Deadline | undefined;
  /** Whether it is still in the list (neither cleared nor expired). */
  pending: boolean;
}

type Handle = { ref?: () => void; unref?: () => void };

let head: Deadline | undefined;
let tail: Deadline | undefined;
let pendingCount = 0;

function link(deadline: Deadline): void {
  deadline.prev = tail;
  if (tail === undefined) head = deadline;
  else tail.next = deadline;
  tail = deadline;
  pendingCount++;
}

function unlink(deadline: Deadline): void {
  if (deadline.prev === undefined) head = deadline.next;
  else deadline.prev.next = deadline.next;
  if (deadline.next === undefined) tail = deadline.prev;
  else deadline.next.prev = deadline.prev;
  deadline.prev = deadline.next = undefined;
  deadline.pending = false;
  pendingCount--;
}
let timer: ReturnType<typeof setTimeout> | undefined;
/** When the armed timer fires; Infinity when none is armed. */
let armedAt = Number.POSITIVE_INFINITY;
/** Whether the timer holds the process open (only after a beforeExit with work in flight). */
let holding = false;

/** Node's timers can stop holding the process open; other runtimes' timers are plain numbers. */
function hold(on: boolean): void {
  holding = on;
  const handle = timer as Handle | undefined;
  if (typeof handle !== "object") return;
  if (on) handle.ref?.();
  else handle.unref?.();
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedAt = at;
  timer = setTimeout(onTimer, Math.max(0, at - performance.now()));
  hold(holding);
}

/** Node's setImmediate where there is one, read from globalThis so that the runtime needs no Node types. */
const immediate = (
  globalThis as { setImmediate?: (callback: () => void) => unknown }
).setImmediate;
export const nextTurn: (callback: () => void) => void =
  typeof immediate === "function"
    ? (callback) => void immediate(callback)
    : (callback) => void setTimeout(callback, 0);

/**
 * The timer fired: expire what is due one turn of the event loop later. After
 * a stall (a CPU-bound request, a long GC) many things are due at once: this
 * timer, the timer a handler was waiting on, the I/O that completed its work.
 * A plain timer per attempt would let those run in due order, so a handler
 * that finished before its deadline wins. One shared timer, armed for the
 * earliest deadline, would otherwise expire every later deadline that is now
 * past too, before those handlers' own timers and I/O get their turn.
 * Deadlines only fire on timeouts, so the extra turn costs nothing on a
 * normal call.
 */
function onTimer(): void {
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  nextTurn(expireDue);
}

function expireDue(): void {
  // A deadline set during the extra turn may have armed a timer; this pass re-arms for what is left anyway.
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  let next = Number.POSITIVE_INFINITY;
  const due: Deadline[] = [];
  for (let deadline = head; deadline !== undefined; deadline = deadline.next) {
    if (deadline.at <= now) due.push(deadline);
    else if (deadline.at < next) next = deadline.at;
  }
  for (const deadline of due) unlink(deadline);
  // The list is in the order deadlines were set; after a stall several are due at once, and they expire in deadline order.
  due.sort((a, b) => a.at - b.at);
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  else holding = false;
  for (const deadline of due) deadline.onExpire();
}

const nodeProcess = (
  globalThis as {
    process?: { on?: (event: string, listener: () => void) => void };
  }
).process;
nodeProcess?.on?.("beforeExit", () => {
  if (pendingCount > 0 && !holding) hold(true);
});

/**
 * Adds a deadline the caller made itself (an object that is also something
 * else, so that a call allocates one object less). It must be new: not
 * pending, with no links.
 */
export function addDeadline(deadline: Deadline): void {
  deadline.pending = true;
  link(deadline);
  if (deadline.at < armedAt) arm(deadline.at);
}

/** Calls `onExpire` at `at` (a performance.now() time) unless `clearDeadline` comes first. */
export function setDeadline(at: number, onExpire: () => void): Deadline {
  const deadline: Deadline = {
    at,
    onExpire,
    prev: undefined,
    next: undefined,
    pending: false,
  };
  addDeadline(deadline);
  return deadline;
}

export function clearDeadline(deadline: Deadline): void {
  if (!deadline.pending) return;
  unlink(deadline);
  if (pendingCount === 0 && holding) hold(false);
}
