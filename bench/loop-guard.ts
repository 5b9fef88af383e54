/**
 * A guarded provider `run` against the same call unguarded (issue #39's
 * target: within 1.1×). The call is the demo's get_order as OpenAI Chat
 * Completions sends it, valid, through `openai.run`; the guarded side
 * creates a fresh guard every ten calls, as a loop creates one per
 * conversation, and pays for that too. Also the refusal's own cost: the
 * guard answering a repeated invalid call without running anything.
 * Run alone: npx tsx bench/loop-guard.ts
 */
import { pathToFileURL } from "node:url";
import { createLoopGuard, type Handlers, type LoopGuard } from "../generated/index.js";
import { openai } from "../generated/providers.js";
import { consume, median } from "./lib/measure.js";

const handlers: Handlers = { get_order: async (input) => ({ found: true, customerId: input.customerId, orders: [{ id: "ord_1", status: "paid" }] }) };
const call = { id: "call_1", type: "function", function: { name: "get_order", arguments: '{"customerId":"cus_123","includeHistory":null}' } } as const;
const invalid = { ...call, function: { name: "get_order", arguments: '{"customerId":""}' } } as const;
const CONVERSATION = 10;

/**
 * The process's CPU time (user + system), in ns: on a machine other work
 * shares, wall time counts the time this process waited for a core, which
 * is noise here; CPU time counts what the calls cost.
 */
function cpuNs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

async function timeUnguarded(n: number): Promise<number> {
  const t0 = cpuNs();
  for (let i = 0; i < n; i++) consume(await openai.run(call, handlers));
  return (cpuNs() - t0) / n;
}

async function timeGuarded(n: number): Promise<number> {
  const t0 = cpuNs();
  let guard: LoopGuard = createLoopGuard();
  for (let i = 0; i < n; i++) {
    if (i % CONVERSATION === 0) guard = createLoopGuard();
    consume(await openai.run(call, handlers, { guard }));
  }
  return (cpuNs() - t0) / n;
}

/** ns per refused call: the same invalid arguments again, which the guard answers without the executor. */
async function timeRefusal(n: number): Promise<number> {
  const guard = createLoopGuard({ maxCalls: Number.MAX_SAFE_INTEGER });
  await openai.run(invalid, handlers, { guard });
  // Past the two refusals that stop the loop: a stopped guard refuses every call the same way.
  const t0 = cpuNs();
  for (let i = 0; i < n; i++) consume(await openai.run(invalid, handlers, { guard }));
  return (cpuNs() - t0) / n;
}

export interface GuardBench {
  unguarded: number;
  guarded: number;
  /** The median of the rounds' guarded / unguarded ratios: each round times both back to back, so load on the machine cancels out. */
  ratio: number;
  refusal: number;
}

export async function benchLoopGuard(rounds = 41, n = 10_000): Promise<GuardBench> {
  await timeUnguarded(n * 5);
  await timeGuarded(n * 5);
  await timeRefusal(n * 5);
  const u: number[] = [];
  const g: number[] = [];
  const r: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which side goes first, so neither always gets the warmer moment.
    const first = i % 2 === 0;
    const a = first ? await timeUnguarded(n) : await timeGuarded(n);
    const b = first ? await timeGuarded(n) : await timeUnguarded(n);
    const [unguarded, guarded] = first ? [a, b] : [b, a];
    u.push(unguarded);
    g.push(guarded);
    ratios.push(guarded / unguarded);
    r.push(await timeRefusal(n));
  }
  return { unguarded: median(u), guarded: median(g), ratio: median(ratios), refusal: median(r) };
}

/** The section bench/run.ts prints. */
export async function printLoopGuard(print: (line?: string) => void, quick: boolean): Promise<void> {
  const b = await benchLoopGuard(quick ? 11 : 41, 10_000);
  const ratio = b.ratio;
  print(
    "\n### Loop guard: openai.run of a valid get_order call, guarded against unguarded (CPU ns per call, median of interleaved rounds; ratio: median of the rounds' ratios; a fresh guard every 10 calls)\n",
  );
  print("| run | ns per call | vs unguarded | within 1.1× |");
  print("| --- | ---: | ---: | --- |");
  print(`| unguarded | ${b.unguarded.toFixed(0)} | 1.00× | — |`);
  print(`| guarded | ${b.guarded.toFixed(0)} | ${ratio.toFixed(2)}× | ${ratio <= 1.1 ? "met" : "NOT met"} |`);
  print(`| refused by the guard (the handler never runs) | ${b.refusal.toFixed(0)} | ${(b.refusal / b.unguarded).toFixed(2)}× | — |`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await printLoopGuard((line = "") => console.log(line), process.env.BENCH_QUICK === "1");
