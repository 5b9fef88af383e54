/**
 * Every fast-check property in the suite runs from one fixed seed, so a
 * failure in CI replays exactly on any machine. `FUZZ_SEED=<n>` explores
 * another (`npm run fuzz` also raises the run counts); a property that passes
 * its own `seed` keeps it.
 */
import fc from "fast-check";
import { CHAOS_SEED } from "../fuzz/config.js";

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: CHAOS_SEED });
