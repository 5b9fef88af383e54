/**
 * Format checker speed, toolc's runtime/formats.ts against ajv-formats' full
 * mode, as a ratio from one run. Run: npx tsx bench/formats.bench.ts
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import { formats } from "../generator/runtime/formats.js";

type Check = (s: string) => boolean;
const ajv = (name: string): Check => {
  const f = (fullFormats as Record<string, unknown>)[name] as RegExp | Check | { validate: RegExp | Check };
  const v = typeof f === "object" && !(f instanceof RegExp) ? f.validate : f;
  return v instanceof RegExp ? (s) => v.test(s) : v;
};

const SAMPLES: Record<string, string[]> = {
  "date-time": ["2026-03-14T09:26:53Z", "2024-02-29T23:59:59.123+05:30", "1998-12-31T23:59:60Z", "2026-02-30T10:00:00Z"],
  date: ["2026-03-14", "2024-02-29", "2026-02-30"],
  uuid: ["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2EB8AA08-AA98-11EA-B4AA-73B441D1638"],
  uri: ["https://example.com/orders/ord_1?expand=lines#top", "urn:isbn:0451450523"],
  email: ["joe.bloggs@example.com"],
};

/** ns per call, best of 5 runs of `n` calls over the samples. */
function measure(check: Check, samples: string[], n = 1_000_000): number {
  let best = Infinity;
  let sink = 0;
  for (let run = 0; run < 5; run++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (check(samples[i % samples.length])) sink++;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / n);
  }
  if (sink < 0) console.log(sink);
  return best;
}

console.log(`node ${process.version}; ajv-formats full mode vs toolc runtime/formats.ts`);
for (const [name, samples] of Object.entries(SAMPLES)) {
  // Alternate order and keep the best, so neither side gains from running first.
  const ours0 = measure(formats[name], samples);
  const theirs = Math.min(measure(ajv(name), samples), measure(ajv(name), samples));
  const ours = Math.min(ours0, measure(formats[name], samples));
  console.log(`${name.padEnd(10)} ajv-formats ${theirs.toFixed(0).padStart(4)} ns   toolc ${ours.toFixed(0).padStart(4)} ns   ${(theirs / ours).toFixed(1)}x`);
}
