/**
 * Run counts for the fuzz suite. CI runs the default; `npm run fuzz` sets
 * FUZZ_RUNS=20000. Costlier properties scale the count down, and every test
 * gets a timeout that grows with it, so a long run is never cut short.
 */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 200) || 200);

/** `FUZZ_RUNS / divisor`, at least `min`. */
export function runs(divisor = 1, min = 10): number {
  return Math.max(min, Math.floor(FUZZ_RUNS / divisor));
}

/** A test timeout for `n` runs of about `msPerRun` each, never below a minute. */
export function timeoutFor(n: number, msPerRun = 5): number {
  return Math.max(60_000, n * msPerRun * 4);
}

/**
 * The seed of every property in the suite (test/setup/fast-check.ts sets it
 * for all of them): fixed, so a failure in CI replays exactly; FUZZ_SEED
 * explores others.
 */
export const CHAOS_SEED = Number(process.env.FUZZ_SEED ?? 29) || 29;
