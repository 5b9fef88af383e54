/** Side-by-side timing: warm-up, several interleaved rounds, medians. */

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

let sink = 0;
/** Keeps results alive so the JIT cannot drop the work. */
export function consume(value: unknown): void {
  if (value === sink) sink++;
}

/** ns per call of `fn`, over one timed batch. */
function batch(fn: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) consume(fn());
  return Number(process.hrtime.bigint() - t0) / n;
}

/**
 * Median ns per call for each candidate. Rounds interleave the candidates so
 * none gains from running first or while the machine is quiet.
 */
export function compareSync(candidates: Record<string, () => unknown>, { rounds = 9, batchMs = 40 } = {}): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [name, fn] of Object.entries(candidates)) {
    batch(fn, 2000); // warm-up
    const ns = batch(fn, 2000);
    sizes[name] = Math.max(100, Math.round((batchMs * 1e6) / Math.max(ns, 1)));
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [name, fn] of Object.entries(candidates)) samples[name].push(batch(fn, sizes[name]));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/** Median ms per call of async candidates, interleaved call by call. */
export async function compareAsync(candidates: Record<string, () => Promise<unknown>>, { warmup = 50, rounds = 300 } = {}): Promise<Record<string, number>> {
  for (const fn of Object.values(candidates)) for (let i = 0; i < warmup; i++) await fn();
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(candidates)) {
      const t0 = performance.now();
      await fn();
      samples[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/** The shortest of `runs` timed runs of `work`, in ms: for work long enough that one run is measurable on its own. */
export function bestOf(runs: number, work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
